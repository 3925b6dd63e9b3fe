/* A dynamic SLC cache, as Samsung's Intelligent TurboWrite: next to the static pSLC cache
 * (nand.pslc.blocks_per_plane: a die's first blocks, in SLC mode for life), each die's
 * SLC-mode pool borrows free superblocks of the die's native pool, erasing them with
 * SSD_FDF_SLC_MODE (the die takes a block's mode from each erase), and gives them back at
 * their next erase, once GC (idle migration, with slc-direct) has moved their data on.
 *
 * How big it may grow: a die lends a superblock only while
 *     (borrowed + 1) x a native superblock's sectors + the die's valid sectors
 *         <= the die's share of the logical space (logical sectors / dies),
 * that is, only capacity the host has not filled.  The over-provisioning the native pool's
 * GC works with is never lent, and on a full drive the cache is its static part: it shrinks
 * as the drive fills, as the vendors' tables say (970 EVO Plus 1 TB: 42 GB empty, 6 GB full).
 * At most ftl.slc_cache.dynamic_blocks_per_plane per die (the vendor's stated size), and only
 * while the native pool keeps gc_high_blocks + its reserves free, so lending never makes the
 * native pool clean.  A borrowed superblock that GC erases stays in the cache (erased with the
 * flag) while the rule holds with it counted; otherwise it is erased native and goes home.
 * The rule can stop holding after the lending, as the host fills the drive: the native pool
 * then lacks the room its GC was designed with, so the SLC-mode pool is "over-lent" and cleans
 * its borrowed superblocks (oldest first) on demand, slc-direct or not, until the rule holds
 * again or it has none full: each gives back a native superblock for the SLC-mode pages its
 * data took.
 *
 * When: ahead of need.  An SLC-mode pool whose free superblocks drop below gc_high_blocks is
 * listed (blocks.c tells slc_cache_watch), and each pass starts one borrow per listed pool
 * (one erase in flight per pool); a pool that may not borrow leaves the list until its next
 * superblock is taken.  A borrow costs an erase: the FTL erases at GC time, so a free native
 * superblock is erased in native mode already.
 *
 * Power loss: a superblock's mode is in the SPI NOR, in the erase log's records
 * (wear/erase_log.h: erase_log_mode), written before a borrow's erase is submitted and after a
 * return's erase completes.  So a superblock holding data always has its mode recorded; one
 * whose record says SLC may still be native on the die if the cut fell between the record and
 * the erase, and recovery erases every borrowed superblock it finds empty again, in SLC mode,
 * before use (slc_cache_recover).
 *
 * Leaves out: borrowing for placement policies other than slc-only and slc-direct (LAPT's
 * rank threshold and combo's unit quotas assume a fixed SLC region; the configuration refuses
 * them); borrowing back when the host trims (a pool is listed again only when it takes a
 * superblock); the cache's size tied to the drive's free space by anything but the rule above
 * (Samsung's own curve is not public). */
#ifndef SSDVP_PLACE_SLC_CACHE_H
#define SSDVP_PLACE_SLC_CACHE_H

#include <stdint.h>

struct ftl;

struct slc_cache {
  uint32_t limit;          /* native superblocks a die may lend (0: the cache is static) */
  uint32_t *borrowed;      /* [dies] superblocks lent now */
  uint32_t *listed;        /* SLC-mode pools that want a superblock */
  uint32_t nlisted;
  uint32_t *erasing;       /* [dies] the borrowed superblock being erased (NONE32: none) */
  uint32_t *recovered;     /* [dies] recovery: the last superblock it erased again (NONE32) */
};

/* The cache can borrow (ftl.slc_cache.dynamic_blocks_per_plane > 0 with a pSLC cache).
 * Before blocks_init, from the configuration and geometry alone. */
int  slc_cache_dynamic(const struct ftl *f);
void slc_cache_init(struct ftl *f);                       /* after blocks_init */
/* A pool took a free superblock (gc/blocks.c): an SLC-mode pool short of free ones is
 * listed for borrowing, and the die's SLC-mode pool, if over-lent, for cleaning. */
void slc_cache_taken(struct ftl *f, uint32_t pool);
/* The SLC-mode pool lends more than the rule allows now (0 for any other pool). */
int  slc_cache_over_lent(const struct ftl *f, uint32_t pool);
/* An over-lent pool's oldest full borrowed superblock, to give back (NONE32: none, or the
 * pool is not over-lent). */
uint32_t slc_cache_victim(const struct ftl *f, uint32_t pool);
/* Starts the borrows listed pools want; returns the erases started. */
int  slc_cache_step(struct ftl *f);
/* A borrow's erase completed (status: SSD_FST_*; a failed one retires the superblock). */
/* The erase flags of GC's victim sb of `pool`: SSD_FDF_SLC_MODE to keep it in the SLC-mode
 * pool, 0 for a native block or one going home. */
uint32_t slc_cache_erase_flags(const struct ftl *f, uint32_t pool, uint32_t sb);
/* GC erased sb (with `flags`): a borrowed superblock erased native goes home. */
void slc_cache_erased(struct ftl *f, uint32_t sb, uint32_t flags);
/* Recovery, after the scan: borrowed superblocks found empty are erased again in SLC mode
 * (their record may be ahead of the die). */
void slc_cache_recover(struct ftl *f);

#endif /* SSDVP_PLACE_SLC_CACHE_H */
