/* LAPT: the logical-block access-pattern table of the SLC/MLC placement policy (Bang et al.,
 * docs/references.md#lapt, section 2).  One signed 6-bit counter per logical block (a logical
 * block is as many sectors as an SLC block holds): a write moves it up, min(v + 1, 30); a read down,
 * max(v - 1, -31).  A block's rank is the number of logical blocks whose counter is strictly
 * greater (0 = the hottest; blocks with equal counters share the best rank of their group,
 * "competition ranking"); a write goes to SLC when its block's rank is below the number of
 * SLC blocks.
 *
 * The paper keeps the entries in a sorted list (O(n) per update).  Here above[v] counts the
 * blocks with a counter > v: an increment from v changes only above[v], a decrement from v
 * only above[v - 1], so updates and rank queries are O(1), in 1 byte per logical block plus
 * 62 words.
 * Leaves out: the placement decision itself and what the FTL does with it (place/placement.h),
 * persistence across power loss (the table starts cold at boot). */
#ifndef SSDVP_PLACE_LAPT_H
#define SSDVP_PLACE_LAPT_H

#include <stdint.h>

#define LAPT_MIN (-31)
#define LAPT_MAX 30
#define LAPT_VALUES (LAPT_MAX - LAPT_MIN + 1)

struct lapt {
  uint32_t nblocks;                 /* logical blocks */
  uint32_t block_sectors;           /* sectors per logical block */
  int8_t  *value;                   /* [nblocks] counters in [LAPT_MIN, LAPT_MAX] */
  uint32_t above[LAPT_VALUES];      /* [v - LAPT_MIN]: blocks whose counter is > v */
};

/* `value` points at nblocks bytes (zeroed here: every block starts at 0). */
void lapt_init(struct lapt *t, int8_t *value, uint32_t logical_sectors, uint32_t block_sectors);
static inline uint32_t lapt_block_of(const struct lapt *t, uint32_t lpa) { return lpa / t->block_sectors; }
void lapt_note_write(struct lapt *t, uint32_t lpa);
void lapt_note_read(struct lapt *t, uint32_t lpa);
static inline uint32_t lapt_rank(const struct lapt *t, uint32_t block) {
  return t->above[t->value[block] - LAPT_MIN];
}
/* Bytes the table takes in DRAM. */
static inline uint32_t lapt_bytes(const struct lapt *t) {
  return t->nblocks + (uint32_t)sizeof(t->above);
}

#endif /* SSDVP_PLACE_LAPT_H */
