/* SLC/MLC placement: the one seam where the FTL asks which region a host write goes to.
 *
 * Models: two regions, SLC and MLC (MLC/TLC): on a mixed device (nand.slc_dies) the SLC
 * dies and the other dies; with a pSLC cache (nand.pslc.blocks_per_plane) every die's
 * SLC-mode blocks and its native blocks.  A region is a set of pools (ftl.h).  A policy, picked once at boot from a table (ftl.placement), answers for every host
 * sector committed to the write buffer, is told of every host request, and decides what SLC
 * GC does with a victim's valid data:
 *   none      one region: host data striped over every die (the FTL as it was);
 *   lapt      SLC if the sector's logical block ranks below the number of SLC superblocks
 *             in the LAPT table (place/lapt.h), else MLC; SLC GC migrates to MLC;
 *   slc-only  every host write to SLC first (a plain SLC write cache); SLC GC migrates;
 *   slc-direct  every host write to SLC while the SLC region has room, then straight to MLC
 *             (consumer drives' TurboWrite / nCache: "cache, then direct to TLC"); SLC pools
 *             are not cleaned on demand, only while the host is idle (idle migration,
 *             ftl.idle_migration_us > 0), so a burst longer than the cache runs at MLC speed
 *             instead of folding SLC to MLC under it;
 *   combo     ComboFTL (Im & Shin 2010), simplified: writes of at most combo_hot_sectors
 *             to SLC, larger ones to MLC; SLC GC copies a victim's data back into SLC
 *             until it has survived combo_survivals SLC GCs, then migrates it to MLC;
 *             MLC mapped per unit of several superblocks (place/unit_map.h), unless
 *             ftl.combo.unit_blocks = 0.
 * The write buffer drains each region to its own pools; SLC GC takes victims oldest first
 * (FIFO) (gc/gc.c) and migrates into MLC pools on any die; MLC GC is ftl.gc_policy inside
 * each MLC pool.  Idle-time migration
 * (place/idle_migration.h) runs the same SLC GC ahead of need while the host is idle.
 * The rest of the FTL sees only the functions below and the region of a pool.
 * With combo's unit map a superpage of MLC data holds one unit's sectors (place_groups_region):
 * the write buffer and SLC GC group by unit and ask the unit where its next superpage is.
 * A pSLC cache may be dynamic (place/slc_cache.h): its SLC-mode pools borrow native
 * superblocks of their die, so the SLC region grows and shrinks.
 * Leaves out: SLC dies and a pSLC cache on one device, demand-based mapping together with
 * placement. */
#ifndef SSDVP_PLACE_PLACEMENT_H
#define SSDVP_PLACE_PLACEMENT_H

#include <stdint.h>

#include "place/fdp.h"
#include "place/idle_migration.h"
#include "place/lapt.h"
#include "place/slc_cache.h"
#include "place/unit_map.h"

#define REGION_SLC 0u
#define REGION_MLC 1u
#define PLACE_REGIONS 2u

struct ftl;

struct place_policy {
  const char *name;
  /* The region of a host sector being committed to the write buffer; nsect: the sectors of
   * the request it belongs to. */
  uint8_t (*region_of_write)(struct ftl *f, uint32_t lpa, uint32_t nsect);
  /* A host request arrived (SSD_HOP_READ / SSD_HOP_WRITE); NULL: nothing to learn. */
  void (*note_request)(struct ftl *f, uint8_t opcode, uint32_t lba, uint32_t nsect);
  /* SLC GC of superblock sb: 1 = its valid data migrates to MLC, 0 = it is copied into
   * the die's SLC GC superblock.  NULL: always migrate. */
  int (*slc_victim_migrates)(const struct ftl *f, uint32_t sb);
  /* SLC GC copied valid data of victim into the superpage at dst_ppa (same die); NULL:
   * nothing to track. */
  void (*slc_copied)(struct ftl *f, uint32_t victim, uint32_t dst_ppa);
  /* 1: MLC is mapped per unit (place/unit_map.h) when ftl.combo.unit_blocks > 0. */
  uint8_t mlc_units;
  /* 1: host data bound for a full SLC region goes to MLC, and SLC pools are cleaned only
   * while the host is idle (or to retire a bad superblock). */
  uint8_t slc_direct;
};

struct place {
  const struct place_policy *policy;   /* NULL: placement off (one region) */
  uint32_t regions;                    /* 1 when off, else PLACE_REGIONS */
  uint8_t *pool_region;                /* [pools] REGION_* (all 0 when off) */
  uint32_t slc_superblocks;            /* the SLC region's size: LAPT's rank threshold */
  uint32_t next_migration_pool;        /* round robin of SLC GC copies over MLC pools */
  struct lapt lapt;
  struct idle_migration idle;         /* place/idle_migration.h */
  struct slc_cache cache;              /* a dynamic pSLC cache (place/slc_cache.h) */
  uint8_t *survived;                   /* combo: [superblocks] SLC GCs the data in it has
                                          survived at least (0: host-written) */
  struct unit_map units;               /* combo: the unit-level MLC map (unit_sectors 0: off) */
  struct fdp fdp;                      /* Flexible Data Placement (place/fdp.h; handles 0: off) */
};

