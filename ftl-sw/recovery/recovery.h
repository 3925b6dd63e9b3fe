/* Power-on: a new drive is formatted, a used one recovered (docs/reliability.md).
 *
 * The controller's NVRAM (SYSCTL_NVRAM) says whether the NAND was formatted and with which
 * geometry.  Recovery rebuilds the page map from the NAND alone: every superblock is read
 * superpage by superpage (every plane, its sectors' OOB: LPA and version) up to its first
 * erased superpage, all dies in parallel; the newest version of each LPA wins (versions are
 * taken when the write buffer takes a write, and GC copies keep them plus a copy count, so a
 * stale copy never beats a newer write and a copy beats its source: gc/gc.c).  A superblock
 * with data is closed (its unwritten pages wait for GC to erase it); a page left unreadable
 * by an interrupted program or erase is skipped.
 * Demand-based maps: the newest copy of each translation page becomes the GTD's, and the
 * pages are written afresh from the scan (map_rebuild.h).  Trims: the trim log's records
 * (trim_log.h; a superpage holding log sectors is read again with their data) drop older
 * versions of trimmed sectors once the scan is done.
 * Placement: the scan visits every pool (SLC dies, pSLC blocks); combo's unit-mapped MLC
 * superblocks go back to the unit of the sectors found in them (place_sb_recovered).  Erase
 * counts come from the NOR's log (wear/erase_log.h), the bad-block table from its bitmap.
 * Leaves out (for now): checkpoints (the scan reads every written page). */
#ifndef SSDVP_RECOVERY_H
#define SSDVP_RECOVERY_H

#include <stdint.h>

struct ftl;

/* At boot, before the host may send commands: format (NVRAM empty) or recover. */
void recovery_power_on(struct ftl *f);
/* A read recovery issued completed (flash_queue.c's completion switch). */

#endif /* SSDVP_RECOVERY_H */
