/* What a device interface's firmware gives the event loop (core/fw_main.c): the seam at which
 * the command set a drive answers is chosen (device.interface, struct ssd_fw_config.interface).
 * The conventional block device (the FTL in the firmware: core/fw_main.c), the Open-Channel
 * device (ocssd/oc_device.h) and the zoned device (zns/zns_device.h) each boot their own state
 * and register an ops table; the event loop, the lock and the cores' rings are the same for all.
 * Leaves out: resuming a drive-state snapshot, which only the conventional device does. */
#ifndef SSDVP_CORE_DEVICE_OPS_H
#define SSDVP_CORE_DEVICE_OPS_H

#include <stdint.h>
#include "hal/regs.h"

struct ftl;
struct fw_core;

struct device_ops {
  int (*poll)(struct ftl *f);                              /* a pass under the lock: work done */
  int (*idle)(struct ftl *f, struct fw_core *me);          /* after a pass without work: 1 = it
                                                              found some (timers), 0 = sleep */
  uint32_t (*irqs)(struct ftl *f, const struct fw_core *c);   /* the lines core c sleeps on */
};

/* What every interface's boot shares (core/fw_boot.c). */
/* The firmware state at the start of the DRAM heap, zeroed, with the configuration. */
struct ftl *fw_state_new(const struct ssd_fw_config *cfg);
/* Core `id`'s state and its rings in DRAM, set up in its register banks. */
struct fw_core *fw_core_new(struct ftl *f, uint32_t id);
/* The flash operation table's per-operation lists (g->unit entries each), all free. */
void fw_fops_init(struct ftl *f);
/* Publishes the statistics block and the namespace size, starts the other cores with the
 * state's address and lets the host in. */
void fw_go_live(struct ftl *f, uint64_t namespace_sectors);

/* What the thin devices (Open-Channel, zoned: no FTL of their own) share. */
struct ssd_geometry;
/* f->geo from the controller's geometry: superblocks run die, block; one cell type. */
void fw_thin_flash_geometry(struct ftl *f, const struct ssd_geometry *hw);
/* No background work: idle finds none; the core sleeps on host, flash and IPI interrupts. */
int fw_thin_idle(struct ftl *f, struct fw_core *me);
uint32_t fw_thin_irqs(struct ftl *f, const struct fw_core *c);

#endif /* SSDVP_CORE_DEVICE_OPS_H */
