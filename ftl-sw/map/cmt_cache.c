/* The cached mapping table (CMT) of the demand-based map (map/demand_map.c): whole
 * translation pages in DRAM slots, each region (dftl: one; part and after: clean and dirty)
 * with its own LRU list and quota; a slot is taken from the free ones, or by dropping a clean
 * LRU page, or by writing a dirty one back first.
 * Leaves out: loading and writing translation pages (map/tp_io.c). */
#include "core/ftl.h"
#include "hal/hal.h"
#include "map/demand_map_parts.h"

/* ------------------------------------------------------------------ LRU lists per region */



/* ------------------------------------------------------------------ slots */
void dmap_slot_release(struct ftl *f, uint32_t s) {
  struct dmap *d = &f->dm;
  struct tp_slot *t = &d->slot[s];
  if (d->tp_where[t->tp] == s) d->tp_where[t->tp] = NONE32;
  d->reg[t->region].count--;
  if (t->state == TPS_WRITING && t->region != REG_BATCH) d->reg[t->region].writing--;
  t->state = TPS_FREE;
  t->pinned = 0;
  d->free_slots[d->nfree++] = s;
}

/* Starts writing a dirty resident page back; its slot stays readable until the program is
 * done, then it is freed. */
static void write_back(struct ftl *f, uint32_t s) {
  struct dmap *d = &f->dm;
  struct tp_slot *t = &d->slot[s];
  dmap_lru_remove(d, s);
  t->state = TPS_WRITING;
  d->reg[t->region].writing++;
  d->tp_writing[t->tp] = 1;
  f->stats->tp_dirty_evictions++;
  dmap_queue_write(f, s);
}

/* Evicts the LRU page of a region: a clean one is dropped (EVICT_DROPPED: its quota is free
 * now), a dirty one starts its write-back (EVICT_WRITING); EVICT_NONE: nothing evictable. */
int dmap_evict_lru(struct ftl *f, uint32_t region) {
  struct dmap *d = &f->dm;
  uint32_t v = d->reg[region].lru_tail;
  if (v == NONE32) return EVICT_NONE;
  if (d->slot[v].state == TPS_CLEAN) {
    dmap_lru_remove(d, v);
    dmap_slot_release(f, v);
    return EVICT_DROPPED;
  }
  write_back(f, v);
  return EVICT_WRITING;
}

/* A slot under region r's quota: a free one, a clean LRU page dropped, or NONE32 (a dirty LRU
 * page is being written back for it, or every slot is busy).  *wrote: a write-back started. */
uint32_t dmap_slot_acquire(struct ftl *f, uint32_t region, int *wrote) {
  struct dmap *d = &f->dm;
  struct cache_region *r = &d->reg[region];
  for (;;) {
    if (r->count < r->cap && d->nfree > 0) {
      uint32_t s = d->free_slots[--d->nfree];
      r->count++;
      d->slot[s].region = (uint8_t)region;
      d->slot[s].prev = d->slot[s].next = NONE32;
      return s;
    }
    uint32_t vr = region;
    if (r->count < r->cap) {
      /* Under quota but no buffer free: another region is over its quota (the adaptive split
       * moved): take from it. */
      vr = NONE32;
      for (uint32_t x = 0; x < 3; x++)
        if (d->reg[x].count > d->reg[x].cap && d->reg[x].lru_tail != NONE32) vr = x;
      if (vr == NONE32) return NONE32;
    }
    const int e = dmap_evict_lru(f, vr);
    if (e == EVICT_DROPPED) continue;
    if (e == EVICT_WRITING) *wrote = 1;
    return NONE32;
  }
}

uint32_t *dmap_slot_page(struct ftl *f, uint32_t slot) {
  return hal_dram_ptr(f->dm.slot_base + slot * SECTOR_BYTES);
}

/* adaptive: drops clean pages beyond a region's (reduced) quota. */
void dmap_shrink_region(struct ftl *f, uint32_t region) {
  struct dmap *d = &f->dm;
  struct cache_region *r = &d->reg[region];
  while (r->count > r->cap && r->lru_tail != NONE32 && d->slot[r->lru_tail].state == TPS_CLEAN)
    dmap_evict_lru(f, region);
}
