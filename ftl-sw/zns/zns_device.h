/* The firmware of an NVMe Zoned Namespace device (device.interface = zns; docs/zns.md).  The
 * host writes each zone sequentially; the device keeps a zone map (zns_zones.h: state and write
 * pointer per zone) instead of a page map, lays zones over the flash (zns_layout.h), and has no
 * GC: a zone reset erases the zone's blocks.  It answers, over the same NVMe queues and PCIe
 * link as the conventional device (the admin commands on the I/O queues, as the Open-Channel
 * device does): Identify (the zoned namespace and controller structures), Read, Write, Zone
 * Append (its completion carries the LBA written), Zone Management Send (open, close, finish,
 * reset, offline, each with Select All), Zone Management Receive (Report Zones), Flush.
 *
 * Writes (zns_pipeline.c).  A write or append is checked and accepted at once (the zone map's
 * write pointer moves, appends get their LBAs in acceptance order), takes sector buffers in
 * DRAM, and its data comes in.  Each zone's accepted writes then go on in acceptance order: a
 * write's sectors join the zone's window (a ring of sector buffers in DRAM, from the first
 * sector not yet programmed) and the write completes: the device has power-loss protection, so
 * data in its DRAM is as safe as on flash (a write completes in order within its zone: none
 * completes before the writes accepted before it).  Each full write unit (a page on every plane
 * of a die) of the window is programmed, the zone's units going round its dies; the window's
 * buffers are freed once their unit and every unit before it are programmed.  A finish pads
 * the partial unit (pad sectors carry no LBA); a reset is completed at once and erases the
 * zone's programmed blocks in the background once the zone's programs are done (a write after
 * it waits for the erases).  A read takes each sector from where it is: on flash (below the
 * window), in the window (DRAM), or zeros (never written, not yet acknowledged, past a
 * finish, or reset).
 *
 * Power-loss protection (zns_power.c): at a power failure the windows' partial units and the
 * zone map go to a spare stripe, committed in the controller's NVRAM; power-on reads them back.
 *
 * Leaves out (for now; docs/zns.md says what comes next): drive-state snapshots (refused), bad
 * blocks and program or erase failures
 * (refused in the configuration; a program failure that happens anyway makes the zone read-
 * only and its unit unreadable), the zoned random write area, zone descriptor extensions,
 * asynchronous zone events, FDP (a conventional namespace's). */
#ifndef SSDVP_ZNS_ZNS_DEVICE_H
#define SSDVP_ZNS_ZNS_DEVICE_H

#include <stdint.h>
#include "hal/regs.h"
#include "zns/zns_layout.h"
#include "zns/zns_zones.h"

struct ftl;

/* A host command slot's part in a zone's write order. */
struct zns_slot {
  uint32_t next;              /* the next command accepted for the same zone (zone queue) */
  uint32_t zone;
  uint32_t sec;               /* writes: the first zone sector it writes */
  uint32_t gen;               /* the zone's resets when it was accepted */
  uint64_t result;            /* appends: the LBA written (the completion's) */
  uint8_t  data_in;           /* writes: the host's data is in DRAM */
};

/* A zone's writes on their way to the flash (zns_pipeline.c). */
struct zns_pipe {
  uint32_t q_head, q_tail;    /* accepted writes in acceptance order (zns_slot.next) */
  uint32_t gen;               /* resets the pipeline has carried out (the zone map counts those accepted) */
  uint32_t ring;              /* its window (a ring of d->win sector addresses) or NONE32 */
  uint32_t base;              /* first sector not known programmed: the window starts here */
  uint32_t staged;            /* sectors in order with their data: the window ends here */
  uint32_t issued;            /* sectors whose programs were issued */
  uint32_t programs, erasing; /* flash operations in flight */
  uint32_t pad_gen;           /* a finish to pad: the generation it finished, or NONE32 */
  uint8_t  waiting;           /* on the list of zones waiting for a window or flash room */
  uint32_t next_waiting;
};

/* Power-loss protection (zns_power.c). */
enum zns_power_state { ZP_NONE = 0, ZP_DRAINING, ZP_DUMPING, ZP_DUMPED };
struct zns_power {
  const volatile uint32_t *failing;   /* the platform's flag (struct ssd_fw_config.power_failing) */
  uint8_t  state;                     /* enum zns_power_state */
  uint32_t stripe;                    /* the spare stripe the next dump goes to */
  uint32_t table;                     /* DRAM: the dump's table sectors */
  uint32_t table_sectors, max_sectors;
  uint32_t *sector;                   /* the dump's sectors, in order */
  struct ssd_oob *oob;                /* ... and their spare areas */
  uint32_t n, units, issued, inflight, failed;
};

