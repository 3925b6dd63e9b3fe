/* NVMe Flexible Data Placement's data formats (NVMe 2.1 base specification, ratified TP 4146;
 * docs/references.md#fdp), as the host sees them: the placement directive of a write, the log
 * pages of an endurance group's FDP configuration (FDP Configurations 20h, Reclaim Unit Handle
 * Usage 21h, FDP Statistics 22h, FDP Events 23h), the Reclaim Unit Handle Status that I/O
 * Management Receive returns, and the events.  Shared by the device firmware (which fills them)
 * and the host models (which read them); little-endian.  The opcodes are the host interface's
 * (hal/regs.h).
 * Leaves out: Set/Get Features of the FDP configuration and of the events to log (one
 * configuration, every event type logged), vendor-specific parts, namespaces (one). */
#ifndef SSDVP_HAL_FDP_FORMATS_H
#define SSDVP_HAL_FDP_FORMATS_H

#include <stdint.h>

/* A write's data placement directive, packed into the host interface's cdw[1] of a write
 * (NVMe: DTYPE in CDW12 bits 23:20, DSPEC in CDW13 bits 31:16). */
#define SSD_FDP_DTYPE_PLACEMENT 0x2u            /* directive type: data placement */
#define SSD_WRITE_DTYPE_SHIFT   16u             /* cdw[1] bits 19:16: DTYPE */
#define SSD_WRITE_DSPEC_MASK    0xFFFFu         /* cdw[1] bits 15:0: DSPEC, the placement
                                                   identifier: reclaim group in its upper RGIF
                                                   bits, placement handle below */

/* Log page identifiers (Get Log Page, here SSD_HOP_LOG_PAGE's cdw[0]). */
#define SSD_LID_FDP_CONFIGS 0x20u
#define SSD_LID_FDP_RUH_USAGE 0x21u
#define SSD_LID_FDP_STATS   0x22u
#define SSD_LID_FDP_EVENTS  0x23u

/* Reclaim unit handle types. */
#define SSD_FDP_RUHT_INITIALLY_ISOLATED     1u
#define SSD_FDP_RUHT_PERSISTENTLY_ISOLATED  2u

/* FDP Configurations log: a header, then one configuration descriptor with its handles. */
struct ssd_fdp_config_log {
  uint16_t n;                        /* configurations, 0's based */
  uint8_t  version;
  uint8_t  rsvd3;
  uint32_t size;                     /* bytes of the whole log */
  uint8_t  rsvd8[8];
};
#define SSD_FDPA_VALID   0x80u       /* fdpa: the configuration is valid */
#define SSD_FDPA_FDPVWC  0x10u       /* fdpa: a volatile write cache sits in front of the RUs */
struct ssd_fdp_config_desc {
  uint16_t size;                     /* bytes of this descriptor with its handle descriptors */
  uint8_t  fdpa;                     /* RGIF in bits 3:0, SSD_FDPA_* */
  uint8_t  vss;
  uint32_t nrg;                      /* reclaim groups */
  uint16_t nruh;                     /* reclaim unit handles */
  uint16_t maxpids;                  /* placement identifiers a namespace may use, 0's based */
  uint32_t nnss;                     /* namespaces supported */
  uint64_t runs;                     /* reclaim unit nominal size, bytes */
  uint32_t erutl;                    /* estimated reclaim unit time limit: 0 (none) */
  uint8_t  rsvd28[36];
};
struct ssd_fdp_ruh_desc {
  uint8_t  ruht;                     /* SSD_FDP_RUHT_* */
  uint8_t  rsvd1[3];
};

/* Reclaim Unit Handle Usage log: a header, one descriptor per handle. */
struct ssd_fdp_ruhu_log {
  uint16_t nruh;
  uint8_t  rsvd2[6];
};
#define SSD_FDP_RUHA_HOST 0x01u      /* a host write named the handle */
#define SSD_FDP_RUHA_CTRL 0x02u      /* the controller used it (writes without a directive) */
struct ssd_fdp_ruhu_desc {
  uint8_t  ruha;
  uint8_t  rsvd1[7];
};

/* FDP Statistics log: 128-bit counters (the firmware fills the low 64 bits). */
struct ssd_fdp_stats_log {
  uint64_t hbmw[2];                  /* host bytes with metadata written */
  uint64_t mbmw[2];                  /* media bytes with metadata written (host, GC, padding,
                                        mapping) */
  uint64_t mbe[2];                   /* media bytes erased */
  uint8_t  rsvd48[16];
};

/* FDP Events log: a header, then the events, oldest first. */
struct ssd_fdp_events_log {
  uint32_t n;
  uint8_t  rsvd4[60];
};
#define SSD_FDP_EVT_RU_NOT_FULLY_WRITTEN 0x00u   /* a handle left an RU it had partly written */
#define SSD_FDP_EVT_INVALID_PID          0x03u   /* a write named a placement identifier the
                                                    configuration does not have */
#define SSD_FDP_EVT_MEDIA_REALLOCATED    0x80u   /* data moved to other media (a failed program) */
#define SSD_FDP_EVF_PIV   0x01u                  /* the pid field is valid */
#define SSD_FDP_EVF_NSIDV 0x02u
struct ssd_fdp_event {
  uint8_t  type;
  uint8_t  flags;                    /* SSD_FDP_EVF_* */
  uint16_t pid;
  uint64_t timestamp;                /* ms since the drive started */
  uint32_t nsid;
  uint8_t  type_specific[16];        /* RU not fully written: its media writes left, bytes
                                        (uint64_t) */
  uint16_t rgid;
  uint8_t  ruhid;
  uint8_t  rsvd35[5];
  uint8_t  vs[24];
};
#define SSD_FDP_EVENTS_MAX 63u       /* events the log keeps (the newest) */

/* I/O Management Receive, Reclaim Unit Handle Status: a header, one descriptor per placement
 * identifier of the namespace. */
struct ssd_fdp_ruh_status {
  uint8_t  rsvd0[14];
  uint16_t nruhsd;
};
struct ssd_fdp_ruh_status_desc {
  uint16_t pid;
  uint16_t ruhid;
  uint32_t earutr;                   /* estimated active RU time remaining: 0 (not reported) */
  uint64_t ruamw;                    /* reclaim unit available media writes, logical blocks */
  uint8_t  rsvd16[16];
};
#define SSD_IOMR_MO_RUH_STATUS 0x01u /* I/O Management Receive's operation */
#define SSD_IOMS_MO_RUH_UPDATE 0x01u /* I/O Management Send's: each listed PID's handle moves to
                                        a new RU */

#endif /* SSDVP_HAL_FDP_FORMATS_H */
