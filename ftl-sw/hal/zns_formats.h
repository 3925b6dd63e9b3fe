/* The NVMe Zoned Namespace command set's data formats (NVMe ZNS command set specification 1.1,
 * ratified TP 4053; docs/references.md#zns), as the host sees them: the zone descriptor the
 * Report Zones action of Zone Management Receive returns one of per zone (64 bytes) after a
 * 64-byte header, the zoned parts of Identify (namespace: ZOC, OZCS, MAR, MOR, the zone size
 * of the LBA format; controller: ZASL), the zone states, types and attributes, the actions of
 * Zone Management Send and the reporting options of Zone Management Receive, and the command
 * set's statuses (status code type 1h, command specific: type << 8 | code).  Shared by the
 * device firmware (which fills them) and the host models (which read them); little-endian.
 * The opcodes are the host interface's (hal/regs.h).
 * Leaves out: the extended report (zone descriptor extensions: none are kept), the Zone
 * Descriptor Changed event log, ZRWA fields (no zoned random write area). */
#ifndef SSDVP_HAL_ZNS_FORMATS_H
#define SSDVP_HAL_ZNS_FORMATS_H

#include <stdint.h>

/* Zone type (ZT): every zone is sequential write required. */
#define SSD_ZNS_ZT_SEQ_WRITE_REQUIRED 0x2u

/* Zone states (the ZS field: bits 7:4 of the descriptor's byte 1). */
#define SSD_ZNS_ZS_EMPTY      0x1u
#define SSD_ZNS_ZS_IMPL_OPEN  0x2u
#define SSD_ZNS_ZS_EXPL_OPEN  0x3u
#define SSD_ZNS_ZS_CLOSED     0x4u
#define SSD_ZNS_ZS_READ_ONLY  0xDu
#define SSD_ZNS_ZS_FULL       0xEu
#define SSD_ZNS_ZS_OFFLINE    0xFu

/* Zone attributes (ZA). */
#define SSD_ZNS_ZA_ZFC  0x01u   /* zone finished by the controller */
#define SSD_ZNS_ZA_FZR  0x02u   /* finish zone recommended */
#define SSD_ZNS_ZA_RZR  0x04u   /* reset zone recommended */

struct ssd_zns_zone_desc {
  uint8_t  zt;                       /* SSD_ZNS_ZT_* */
  uint8_t  zs;                       /* state << 4 */
  uint8_t  za;                       /* SSD_ZNS_ZA_* */
  uint8_t  zai;
  uint8_t  rsvd0[4];
  uint64_t zcap;                     /* byte 8: writable logical blocks */
  uint64_t zslba;                    /* byte 16: the zone's first LBA */
  uint64_t wp;                       /* byte 24: write pointer (a full zone's: zslba + zcap) */
  uint8_t  rsvd1[32];
};

/* The report's header: zones matching (all to the end, or those returned with the partial bit). */
struct ssd_zns_report_header {
  uint64_t nr_zones;
  uint8_t  rsvd[56];
};

/* Identify Namespace, the zoned command set's (CNS 05h, CSI 02h), 4 KiB: the fields kept. */
struct ssd_zns_lbafe {
  uint64_t zsze;                     /* zone size in logical blocks */
  uint8_t  zdes;                     /* zone descriptor extension size: 0 */
  uint8_t  rsvd[7];
};

struct ssd_zns_id_ns {
  uint16_t zoc;                      /* zone operation characteristics: 0 */
  uint16_t ozcs;                     /* optional zoned command support: 0 (no read across zone boundaries) */
  uint32_t mar;                      /* max active resources, 0's based; 0xFFFFFFFF: no limit */
  uint32_t mor;                      /* max open resources, 0's based; 0xFFFFFFFF: no limit */
  uint32_t rrl, frl;                 /* reset / finish recommended limits: 0 (not reported) */
  uint8_t  rsvd0[2796];
  struct ssd_zns_lbafe lbafe[16];    /* byte 2816: the LBA formats' zone sizes (format 0: 4 KiB) */
  uint8_t  rsvd1[768];
  uint8_t  vs[256];                  /* byte 3840: vendor specific: ssdvp's (struct ssd_zns_vs) */
};

/* ssdvp's vendor-specific part of the namespace identify: what the spec leaves to other pages. */
struct ssd_zns_vs {
  uint64_t nr_zones;
  uint64_t zcap;                     /* every zone's capacity */
  uint32_t zasl_sectors;             /* Zone Append's largest transfer (Identify Controller ZASL) */
  uint32_t dies_per_zone;            /* how a zone's writes spread (docs/zns.md) */
};

/* Identify Controller, the zoned command set's (CNS 06h, CSI 02h): the zone append size limit,
 * a power of two in units of the minimum memory page size (4 KiB); 0: MDTS. */
struct ssd_zns_id_ctrl {
  uint8_t zasl;
  uint8_t rsvd[4095];
};

/* Zone Management Send actions (CDW13 bits 7:0) and Select All (CDW13 bit 8). */
#define SSD_ZNS_ZSA_CLOSE   0x1u
#define SSD_ZNS_ZSA_FINISH  0x2u
#define SSD_ZNS_ZSA_OPEN    0x3u
#define SSD_ZNS_ZSA_RESET   0x4u
#define SSD_ZNS_ZSA_OFFLINE 0x5u
#define SSD_ZNS_SELECT_ALL  0x100u

/* Zone Management Receive: action Report Zones (CDW13 bits 7:0), its reporting options (bits
 * 15:8: which zones) and the partial report bit (16). */
#define SSD_ZNS_ZRA_REPORT         0x0u
#define SSD_ZNS_ZRAS_ALL           0x0u
#define SSD_ZNS_ZRAS_EMPTY         0x1u
#define SSD_ZNS_ZRAS_IMPL_OPEN     0x2u
#define SSD_ZNS_ZRAS_EXPL_OPEN     0x3u
#define SSD_ZNS_ZRAS_CLOSED        0x4u
#define SSD_ZNS_ZRAS_FULL          0x5u
#define SSD_ZNS_ZRAS_READ_ONLY     0x6u
#define SSD_ZNS_ZRAS_OFFLINE       0x7u
#define SSD_ZNS_ZRAS_NOT_WP        0x3Fu   /* zones without a write pointer: none here */
#define SSD_ZNS_PARTIAL_REPORT     0x10000u

/* Statuses of the zoned command set (beside NVMe's generic ones: SSD_ST_* in regs.h). */
#define SSD_ZNS_ST_BOUNDARY_ERROR    0x01B8u   /* an access past its zone's capacity or across zones */
#define SSD_ZNS_ST_ZONE_FULL         0x01B9u
#define SSD_ZNS_ST_ZONE_READ_ONLY    0x01BAu
#define SSD_ZNS_ST_ZONE_OFFLINE      0x01BBu
#define SSD_ZNS_ST_INVALID_WRITE     0x01BCu   /* a write not at the write pointer */
#define SSD_ZNS_ST_TOO_MANY_ACTIVE   0x01BDu
#define SSD_ZNS_ST_TOO_MANY_OPEN     0x01BEu
#define SSD_ZNS_ST_INVALID_TRANSITION 0x01BFu  /* a management action the zone's state forbids */

#endif /* SSDVP_HAL_ZNS_FORMATS_H */
