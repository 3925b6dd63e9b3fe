/* The Open-Channel SSD 2.0 command set's data formats, as the host sees them: the Identify
 * Geometry structure (4 KiB, the spec's field offsets), the LBA format inside it, and the
 * chunk descriptor the chunk information log page (log identifier CAh) holds one of per chunk
 * (32 bytes).  Shared by the device firmware (which fills them) and the host models (which
 * read them); little-endian, as the spec's fields and both of ssdvp's targets are.
 * Leaves out: the commands (vector reset, write, read; their statuses), which come with the
 * device that answers them. */
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
  uint8_t  wli;                      /* wear-level index: erases, 0 .. 255 of the rated */
  uint8_t  rsvd[5];
  uint64_t slba;                     /* its first LBA */
  uint64_t cnlb;                     /* its logical blocks */
  uint64_t wp;                       /* write pointer: the next LBA to write */
};

#define SSD_OC_LOG_CHUNK_INFO 0xCAu  /* Get Log Page identifier of the chunk information */

#endif /* SSDVP_HAL_OC_FORMATS_H */