/* Whether data may stay in SLC for good under ftl.placement `placement` (before place_init:
 * the logical space is sized by it): yes without placement (SLC dies are dies like the others)
 * and with combo (its SLC GC copies young data back); no for a policy whose SLC GC migrates
 * every victim to MLC (lapt, slc-only, slc-direct), whose logical space must fit MLC. */
int place_slc_keeps_data(uint32_t placement);
/* After the dies' geometry is known (blocks_init and their page counts). */
void place_init(struct ftl *f);
/* Combo keeps sequential data in MLC only, while the logical space counts SLC dies too (for
 * the comparison with the other policies at one capacity): on a device with a large SLC share
 * a sequential fill of the whole space does not fit MLC and would stop with MLC full of valid
 * data.  The preconditioning fill of `sectors` is refused then (SSD_BADCFG_COMBO_CAPACITY). */
void place_check_fill(struct ftl *f, uint64_t sectors);
uint8_t place_region_of_write(struct ftl *f, uint32_t lpa, uint32_t nsect);
/* The write buffer's queues, which queue a host sector waits in and where a queue's superpages
 * go: place/queues.h (inline, included by core/ftl.h after struct ftl). */
void place_note_request(struct ftl *f, uint8_t opcode, uint32_t lba, uint32_t nsect);
/* An SLC pool's GC takes a victim: the first time since boot, the SLC region's fill then goes
 * to stats->slc_fill_at_first_gc_permille. */
void place_slc_gc_starts(struct ftl *f);
/* `pool` is in the SLC region of a placement policy: its GC is FIFO and takes fully valid
 * victims too (their data may leave for MLC). */
int place_slc_pool(const struct ftl *f, uint32_t pool);
/* The region whose pools take host data bound for `region` when none of region's pools has
 * room: REGION_MLC for SLC under slc-direct, else NONE32 (the data waits for GC). */
uint32_t place_full_region_fallback(const struct ftl *f, uint32_t region);
/* `pool` is cleaned when its free superblocks run low (0: slc-direct's SLC pools, cleaned
 * only while the host is idle). */
int place_cleaned_on_demand(const struct ftl *f, uint32_t pool);
/* Leaves out of *free (free superblocks) and *pools the pools not cleaned on demand: what
 * the write buffer's rate limiter weighs against GC (buffer/ring.c). */
void place_demand_cleaned_space(const struct ftl *f, uint32_t *free, uint32_t *pools);
/* GC of victim superblock sb of `pool` copies into another region's pools (migration). */
int place_gc_migrates(const struct ftl *f, uint32_t pool, uint32_t sb);
/* GC of victim sb of `pool` gathers one group of data per superpage (migration into a
 * region that groups data; an MLC victim of combo's unit map holds one unit already). */
int place_gc_groups(const struct ftl *f, uint32_t pool, uint32_t sb);
/* GC of victim copied its data into the superpage at dst_ppa in the same SLC pool. */
void place_gc_copied(struct ftl *f, uint32_t victim, uint32_t dst_ppa);
/* Superblock sb was erased. */
void place_sb_erased(struct ftl *f, uint32_t sb);
/* Power-loss recovery found superblock sb of `pool` written up to superpage next_page (the
 * pool's page count: full); lpa: one of its host sectors (NONE32: none readable).  1: it is
 * placement's (combo's unit-mapped MLC: back in its unit, open again if partly written);
 * 0: the recovery restores the pool's own streams. */
int place_sb_recovered(struct ftl *f, uint32_t pool, uint32_t sb, uint32_t lpa, uint32_t next_page);
/* Where GC of `victim` (of `pool`) programs its next superpage of gathered data, whose first
 * sector is lpa; NONE32: not now (no MLC pool or unit has space for migrated data yet). */
uint32_t place_gc_destination(struct ftl *f, uint32_t pool, uint32_t victim, uint32_t lpa, int migrate);

/* In a pool of combo's unit-mapped MLC (place/unit_map.h), whose GC copies its victim's data
 * into the victim's unit: the next superpage that unit's GC copies would take (its open
 * superblock, or a free one), for what goes with GC's copies (the trim log, recovery/trim_log.h).
 * NONE32 for any other pool, without a victim, or when there is no room. */
uint32_t place_gc_unit_superpage(struct ftl *f, uint32_t pool);

/* Regions whose superpages each hold one group of data (combo's unit-mapped MLC: a unit): the
 * write buffer and SLC GC put only one group's sectors in a superpage, and ask the group
 * where it goes. */
int place_groups_region(const struct ftl *f, uint32_t region);
uint32_t place_group_of(const struct ftl *f, uint32_t region, uint32_t lpa);
/* The next superpage of lpa's group for host data (die_limit: programs queued on a die at
 * most); NONE32 with *busy = 1 when only a die's queue is in the way, 0 when out of space. */
uint32_t place_group_superpage(struct ftl *f, uint32_t lpa, uint32_t die_limit, int *busy);

#endif /* SSDVP_PLACE_PLACEMENT_H */
