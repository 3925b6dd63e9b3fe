/* A dynamic SLC cache: see slc_cache.h. */
#include "core/ftl.h"
#include "hal/hal.h"

int slc_cache_dynamic(const struct ftl *f) {
  return f->cfg.slc_dynamic_blocks && f->geo.pools > f->geo.dies;
}

/* SLC-mode erases' flash completions (core/flash_port.h), failed ones included. */
static const struct flash_owner mode_erase_owner;

void slc_cache_init(struct ftl *f) {
  flash_register(f, FOP_MODE_ERASE, &mode_erase_owner);
  const struct ftl_geo *g = &f->geo;
  struct slc_cache *c = &f->pl.cache;
  c->limit = slc_cache_dynamic(f) ? f->cfg.slc_dynamic_blocks : 0u;
  c->nlisted = 0;
  if (!c->limit) return;
  c->listed = fw_alloc(f, g->dies * 4u, 64);
  c->erasing = fw_alloc(f, g->dies * 4u, 64);
  c->recovered = fw_alloc(f, g->dies * 4u, 64);
  for (uint32_t d = 0; d < g->dies; d++) c->erasing[d] = c->recovered[d] = NONE32;
}

/* Superblocks die d lends now: its SLC-mode pool's beyond the static ones. */
static uint32_t borrowed(const struct ftl *f, uint32_t d) {
  return f->pool[f->geo.dies + d].blocks - f->geo.pslc_blocks;
}

/* The rule (slc_cache.h): `lent` superblocks of die d fit in the logical space the host has
 * not filled. */
static int fits(const struct ftl *f, uint32_t d, uint32_t lent) {
  const struct ftl_geo *g = &f->geo;
  const uint64_t share = g->logical_sectors / g->dies;
  const uint64_t valid = (uint64_t)f->pool[d].valid + f->pool[g->dies + d].valid;
  return (uint64_t)lent * f->pool[d].sb_capacity + valid <= share;
}

/* Die d may lend one more superblock now. */
static int may_lend(const struct ftl *f, uint32_t d) {
  const struct pool_state *native = &f->pool[d];
  if (borrowed(f, d) >= f->pl.cache.limit || native->victim != NONE32) return 0;
  if (native->free_count <= f->cfg.gc_high_blocks + f->host_reserve + GC_RESERVE) return 0;
  return fits(f, d, borrowed(f, d) + 1u);
}

/* sb leaves its pool for `to` (free or bad: no data, no victim-index leaf). */
static void move_to(struct ftl *f, uint32_t sb, uint32_t to) {
  f->pool[sb_pool(f, sb)].blocks--;
  f->sb_owner[sb] = (uint16_t)to;
  f->pool[to].blocks++;
  if (f->pool[to].slc_mode) f->stats->slc_borrowed++;
  else f->stats->slc_borrowed--;
}

int slc_cache_over_lent(const struct ftl *f, uint32_t pool) {
  const struct ftl_geo *g = &f->geo;
  if (!f->pl.cache.limit || pool < g->dies) return 0;
  const uint32_t d = pool - g->dies;
  return borrowed(f, d) && !fits(f, d, borrowed(f, d));
}

uint32_t slc_cache_victim(const struct ftl *f, uint32_t pool) {
  if (!slc_cache_over_lent(f, pool)) return NONE32;
  uint32_t best = NONE32;
  for (uint32_t sb = pool_sb_first(f, pool); sb != NONE32; sb = pool_sb_next(f, pool, sb))
    if (sb_home_pool(f, sb) != pool && f->sb_state[sb] == SB_FULL && !f->sb_progs_inflight[sb] &&
        !f->bb.retiring[sb] && (best == NONE32 || f->sb_closed_seq[sb] < f->sb_closed_seq[best]))
      best = sb;
  return best;
}

void slc_cache_taken(struct ftl *f, uint32_t pool) {
  struct slc_cache *c = &f->pl.cache;
  if (!c->limit) return;
  const uint32_t slc = f->geo.dies + f->pool[pool].die;
  if (slc_cache_over_lent(f, slc)) gc_watch(f, slc);
  if (pool != slc || f->pool[pool].free_count >= f->pool[pool].gc_high) return;
  for (uint32_t i = 0; i < c->nlisted; i++)
    if (c->listed[i] == pool) return;
  c->listed[c->nlisted++] = pool;
}

/* Erases borrowed superblock sb of die d in SLC mode (slc_cache_erase_done puts it in the
 * SLC-mode pool's free list). */
static void erase_slc(struct ftl *f, uint32_t d, uint32_t sb) {
  f->pl.cache.erasing[d] = sb;
  const uint32_t tag = fop_alloc(f, FOP_MODE_ERASE);
  flash_submit(f, tag, SSD_FOP_ERASE, sb * f->geo.sb_sectors, 0, 0, 0, SSD_FDF_SLC_MODE);
}

