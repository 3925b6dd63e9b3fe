/* The read-pattern analyser of the predictive read-ahead paper (dtree-readahead, §3.2): a
 * decision tree of the addresses host reads start at, which predicts the next one.
 *
 * Models, as the paper describes it (its Fig. 6 input list is not in the text; the rules
 * below are this reading of it, docs/readahead.md):
 *   - The tree is rooted at an address and holds at most `branches` (m) leaves and `depth`
 *     (n) levels.  The first n addresses form the main pattern, in order.
 *   - A cursor follows the input.  An address that is a child of the cursor follows it.
 *     Otherwise, while the pattern may grow (cursor above depth n, and the cursor a leaf or
 *     fewer than m branches), the address becomes a new child: a later pattern branches off
 *     the node where it diverges.  Otherwise the pattern ends: the cursor re-enters the tree
 *     at the shallowest node holding the address (a later pattern starting where the tree
 *     knows its first address), and if no node holds it, the root and all its branches but
 *     the longest are dropped: the longest remaining branch becomes the main pattern
 *     (repeated until the address finds a place).
 *   - Prediction: the cursor's most-followed child, once the input has taken that branch
 *     `min_repeats` times (a branch seen once is a guess; the paper leaves the choice open).
 *   - n consecutive sequential requests (here `sequential_run`, the paper's 200: each
 *     starting where the previous one ended) predict sequentially: the next request right
 *     after the last.
 * Memory: a fixed budget given at init (nodes plus two hash indexes), never more; a pattern
 * that may grow when every node is used drops the root to make room (the tree keeps the
 * most recent history that fits).  note() and predict() cost O(1) expected (hash lookups;
 * re-entry looks at up to 64 nodes of an address); a root drop frees each dropped node once
 * and, when the root has several branches, walks up from the deepest node to find the
 * longest one (O(depth)).
 * Leaves out: weighting by recency, several roots (one tree per stream). */
#ifndef SSDVP_READAHEAD_PATTERN_TREE_H
#define SSDVP_READAHEAD_PATTERN_TREE_H

#include <stdint.h>

#define PT_NONE 0xFFFFFFFFu

struct pt_node {
  uint32_t addr;
  uint32_t parent;           /* PT_NONE: the root (or a free node) */
  uint32_t child, sibling;   /* first child; next child of the same parent */
  uint32_t hnext, hprev;     /* chain of the child index: key (parent, addr) */
  uint32_t anext, aprev;     /* chain of the address index: key addr */
  uint32_t level;            /* depth = level - the root's level + 1 */
  uint32_t best;             /* the most-followed child */
  uint32_t follows;          /* times the input went from the parent to this node */
};

struct pattern_tree {
  uint32_t branches, depth, sequential_run, min_repeats;   /* m, n, the paper's 200 */
  struct pt_node *node;
  uint32_t nnodes, free_head, used;
  uint32_t *child_hash, *addr_hash, hash_mask;
  uint32_t root, cursor, leaves;
  uint32_t deepest;          /* the deepest node (the first to reach that level): the end of
                                the longest branch */
  /* the sequential rule */
  uint32_t last_end;         /* address right after the last request */
  uint32_t seq_count;        /* requests in a row that started at last_end */
  uint32_t last_len;
  /* counters */
  uint32_t used_max;
  uint64_t notes, follows, extends, reentries, drops, dropped_nodes;
};

static inline uint32_t pt_pow2_at_least(uint32_t n) {
  uint32_t p = 1;
  while (p < n) p <<= 1;
  return p;
}
/* Bytes of a tree of `nodes` nodes with its two indexes, and the most nodes a budget of
 * `bytes` holds (the platform checks configurations with the same functions). */
static inline uint32_t pt_bytes_for(uint32_t nodes) {
  return nodes * (uint32_t)sizeof(struct pt_node) + 2u * 4u * pt_pow2_at_least(nodes);
}
static inline uint32_t pt_nodes_for(uint32_t bytes) {
  uint32_t lo = 0, hi = bytes / (uint32_t)sizeof(struct pt_node);
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo + 1u) / 2u;
    if (pt_bytes_for(mid) <= bytes) lo = mid;
    else hi = mid - 1u;
  }
  return lo;
}
/* Lays the tree out in mem (pt_bytes_for(pt_nodes_for(bytes)) bytes, 4-byte aligned). */
void pt_init(struct pattern_tree *t, void *mem, uint32_t bytes, uint32_t branches, uint32_t depth,
             uint32_t sequential_run, uint32_t min_repeats);
/* A request starting at addr, len addresses long (the analyser's unit: read-cache items). */
void pt_note(struct pattern_tree *t, uint32_t addr, uint32_t len);
/* The predicted next request: 1 and *addr (and *len: the last request's length) if there
 * is one; *sequential tells which rule made it. */
int pt_predict(const struct pattern_tree *t, uint32_t *addr, uint32_t *len, int *sequential);
/* Depth of a node (root = 1); for tests and the run results. */
uint32_t pt_depth_of(const struct pattern_tree *t, uint32_t node);
/* The node of the child of `parent` holding addr, PT_NONE if none. */
uint32_t pt_child(const struct pattern_tree *t, uint32_t parent, uint32_t addr);

#endif /* SSDVP_READAHEAD_PATTERN_TREE_H */
