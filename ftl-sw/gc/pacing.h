/* GC pacing (ftl.gc_pacing): a pool's cleaning and the writes that use up its free superblocks
 * go side by side, at one ratio, instead of in alternating bursts.
 *
 * Without pacing a pool starts GC when its free superblocks drop below gc_low_blocks and
 * cleans at full speed until gc_high_blocks are free, while host writes go on until the pool
 * is down to its host reserve and then stop until an erase.  Writes striped evenly over the
 * dies bring every pool there together, and the drive alternates between writing and
 * cleaning (docs/results/presets.md: a steady-state P4500 swings between 0 and 60k IOPS per
 * 50 ms).  Pacing ties the two together with the victim's ratio: reclaiming a victim of V
 * valid and I invalid sectors frees I sectors for V copied, so GC must copy V / I sectors for
 * every sector the other streams (host data, translation pages, data migrated in) take.
 *
 * - GC still starts below gc_low_blocks and runs at full speed until the pool has
 *   gc_low_blocks free again; the rest of the way to gc_high_blocks its copies follow the
 *   writes: at most V / I per sector written, one superpage ahead.
 * - Once the pool is down to its host reserve (the superblock host data has open is its
 *   last), host data follows GC: the writer (buffer/write_buffer.c) passes over a pool whose
 *   writes are more than a superpage ahead of what its GC has reclaimed (copied x I / V), as
 *   over a pool without space, and the data goes to another die.
 * - Wear levelling, retiring a bad superblock, idle-time migration and an over-lent SLC cache
 *   (place/slc_cache.h) are never paced.
 *
 * Free space then stays near the marks with GC's share of the die steady, as real-time GC
 * schemes and pblk's rate limiter (buffer/ring.c) aim for.  The price is the superblock the
 * host no longer drains to the reserve: a die with few superblocks pays it in write
 * amplification (docs/ftl-guide.md has the figures, and those of the variants that start
 * paced GC at gc_high_blocks or hold host data back from gc_low_blocks on: both keep more
 * superblocks free and cost more).
 * Leaves out: pacing against reads (GC's reads still take die time the host's reads wait
 * for); host data placed by unit (combo) or slc-direct's fallback to MLC is not held back; a
 * ratio from anything but the current victim (a victim's valid count is taken when it is
 * picked; later overwrites make its copies fewer, never more). */
#ifndef SSDVP_GC_PACING_H
#define SSDVP_GC_PACING_H

#include <stdint.h>

struct ftl;

struct gc_pace {                   /* one per pool (struct pool_state) */
  uint64_t consumed;               /* sectors other streams took since the victim began (with
                                      what the last victim had not paid for, at most a
                                      superpage) */
  uint64_t copied;                 /* sectors GC programmed for the victim */
  uint32_t valid, invalid;         /* the victim's when it was picked */
  uint8_t  held;                   /* 1: the last look held its copies ... */
  uint8_t  host_held;              /* ... or its host data */
};

/* `sectors` of the pool's space taken by a stream other than its GC's own copies (counted
 * while the pool is cleaning). */
void gc_pace_consumed(struct ftl *f, uint32_t pool, uint32_t sectors);
/* The pool's GC began victim `sb` (carries over what the last victim left unpaid). */
void gc_pace_victim(struct ftl *f, uint32_t pool, uint32_t sb);
/* GC programmed `sectors` copied from the pool's victim. */
void gc_pace_copied(struct ftl *f, uint32_t pool, uint32_t sectors);
/* The pool is done cleaning: consumption restarts from zero next time. */
void gc_pace_idle(struct ftl *f, uint32_t pool);
/* 1: the pool's GC copies wait for more writes (it is ahead of them). */
int gc_pace_hold(struct ftl *f, uint32_t pool);
/* 1: host data waits for the pool's GC (the pool is down to its host reserve and its writes
 * are more than a superpage ahead of what GC has reclaimed). */
int gc_pace_host_waits(struct ftl *f, uint32_t pool);

#endif /* SSDVP_GC_PACING_H */
