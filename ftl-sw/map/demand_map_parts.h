/* The demand-based map's parts and what they call of each other (map/demand_map.c: the GTD,
 * lookups, updates, records, boot; map/cmt_cache.c: the CMT's slots and per-region LRU lists;
 * map/tp_io.c: translation-page loads and write-backs).  Private to those files: the rest of
 * the firmware uses map/demand_map.h.
 * Leaves out: what each part does (its file's header). */
#ifndef SSDVP_DEMAND_MAP_PARTS_H
#define SSDVP_DEMAND_MAP_PARTS_H

#include <stdint.h>

#include "core/ftl.h"

#define LF_PAYLOAD (SSD_FDF_PAYLOAD)
#define LF_DIRTY   0x80u   /* map_load.flags: the page it moved was dirty */

/* writeopt and adaptive keep dirty mappings as entries (map/dirty_entries.c), not pages. */
static inline int dmap_entry_mode(const struct ftl *f) { return f->cfg.mapping >= SSD_MAP_WRITEOPT; }

/* Each region's LRU list of resident pages (small and hot: inline where they are used, as
 * they were when the map was one file). */
static inline void dmap_lru_remove(struct dmap *d, uint32_t s) {
  struct tp_slot *t = &d->slot[s];
  struct cache_region *r = &d->reg[t->region];
  if (t->prev != NONE32) d->slot[t->prev].next = t->next;
  else r->lru_head = t->next;
  if (t->next != NONE32) d->slot[t->next].prev = t->prev;
  else r->lru_tail = t->prev;
  t->prev = t->next = NONE32;
}

static inline void dmap_lru_push(struct dmap *d, uint32_t s) {
  struct tp_slot *t = &d->slot[s];
  struct cache_region *r = &d->reg[t->region];
  t->prev = NONE32;
  t->next = r->lru_head;
  if (r->lru_head != NONE32) d->slot[r->lru_head].prev = s;
  else r->lru_tail = s;
  r->lru_head = s;
}

static inline void dmap_lru_touch(struct dmap *d, uint32_t s) {
  if (d->reg[d->slot[s].region].lru_head == s) return;
  dmap_lru_remove(d, s);
  dmap_lru_push(d, s);
}

/* A waiter joins load l's list, in arrival order. */
static inline void dmap_load_add_waiter(struct dmap *d, uint32_t l, uint32_t w) {
  struct map_load *ld = &d->load[l];
  d->w[w].next = NONE32;
  if (ld->wlast == NONE32) ld->wfirst = w;
  else d->w[ld->wlast].next = w;
  ld->wlast = w;
}

/* map/cmt_cache.c */
void dmap_slot_release(struct ftl *f, uint32_t s);
/* Evicts region's LRU page: EVICT_NONE (no page), EVICT_DROPPED (a clean one: its slot is
 * free now), EVICT_WRITING (a dirty one: written back first). */
enum { EVICT_NONE, EVICT_DROPPED, EVICT_WRITING };
int dmap_evict_lru(struct ftl *f, uint32_t region);
uint32_t dmap_slot_acquire(struct ftl *f, uint32_t region, int *wrote);

/* map/tp_io.c */
void dmap_load_submit(struct ftl *f, uint32_t l);
uint32_t dmap_load_get(struct ftl *f, uint32_t tp, uint32_t region);
void dmap_load_finish(struct ftl *f, uint32_t l);

#endif
