/* LAPT: the logical-block access-pattern table of the SLC/MLC placement policy (Bang et al.,
 * docs/references.md#lapt, section 2).  One signed 6-bit counter per logical block (a logical
 * block is as many sectors as an SLC block holds): a write moves it up, min(v + 1, 30); a read
 * down, max(v - 1, -31).  The paper keeps the logical blocks in a list sorted by counter and
 * writes to SLC when a block's position in it is below the number of SLC blocks: at most that
 * many blocks are ever SLC-writable.  Here the list is one list per counter value, best first,
 * and the order among equal counters is a choice (ftl.lapt.tie_order): oldest first (a block
 * that reaches a value ranks after those already there) or most recently changed first (before
 * them).  The top N positions (N = SLC blocks) are an explicit membership whose boundary (the
 * last member) each counter change moves by at most one block, so updates and the SLC question
 * are O(1) (a scan of at most 62 values to step past empty ones), in 10 bytes per logical
 * block plus 124 words.
 * Leaves out: the placement decision itself and what the FTL does with it (place/placement.h),
 * persistence across power loss (the table starts cold at boot: every counter 0, the blocks in
 * index order). */
#ifndef SSDVP_PLACE_LAPT_H
#define SSDVP_PLACE_LAPT_H

#include <stdint.h>

#define LAPT_MIN (-31)
#define LAPT_MAX 30
#define LAPT_VALUES (LAPT_MAX - LAPT_MIN + 1)
#define LAPT_TIE_OLDEST_FIRST 0u   /* among equal counters, the block there longest ranks first */
#define LAPT_TIE_RECENT_FIRST 1u   /* ... the block that changed to it last ranks first */

struct lapt {
  uint32_t nblocks;                 /* logical blocks */
  uint32_t block_sectors;           /* sectors per logical block */
  uint32_t top_n;                   /* positions that are SLC-writable (SLC blocks) */
  uint32_t tie;                     /* LAPT_TIE_* */
  int8_t  *value;                   /* [nblocks] counters in [LAPT_MIN, LAPT_MAX] */
  uint8_t *in_top;                  /* [nblocks] 1: among the first top_n positions */
  uint32_t *next, *prev;            /* [nblocks] each value's list, best first (NONE: end) */
  uint32_t head[LAPT_VALUES], tail[LAPT_VALUES];   /* [v - LAPT_MIN] */
  uint32_t last_in;                 /* the member in the last top position (NONE: no member) */
};

/* Bytes lapt_init needs for nblocks logical blocks (one region, 4-byte aligned parts). */
static inline uint32_t lapt_bytes_for(uint32_t nblocks) {
  return 2u * ((nblocks + 3u) & ~3u) + 8u * nblocks;
}
/* `mem` points at lapt_bytes_for(nblocks) bytes; every block starts at 0, in index order, the
 * first top_n of them SLC-writable. */
void lapt_init(struct lapt *t, void *mem, uint32_t logical_sectors, uint32_t block_sectors, uint32_t top_n,
               uint32_t tie);
static inline uint32_t lapt_block_of(const struct lapt *t, uint32_t lpa) { return lpa / t->block_sectors; }
void lapt_note_write(struct lapt *t, uint32_t lpa);
void lapt_note_read(struct lapt *t, uint32_t lpa);
/* The block's position is below top_n: a write of it goes to SLC. */
static inline int lapt_slc_writable(const struct lapt *t, uint32_t block) { return t->in_top[block]; }
/* The block's position (0 = first), walking the lists: O(n), for tests and diagnostics. */
uint32_t lapt_position(const struct lapt *t, uint32_t block);
/* Bytes the table takes in DRAM. */
static inline uint32_t lapt_bytes(const struct lapt *t) {
  return lapt_bytes_for(t->nblocks) + (uint32_t)sizeof(struct lapt);
}

#endif /* SSDVP_PLACE_LAPT_H */
