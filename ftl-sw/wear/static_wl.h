/* Static wear levelling by erase-count spread (docs/reliability.md, "Wear").
 *
 * Dynamic wear levelling is the free lists' order (gc/blocks.c: a pool reuses its free
 * superblocks oldest-erased first), but a superblock holding cold data is never a GC victim
 * (nothing in it gets invalid) and never gets erased, while the rest of its pool wears out.
 * So, per pool: when an erase leaves a superblock more than ftl.wear_spread erases ahead of
 * the pool's least-erased good superblock, the pool is flagged; once its GC has nothing more
 * urgent to do (free superblocks at the GC threshold), GC takes the least-erased full
 * superblock as its victim whatever its valid count, copies its data into the pool's GC
 * superblock (a worn one: cold data parks there) and erases it, so that the young superblock
 * goes back into use through the free list.  One such move per flagged erase at most, so its
 * copies never outnumber GC's own erases.
 * Not in an SLC pool with placement (its victims go oldest first and migrate anyway) nor in
 * combo's unit-mapped MLC pools (a unit's data stays in its superblocks).
 * Leaves out: levelling across pools or dies (each pool evens out its own wear), and
 * retention-aware choices (how long the data has sat there). */
#ifndef SSDVP_WEAR_STATIC_WL_H
#define SSDVP_WEAR_STATIC_WL_H

#include <stdint.h>

struct ftl;

/* sb (of pool) was just erased and its count raised: flags the pool if the spread is too wide. */
void wl_erased(struct ftl *f, uint32_t pool, uint32_t sb);
/* The flagged pool's victim for levelling (NONE32: none worth moving); clears the flag. */
uint32_t wl_take_victim(struct ftl *f, uint32_t pool);

#endif /* SSDVP_WEAR_STATIC_WL_H */
