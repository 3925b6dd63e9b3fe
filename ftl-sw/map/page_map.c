/* Page-level map with the whole table in DRAM (the papers' "OPT" baseline): logical 4 KiB
 * sector -> physical sector, plus the reverse map and per-superblock valid counts that GC
 * needs.  Leaves out: demand paging of the map (ftl.mapping = dftl/part/... in later work). */
#include "core/ftl.h"
#include "hal/hal.h"

void map_init(struct ftl *f) {
  const struct ftl_geo *g = &f->geo;
  f->l2p = fw_alloc(f, g->logical_sectors * 4u, 64);
  f->p2l = fw_alloc(f, g->phys_sectors * 4u, 64);
  for (uint32_t i = 0; i < g->logical_sectors; i++) f->l2p[i] = NONE32;
  for (uint32_t i = 0; i < g->phys_sectors; i++) f->p2l[i] = NONE32;
}

void map_invalidate(struct ftl *f, uint32_t ppa) {
  if (f->p2l[ppa] == NONE32) return;
  f->p2l[ppa] = NONE32;
  f->sb_valid[ppa_sb(f, ppa)]--;
}

/* Points lpa at ppa, invalidating its previous location. */
void map_set(struct ftl *f, uint32_t lpa, uint32_t ppa) {
  uint32_t old = f->l2p[lpa];
  if (old != NONE32) map_invalidate(f, old);
  f->l2p[lpa] = ppa;
  f->p2l[ppa] = lpa;
  f->sb_valid[ppa_sb(f, ppa)]++;
}
