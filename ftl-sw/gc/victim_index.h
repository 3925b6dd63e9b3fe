/* GC's victim index: per pool, a tournament tree over the pool's superblocks whose root is the
 * greedy victim, the superblock gc_pick_victim's scan would choose (the fewest valid sectors
 * among full superblocks with no program in flight and something to gain; ties to the lowest
 * number).  A pick reads the root instead of scanning the pool, so cleaning costs O(1) per
 * victim and O(log blocks) per change of a superblock's state, valid count or programs in
 * flight (gc/blocks.h's setters report every change), where the scan cost O(blocks) per victim:
 * O(capacity^2) over a drive's life, most of the time of preconditioning a drive of a few
 * hundred GiB.  A change that cannot move the root stops as soon as that is clear (a write
 * into an open superblock: at once; one more invalid sector in a full one: where it loses).
 * Every pool is indexed by the greedy key; the index answers picks only where greedy is the
 * policy and nothing constrains the pick (gc.c: an MLC pool under ftl.gc_policy = greedy, with
 * a free superblock and none waiting to be retired): FIFO, cost-benefit (its score ages with
 * every write) and the rare constrained picks still scan.  ftl.gc_check_victims checks every
 * pick the index answers against the scan (a test aid).
 * Leaves out: an index for FIFO and cost-benefit. */
#ifndef SSDVP_GC_VICTIM_INDEX_H
#define SSDVP_GC_VICTIM_INDEX_H

#include <stdint.h>

struct ftl;

struct victim_index {
  uint32_t *node;      /* per pool: width leaves after width-1 inner nodes (1-based heap order
                          from the pool's root), each a superblock number or NONE32 */
  uint32_t *root;      /* [pools] the pool's node 1 is node[root[pool] + 1] */
  uint32_t *width;     /* [pools] leaves: the pool's superblocks rounded up to a power of two */
};

void victim_index_init(struct ftl *f);                   /* after blocks_init's pools */
void victim_index_touch(struct ftl *f, uint32_t sb);     /* sb's state, valid count or programs
                                                            in flight changed */
/* As victim_index_touch, where sb's only change made it a better victim or a candidate (one
 * valid sector fewer, state and programs in flight as they were: the host's overwrites, most
 * of the index's work): where sb won a node before it wins still, so a level costs one look
 * instead of a comparison of two. */
void victim_index_improved(struct ftl *f, uint32_t sb);
uint32_t victim_index_best(const struct ftl *f, uint32_t pool);   /* NONE32: no candidate */

#endif /* SSDVP_GC_VICTIM_INDEX_H */