/* A borrowed superblock goes home (erased native or retired): its mode recorded after. */
static void go_home(struct ftl *f, uint32_t sb) {
  move_to(f, sb, sb_home_pool(f, sb));
  erase_log_mode(f, sb, 0);
}

/* Borrows a free native superblock of die d: its mode recorded first, then erased. */
static void borrow(struct ftl *f, uint32_t d) {
  const uint32_t sb = blocks_take_free(f, d);
  move_to(f, sb, f->geo.dies + d);
  erase_log_mode(f, sb, 1);
  erase_slc(f, d, sb);
  f->stats->slc_borrows++;
}

int slc_cache_step(struct ftl *f) {
  struct slc_cache *c = &f->pl.cache;
  int n = 0;
  for (uint32_t i = 0; i < c->nlisted;) {
    const uint32_t pool = c->listed[i], d = f->pool[pool].die;
    if (c->erasing[d] != NONE32) {          /* one at a time: wait for it */
      i++;
      continue;
    }
    if (f->pool[pool].free_count >= f->pool[pool].gc_high || !may_lend(f, d)) {
      c->listed[i] = c->listed[--c->nlisted];
      continue;
    }
    if (!flash_can_submit(f)) break;
    borrow(f, d);
    n++;
    i++;
  }
  return n;
}

static void slc_cache_erase_done(struct ftl *f, uint32_t tag, const struct flash_result *r) {
  const uint16_t status = r->status;
  const uint32_t sb = ppa_sb(f, f->fop[tag].ppa), d = sb_die(f, sb);
  f->pl.cache.erasing[d] = NONE32;
  f->sb_erases[sb]++;
  erase_log_erased(f, sb);
  f->stats->erases++;
  if (status == SSD_FST_ERASE_FAIL) {   /* retired at home: it never held the cache's data */
    f->stats->erase_failures++;
    go_home(f, sb);
    bbt_retire(f, sb);
  } else {
    blocks_put_free(f, sb);
  }
  fop_release(f, tag);
}

uint32_t slc_cache_erase_flags(const struct ftl *f, uint32_t pool, uint32_t sb) {
  const struct pool_state *ps = &f->pool[pool];
  if (!ps->slc_mode) return 0;
  if (sb_home_pool(f, sb) == pool) return SSD_FDF_SLC_MODE;   /* the static cache's */
  return fits(f, ps->die, borrowed(f, ps->die)) ? SSD_FDF_SLC_MODE : 0u;
}

void slc_cache_erased(struct ftl *f, uint32_t sb, uint32_t flags) {
  const uint32_t pool = sb_pool(f, sb);
  if (!f->pool[pool].slc_mode || (flags & SSD_FDF_SLC_MODE)) return;
  go_home(f, sb);
  f->stats->slc_returns++;
}

/* Die d's next borrowed superblock after `after` (NONE32: from the first) that the recovery
 * scan found empty (NONE32: none left).  Those erased again are free again: hence the order. */
static uint32_t next_empty_borrowed(const struct ftl *f, uint32_t d, uint32_t after) {
  const uint32_t pool = f->geo.dies + d;
  for (uint32_t sb = pool_sb_next(f, pool, after); sb != NONE32; sb = pool_sb_next(f, pool, sb))
    if (sb_home_pool(f, sb) != pool && f->sb_state[sb] == SB_FREE) return sb;
  return NONE32;
}

void slc_cache_recover(struct ftl *f) {
  const struct ftl_geo *g = &f->geo;
  struct slc_cache *c = &f->pl.cache;
  if (!c->limit) return;
  for (uint32_t d = 0; d < g->dies; d++) f->stats->slc_borrowed += borrowed(f, d);
  for (;;) {                               /* one erase per die at a time, the dies together */
    int busy = 0;
    for (uint32_t d = 0; d < g->dies; d++) {
      if (c->erasing[d] == NONE32 && flash_can_submit(f)) {
        const uint32_t sb = next_empty_borrowed(f, d, c->recovered[d]);
        if (sb == NONE32) continue;
        c->recovered[d] = sb;
        blocks_unfree(f, sb);              /* back in the free list once erased */
        erase_slc(f, d, sb);
        f->stats->slc_recovery_erases++;
      }
      busy |= c->erasing[d] != NONE32;
    }
    flash_commit(f);
    if (!busy) break;
    if (!flash_poll(f)) hal_wait_for_event();
  }
}

static const struct flash_owner mode_erase_owner = {SSD_FRSN_GC, SSD_FST_ERASE_FAIL, slc_cache_erase_done,
                                                    slc_cache_erase_done};