struct zns_device {
  struct zns_layout layout;
  struct zns_power power;
  struct zns_zones zones;
  struct ssd_zns_id_ns *id_ns;
  struct ssd_zns_id_ctrl *id_ctrl;
  struct zns_slot *slot;      /* [SSD_HOST_SLOTS] */
  struct zns_pipe *pipe;      /* [nr_zones] */
  /* Windows: `rings` rings of `win` sector addresses (win a multiple of the unit), each with
   * a done flag per unit; a zone holds one while it has writes on their way. */
  uint32_t win, rings, *ring_addr, ring_free;
  uint8_t *unit_done;         /* [rings][win / unit] */
  uint32_t *ring_next;
  /* Sector buffers: nbufs of 4 KiB from buf_base, a reference count each (a window's buffer
   * may be read by a host read while its unit is programmed). */
  uint32_t buf_base, nbufs, buf_free, bufs_left, *buf_next;
  uint8_t *buf_ref;
  /* The report buffer (one Report Zones at a time; SSD_MDTS_SECTORS sectors). */
  uint32_t report_addr;
  uint8_t report_busy;
  /* Waiting, in arrival order (linked by hc[].next): for sector buffers; for room in the
   * flash rings (reads); for the report buffer.  Zones waiting for a window or flash room
   * (linked by zns_pipe.next_waiting). */
  uint32_t buf_head, buf_tail, flash_head, flash_tail, rep_head, rep_tail, zw_head, zw_tail;
};

/* Boots a new device and lets the host in. */
struct ftl *zns_device_boot(const struct ssd_fw_config *cfg);

/* zns_commands.c: the host's commands (core/host_port.h). */
void zns_commands_init(struct ftl *f);
int  zns_commands_retry(struct ftl *f);   /* commands waiting for buffers, flash room, the report buffer */

/* zns_pipeline.c: each zone's writes to the flash, and its resets' erases. */
void zns_pipeline_init(struct ftl *f);
/* Write `slot` (accepted, in its zone's queue) has its data in. */
void zns_pipe_data_in(struct ftl *f, uint16_t slot);
/* Zone z may have work: staging, padding, programs, erases. */
void zns_pipe_pump(struct ftl *f, uint32_t z);
int  zns_pipe_retry(struct ftl *f);       /* zones waiting for a window or flash room */
/* Where a zone sector's data is now: *addr its DRAM buffer when in the window (returns 1), or 0
 * when it is on flash (sec below the window), or 2 when it reads as zeros. */
int  zns_pipe_locate(struct ftl *f, uint32_t z, uint32_t sec, uint32_t *addr);
/* The core flash address of a zone sector. */
uint32_t zns_ppa(const struct ftl *f, uint32_t z, uint32_t sec);

/* Power-on (zns_power.c): the window of zone z (after zns_pipe_take_ring) holds sector `sec`
 * in DRAM buffer `addr`. */
int  zns_pipe_take_ring(struct ftl *f, uint32_t z);
void zns_pipe_set_window(struct ftl *f, uint32_t z, uint32_t sec, uint32_t addr);

/* zns_power.c: power-loss protection and power-on. */
void zns_power_init(struct ftl *f);
/* A used device: the zone map and windows from its committed dump (a new one: formatted). */
void zns_power_on(struct ftl *f);
/* After power-on: zones with a reset still to carry out erase their blocks. */
void zns_power_resume(struct ftl *f);
/* The supply failed: 1 when it did something (the event loop calls it while the flag is up). */
int  zns_power_step(struct ftl *f);
static inline int zns_power_failing(const struct zns_device *d) { return *d->power.failing != 0; }

/* Sector buffers (zns_commands.c). */
int  zns_buf_take(struct ftl *f, uint32_t n, uint32_t *addrs);   /* 0: not enough free */
void zns_buf_ref(struct ftl *f, uint32_t addr);
void zns_buf_unref(struct ftl *f, uint32_t addr);

/* Host completion of `slot` with a command-specific result (the completion's dwords 0 and 1). */
void zns_complete(struct ftl *f, uint16_t slot, uint16_t status, uint64_t result);

#endif /* SSDVP_ZNS_ZNS_DEVICE_H */
