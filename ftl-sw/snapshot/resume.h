/* Resuming from a drive-state snapshot (ssdvp run --save-state / --load-state, issue 16).
 * The platform saves a snapshot when the firmware has finished preconditioning and every
 * core sleeps: controller DRAM (all of the firmware's state: tables, buffers, rings, the
 * `struct ftl` itself), the NAND array, NOR and NVRAM.  A platform built again over that
 * snapshot sets ssd_fw_config.resume; core 0's boot then takes the `struct ftl` it finds at
 * the heap's base instead of laying out tables and recovering.  The devices' ring registers
 * and positions come back with the snapshot (model state, as a real controller's retained
 * registers would), so the rings go on where they were; the firmware writes again what it
 * alone knows: each core's timer compare, the namespace size, the interrupt enables, and
 * it lets the host in.
 * Leaves out: a snapshot taken anywhere but at that quiet point (commands, DMA or flash
 * operations in flight are not saved: the platform refuses to save then). */
#ifndef SSDVP_SNAPSHOT_RESUME_H
#define SSDVP_SNAPSHOT_RESUME_H

#include "core/ftl.h"

/* The state found in DRAM, checked and re-armed; halts with SSD_HALT_BAD_CONFIG |
 * SSD_BADCFG_SNAPSHOT when the DRAM does not hold a quiet firmware state of this layout. */
struct ftl *resume_from_snapshot(const struct ssd_fw_config *cfg);

#endif /* SSDVP_SNAPSHOT_RESUME_H */
