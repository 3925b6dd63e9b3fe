/* Static wear levelling: see static_wl.h. */
#include "core/ftl.h"
#include "hal/hal.h"

static int wl_applies(const struct ftl *f, uint32_t pool) {
  return f->cfg.wear_spread && !place_slc_pool(f, pool) && !f->pl.units.unit_sectors;
}

void wl_erased(struct ftl *f, uint32_t pool, uint32_t sb) {
  struct pool_state *ps = &f->pool[pool];
  if (!wl_applies(f, pool) || (f->sb_erases[sb] <= ps->wl_floor + f->cfg.wear_spread && !ps->wl_uneven)) return;
  uint32_t least = NONE32, most = 0;     /* the floor may have risen: look again */
  for (uint32_t s = pool_sb_first(f, pool); s != NONE32; s = pool_sb_next(f, pool, s))
    if (f->sb_state[s] != SB_BAD) {
      if (f->sb_erases[s] < least) least = f->sb_erases[s];
      if (f->sb_erases[s] > most) most = f->sb_erases[s];
    }
  ps->wl_floor = least;
  ps->wl_uneven = most > least + f->cfg.wear_spread;
  if (f->sb_erases[sb] > least + f->cfg.wear_spread) {
    ps->wl_due = 1;
    gc_watch(f, pool);
  }
}

uint32_t wl_take_victim(struct ftl *f, uint32_t pool) {
  struct pool_state *ps = &f->pool[pool];
  ps->wl_due = 0;
  uint32_t cold = NONE32, most = 0;
  for (uint32_t s = pool_sb_first(f, pool); s != NONE32; s = pool_sb_next(f, pool, s)) {
    if (f->sb_state[s] == SB_BAD) continue;
    if (f->sb_erases[s] > most) most = f->sb_erases[s];
    if (f->sb_state[s] == SB_FULL && !f->sb_progs_inflight[s] && !f->bb.retiring[s] &&
        (cold == NONE32 || f->sb_erases[s] < f->sb_erases[cold]))
      cold = s;
  }
  if (cold == NONE32 || f->sb_erases[cold] + f->cfg.wear_spread >= most) return NONE32;
  return cold;
}
