/* GC's victim index (gc/victim_index.h): a tournament tree per pool, rebuilt from the
 * superblock arrays at init and kept by victim_index_touch on every change. */
#include "gc/victim_index.h"
#include "core/ftl.h"

/* A greedy victim may be taken: full, its programs done, not entirely valid. */
static int candidate(const struct ftl *f, const struct pool_state *ps, uint32_t sb) {
  return f->sb_state[sb] == SB_FULL && !f->sb_progs_inflight[sb] && f->sb_valid[sb] < ps->sb_capacity;
}

/* The better victim of two: fewer valid sectors, or as many and the lower number (the scan's
 * first); NONE32 (no candidate) loses to any. */
static uint32_t better(const struct ftl *f, uint32_t a, uint32_t b) {
  if (a == NONE32) return b;
  if (b == NONE32) return a;
  const uint32_t va = f->sb_valid[a], vb = f->sb_valid[b];
  return va < vb || (va == vb && a < b) ? a : b;
}

void victim_index_init(struct ftl *f) {
  const struct ftl_geo *g = &f->geo;
  struct victim_index *x = &f->vix;
  x->node = 0;
  x->root = fw_alloc(f, g->pools * 4u, 64);
  x->width = fw_alloc(f, g->pools * 4u, 64);
  uint32_t total = 0;
  for (uint32_t p = 0; p < g->pools; p++) {
    uint32_t w = 1;
    while (w < f->pool[p].span) w <<= 1;
    x->width[p] = w;
    x->root[p] = total;
    total += 2u * w;                   /* nodes 1 .. 2w-1 (node 0 unused) */
  }
  uint32_t *node = fw_alloc(f, total * 4u, 64);
  for (uint32_t p = 0; p < g->pools; p++) {
    const struct pool_state *ps = &f->pool[p];
    uint32_t *t = node + x->root[p];
    const uint32_t w = x->width[p], first = ps->span_first;
    for (uint32_t k = 0; k < w; k++)
      t[w + k] = k < ps->span && sb_pool(f, first + k) == p && candidate(f, ps, first + k) ? first + k : NONE32;
    for (uint32_t i = w - 1; i >= 1; i--) t[i] = better(f, t[2u * i], t[2u * i + 1u]);
    t[0] = NONE32;
  }
  x->node = node;
}

void victim_index_touch(struct ftl *f, uint32_t sb) {
  const struct victim_index *x = &f->vix;
  if (!x->node) return;                /* blocks_init's free lists, before the index is built */
  const uint32_t pool = sb_pool(f, sb);
  const struct pool_state *ps = &f->pool[pool];
  uint32_t *t = x->node + x->root[pool];
  uint32_t i = x->width[pool] + (sb - ps->span_first);
  const uint32_t leaf = candidate(f, ps, sb) ? sb : NONE32;
  if (leaf == NONE32 && t[i] == NONE32) return;   /* not a candidate before or after */
  t[i] = leaf;
  /* Up to the root while the result can change: a node whose winner is still the same other
   * superblock is as it was, and so is everything above it. */
  for (i >>= 1; i; i >>= 1) {
    const uint32_t was = t[i], now = better(f, t[2u * i], t[2u * i + 1u]);
    t[i] = now;
    if (now == was && now != sb) return;
  }
}

void victim_index_improved(struct ftl *f, uint32_t sb) {
  const struct victim_index *x = &f->vix;
  if (!x->node) return;
  const uint32_t pool = sb_pool(f, sb);
  const struct pool_state *ps = &f->pool[pool];
  if (!candidate(f, ps, sb)) return;   /* not one after, so not one before either */
  uint32_t *t = x->node + x->root[pool];
  uint32_t i = x->width[pool] + (sb - ps->span_first);
  t[i] = sb;
  /* Where sb won before it still wins (it only got better); where another won, one comparison
   * with that winner says whether sb takes the node or nothing above changes. */
  for (i >>= 1; i; i >>= 1) {
    const uint32_t was = t[i];
    if (was == sb) continue;
    if (better(f, was, sb) != sb) return;
    t[i] = sb;
  }
}

uint32_t victim_index_best(const struct ftl *f, uint32_t pool) {
  return f->vix.node[f->vix.root[pool] + 1u];
}
