/* The Open-Channel SSD 2.0 command set's data formats, as the host sees them: the Identify
 * Geometry structure (4 KiB, the spec's field offsets), the LBA format inside it, and the
 * chunk descriptor the chunk information log page (log identifier CAh) holds one of per chunk
 * (32 bytes).  Shared by the device firmware (which fills them) and the host models (which
 * read them); little-endian, as the spec's fields and both of ssdvp's targets are.
 * Also the statuses Open-Channel commands complete with (NVMe status field: type << 8 | code).
 * Leaves out: the commands themselves (vector reset, write, read with LBA lists), which come
 * with the device that answers them. */
#ifndef SSDVP_HAL_OC_FORMATS_H
#define SSDVP_HAL_OC_FORMATS_H

#include <stdint.h>

/* Bit lengths of the LBA's fields, from the least significant: sector (logical block) in the
 * chunk, chunk in the parallel unit, parallel unit in the group, group. */
struct ssd_oc_lbaf {
  uint8_t grp_len, pu_len, chk_len, lba_len;
  uint8_t rsvd[4];
};

struct ssd_oc_geometry {
  uint8_t  mjr, mnr;                 /* 2.0 */
  uint8_t  rsvd0[6];
  struct ssd_oc_lbaf lbaf;           /* byte 8 */
  uint32_t mccap;                    /* byte 16: media and controller capabilities */
  uint8_t  rsvd1[12];
  uint8_t  wit;                      /* byte 32: wear-level index delta threshold */
  uint8_t  rsvd2[31];
  uint16_t num_grp, num_pu;          /* byte 64 */
  uint32_t num_chk;                  /* chunks per parallel unit */
  uint32_t clba;                     /* logical blocks (4 KiB sectors) per chunk */
  uint8_t  rsvd3[52];
  uint32_t ws_min;                   /* byte 128: smallest write, sectors */
  uint32_t ws_opt;                   /* the write size that uses the parallel unit best */
  uint32_t mw_cunits;                /* sectors the host must keep cached after writing them
                                        before a read of them from the chunk is safe */
  uint32_t maxoc, maxocpu;           /* open chunks at most: in all, per parallel unit */
  uint8_t  rsvd4[44];
  uint32_t trdt, trdm;               /* byte 192: read time, typical and max, ns */
  uint32_t twrt, twrm;               /* write (program) */
  uint32_t tcrst, tcrsm;             /* chunk reset (erase) */
  uint8_t  rsvd5[40];
  uint8_t  rsvd6[2816];              /* byte 256 */
  uint8_t  vs[1024];                 /* byte 3072: vendor specific */
};

/* Chunk states (chunk descriptor cs): one bit set. */
#define SSD_OC_CHUNK_FREE     0x01u
#define SSD_OC_CHUNK_CLOSED   0x02u
#define SSD_OC_CHUNK_OPEN     0x04u
#define SSD_OC_CHUNK_OFFLINE  0x08u
/* Chunk type (ct): bit 0, writes must be sequential; bit 4, the chunk deviates from the
 * geometry (cnlb says its size). */
#define SSD_OC_CHUNK_SEQ_WRITE  0x01u
#define SSD_OC_CHUNK_DEVIATES   0x10u

struct ssd_oc_chunk {
  uint8_t  cs;                       /* SSD_OC_CHUNK_* state */
  uint8_t  ct;                       /* type */
  uint8_t  wli;                      /* wear-level index (ssdvp: the chunk's resets, up to 255) */
  uint8_t  rsvd[5];
  uint64_t slba;                     /* its first LBA */
  uint64_t cnlb;                     /* its logical blocks */
  uint64_t wp;                       /* write pointer: the next LBA to write */
};

#define SSD_OC_LOG_CHUNK_INFO 0xCAu  /* Get Log Page identifier of the chunk information */

/* Media and controller capabilities (mccap). */
#define SSD_OC_MCCAP_MULTIPLE_RESETS 0x2u   /* a free chunk may be reset again */

/* Statuses (the spec's, beside NVMe's generic and media ones that apply: SSD_ST_* in regs.h). */
#define SSD_OC_ST_INVALID_FIELD    0x0002u   /* a write not a multiple of ws_min */
#define SSD_OC_ST_LBAL_INVALID     0x01C1u   /* LBA list length invalid */
#define SSD_OC_ST_WRITE_FAULT      0x0280u   /* a write into a closed or offline chunk, or past its end */
#define SSD_OC_ST_UNWRITTEN        0x0287u   /* a read of a logical block not written (or not yet
                                                readable: the last mw_cunits of an open chunk) */
#define SSD_OC_ST_OFFLINE_CHUNK    0x02C0u
#define SSD_OC_ST_INVALID_RESET    0x02C1u   /* a reset of a chunk in a state that may not be reset */
#define SSD_OC_ST_WRITE_NEXT_UNIT  0x02F0u   /* a write failed: write the data to the next unit */
#define SSD_OC_ST_EARLY_CLOSE      0x02F1u   /* a write failed and the chunk was closed */
#define SSD_OC_ST_OUT_OF_ORDER     0x02F2u   /* a write not at the chunk's write pointer */

#endif /* SSDVP_HAL_OC_FORMATS_H */
