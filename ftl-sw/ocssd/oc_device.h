/* The firmware of an Open-Channel SSD 2.0 device (device.interface = ocssd): thin, as the spec
 * means it.  The host runs the FTL; the device answers the spec's commands over the same NVMe
 * queues and PCIe link as the conventional device: Geometry, the chunk information log,
 * vector chunk reset, write and read with LBA lists (oc_commands.c).  It keeps no map, no
 * write buffer and no GC: each ws_min unit of a write is one multi-plane program at the
 * chunk's write pointer, each read goes to the flash, each reset is an erase.  What it does
 * keep is what a device must: the chunk table (state, write pointer, wear), its bad chunks
 * and erase counts in the SPI NOR (beside the NAND, what survives a power cut), and at power
 * on the write pointers found again by a scan of the NAND (oc_power_on.c).
 * Writes complete once programmed (the device has no volatile cache: a flush completes at
 * once).  The last mw_cunits of an open chunk are not readable from the device: the spec
 * leaves them to the host's cache (as Linux's pblk keeps them), and the device answers
 * SSD_OC_ST_UNWRITTEN, as it does for a unit accepted but not yet programmed.
 * Faults reach the host as the spec says: a failed program closes its chunk early
 * (SSD_OC_ST_EARLY_CLOSE, the failed LBAs in the completion's bitmap; its next reset takes it
 * offline), a failed erase takes the chunk offline (SSD_OC_ST_OFFLINE_CHUNK), a factory bad
 * block is an offline chunk, an uncorrectable read is SSD_ST_MEDIA_ERROR with its LBAs.
 * Each LBA carries 8 bytes of metadata (struct ssd_oob, the host's: a host FTL keeps its
 * reverse map's entries there), stored in the sector's spare area; a write without metadata
 * stores the LBA's low 32 bits.  As a real controller, which scrambles data so that no
 * programmed page reads all ones, the device takes a page whose data and metadata both read
 * all ones for erased.
 * Leaves out: NVMe's plain read and write (answered as invalid opcodes), vector copy, the
 * open-chunk limit's enforcement (maxocpu is reported), chunk notifications (log page D0h),
 * drive-state snapshots. */
#ifndef SSDVP_OCSSD_OC_DEVICE_H
#define SSDVP_OCSSD_OC_DEVICE_H

#include <stdint.h>
#include "hal/regs.h"
#include "ocssd/oc_chunks.h"

struct ftl;

/* A command's data buffer: SSD_OC_MAX_LBAS sectors. */
#define OC_BUF_BYTES (SSD_OC_MAX_LBAS * 4096u)

struct oc_slot {
  uint32_t buf;                    /* its data buffer (NONE32: none yet) */
  uint32_t next_write;             /* the write accepted after it (the write order) */
};

struct oc_device {
  struct ssd_oc_geometry *geo;     /* what Geometry returns (a 4 KiB sector) */
  struct oc_chunks chunks;         /* the chunk information log, rounded up to 4 KiB */
  uint32_t log_bytes;
  uint32_t *programmed;            /* [chunk] sectors programmed: writes accepted beyond it
                                      (the write pointer) are in flight */
  uint8_t  *grown_bad;             /* [chunk] a program failed there: offline after its reset */
  uint64_t *lba_list;              /* [SSD_HOST_SLOTS][SSD_OC_MAX_LBAS]: the HIF fills it */
  struct oc_slot *slot;            /* [SSD_HOST_SLOTS] */
  uint32_t buf_base, nbufs;        /* command buffers: OC_BUF_BYTES each */
  struct ssd_oob *meta;            /* [nbufs][SSD_OC_MAX_LBAS]: each buffered LBA's metadata */
  uint32_t *buf_next;              /* free list */
  uint32_t buf_free;
  /* Waiting, in arrival order (linked by hc[].next): for a buffer; for room in the flash
   * rings (reads, resets).  Writes accepted whose programs are not issued yet, in the order
   * they were accepted (linked by slot[].next_write). */
  uint32_t buf_head, buf_tail, flash_head, flash_tail, wq_head, wq_tail;
  const volatile uint32_t *power_failing;   /* the platform's flag (struct ssd_fw_config) */
  uint32_t power_dumped;
  struct oc_scan *scan;            /* the power-on scan while it runs (oc_power_on.c) */
};

/* Boots (formats or powers on: oc_power_on.c) and lets the host in. */
struct ftl *oc_device_boot(const struct ssd_fw_config *cfg);

/* Chunk-log index <-> the FTL superblock (core/ftl.h's flash addresses) of a chunk: the log
 * runs group, unit, chunk; superblocks run die (way x channels + channel), block. */
static inline uint32_t oc_chunk_sb(const struct oc_device *d, uint32_t c) {
  const uint32_t chk = c % d->geo->num_chk, pu = c / d->geo->num_chk % d->geo->num_pu;
  const uint32_t grp = c / d->geo->num_chk / d->geo->num_pu;
  return (pu * d->geo->num_grp + grp) * d->geo->num_chk + chk;
}

/* oc_commands.c: the host's commands (core/host_port.h) and their flash completions. */
void oc_commands_init(struct ftl *f);
int  oc_commands_retry(struct ftl *f);   /* commands waiting for a buffer */
/* oc_power_on.c: a new device's factory scan, a used one's tables and write pointers. */
void oc_power_on(struct ftl *f);
/* A chunk went bad, persisted in the NOR before the host hears of it: closed early with its
 * data (offline = 0: a program failed) or offline for good (1: an erase failed, or it was
 * reset after a program failed). */
void oc_mark_bad(struct ftl *f, uint32_t c, int offline);

#endif /* SSDVP_OCSSD_OC_DEVICE_H */
