/* The mapping as the rest of the FTL sees it (map_lookup / map_update), and the page-level
 * map with the whole table in DRAM (the papers' "OPT" baseline): logical 4 KiB sector ->
 * physical sector.  The reverse map and per-superblock valid counts that GC needs are kept
 * here for every scheme.  Demand-based schemes (ftl.mapping = dftl, part, ...) live in
 * map/demand_map.c and map/dirty_entries.c. */
#include "core/ftl.h"
#include "hal/hal.h"

void map_init(struct ftl *f) {
  const struct ftl_geo *g = &f->geo;
  f->demand = f->cfg.mapping != SSD_MAP_OPT;
  f->p2l = fw_alloc(f, g->phys_sectors * 4u, 64);
  for (uint32_t i = 0; i < g->phys_sectors; i++) f->p2l[i] = NONE32;
  if (f->demand) return;   /* dmap_init, once the blocks exist */
  f->l2p = fw_alloc(f, g->logical_sectors * 4u, 64);
  for (uint32_t i = 0; i < g->logical_sectors; i++) f->l2p[i] = NONE32;
}

void map_invalidate(struct ftl *f, uint32_t ppa) {
  if (f->p2l[ppa] == NONE32) return;
  f->p2l[ppa] = NONE32;
  sb_valid_dec(f, ppa_sb(f, ppa));
}

/* Points lpa at ppa in `l2p` (the page map, or recovery's scanned one), invalidating its
 * previous location. */
void map_set_in(struct ftl *f, uint32_t *l2p, uint32_t lpa, uint32_t ppa) {
  uint32_t old = l2p[lpa];
  if (old != NONE32) map_invalidate(f, old);
  l2p[lpa] = ppa;
  if (ppa == NONE32) return;
  f->p2l[ppa] = lpa;
  sb_valid_inc(f, ppa_sb(f, ppa));
}

/* opt: points lpa at ppa, invalidating its previous location. */
void map_set(struct ftl *f, uint32_t lpa, uint32_t ppa) { map_set_in(f, f->l2p, lpa, ppa); }

uint32_t map_lookup(struct ftl *f, uint32_t lpa, int count_stats) {
  if (f->demand) return dmap_lookup(f, lpa, count_stats);
  return f->l2p[lpa];
}

int map_update(struct ftl *f, uint32_t lpa, uint32_t ppa, uint32_t cond, uint32_t cookie) {
  if (f->demand) return dmap_update(f, lpa, ppa, cond, cookie);
  if (cond == NONE32 || f->l2p[lpa] == cond) map_set(f, lpa, ppa);
  return 1;
}
