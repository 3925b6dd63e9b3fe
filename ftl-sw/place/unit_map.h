/* ComboFTL's unit-level MLC mapping (after Superblock FTL, Jung et al., TECS 2010, which the
 * LAPT paper says ComboFTL's MLC map resembles), behind the placement seam.
 *
 * Models: the logical space cut into units of ftl.combo.unit_blocks MLC superblocks' worth of
 * sectors.  Every MLC superblock belongs to one unit and holds only that unit's data; a unit
 * writes (host data, data SLC GC migrates, GC copies) into its open superblocks in turn: one,
 * and another on a further die whenever the dies of those it has are busy (their program
 * queue at ftl.die_program_queue), so a stream into one unit spreads over dies while
 * scattered writes keep one open superblock per unit; each new one comes from the next MLC
 * pool in the unit's own turn.  Inside a unit a sector goes anywhere (the page map, as the original's
 * page-level map inside a superblock).  A unit owns at most unit_blocks + unit_extra_blocks
 * superblocks for host and migrated data: when its open one is full at that quota it must
 * clean itself first (a *unit GC*): its full superblock with the fewest valid sectors joins
 * its pool's queue of unit victims (SB_VICTIM from then on, so the pool's own choice passes
 * it by), which the pool's GC engine takes ahead of its own choice, the valid sectors are copied
 * into the unit's next open superblock (GC copies may go past the quota: the victim's erase
 * brings it back) and writes to the unit wait.  A pool low on free superblocks still cleans
 * by ftl.gc_policy; each victim's data goes back into its own unit.
 * The cost this carries, and that the LAPT paper names: a unit with hot data cleans inside
 * its few blocks (more, and fuller, MLC GC victims than a page map cleaning the whole pool),
 * every unit being written keeps a partly written open superblock, and a superpage holds one
 * unit's data (the write buffer and SLC GC group sectors by unit; a short run is padded).
 * Leaves out: the original's map layout (a block table per unit with page offsets kept in OOB
 * and cached; here the page map stays in DRAM and the unit table comes on top, reported as
 * placement.unit_map_bytes), ComboFTL's adaptation of unit size to the workload. */
#ifndef SSDVP_PLACE_UNIT_MAP_H
#define SSDVP_PLACE_UNIT_MAP_H

#include <stdint.h>

struct ftl;

struct unit_map {
  uint32_t unit_sectors;      /* logical sectors per unit (0: MLC page-mapped, no units) */
  uint32_t nunits;
  uint32_t quota;             /* superblocks a unit may own for host and migrated data; also
                                 the most it keeps open at once */
  uint32_t *open_sb;          /* [nunits][quota] superblocks taking the unit's data (NONE32) */
  uint16_t *open_page;        /* [nunits][quota] their next superpage */
  uint16_t *open_next;        /* [nunits] the open slot to write next (round robin) */
  uint16_t *owned;            /* [nunits] superblocks holding the unit's data (open included) */
  uint16_t *next_pool;        /* [nunits] pool its next superblock is looked for first */
  uint32_t *gc_victim;        /* [nunits] superblock its unit GC cleans (NONE32: none) */
  uint32_t *sb_unit;          /* [superblocks] owner unit of an MLC superblock (NONE32) */
  uint32_t *queue_head;       /* [pools] units' victims waiting for the pool's GC engine, */
  uint32_t *queue_tail;       /*   linked through sb_next (free-list link, unused meanwhile) */
};

/* After blocks_init and the placement regions. */
void unit_map_init(struct ftl *f);
static inline uint32_t unit_of(const struct unit_map *m, uint32_t lpa) { return lpa / m->unit_sectors; }

/* Where the next superpage of unit u's data goes.  kind UNIT_WRITE (host and migrated data:
 * the quota applies; a unit at its quota asks for a unit GC) or UNIT_GC (copies of the unit's
 * own victims, from gc_pool's victim: no quota, that pool's free superblocks first).
 * die_limit: a die with that many programs queued is not used, and makes the unit open a
 * superblock on another die if its quota allows (0: no limit, one open superblock).  Returns the superpage's first sector, or NONE32 with *busy = 1 when only
 * a die limit stands in the way, 0 when the unit must wait for space. */
enum unit_write_kind { UNIT_WRITE = 0, UNIT_GC };
uint32_t unit_next_superpage(struct ftl *f, uint32_t u, int kind, uint32_t gc_pool, uint32_t die_limit,
                             int *busy);

/* A unit's victim waiting for `pool`'s GC engine (taken: the engine owns it now), NONE32. */
uint32_t unit_take_victim(struct ftl *f, uint32_t pool);
/* An MLC superblock was erased: it leaves its unit. */
void unit_sb_erased(struct ftl *f, uint32_t sb);
/* Power-loss recovery found MLC superblock sb holding unit u's data, written up to superpage
 * next_page (its pool's page count: full).  It joins the unit again; partly written, it is one
 * of the unit's open superblocks again, from next_page on, while the unit has a slot for it
 * (else it stays closed until GC erases it).  Returns 1 if it was opened. */
int unit_sb_recovered(struct ftl *f, uint32_t sb, uint32_t u, uint32_t next_page);
uint32_t unit_map_bytes(const struct ftl *f);

#endif /* SSDVP_PLACE_UNIT_MAP_H */
