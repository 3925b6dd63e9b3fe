/* ComboFTL's unit-level MLC map: unit ownership of MLC superblocks, the per-unit open
 * superblock and the unit GC a full unit asks for (place/unit_map.h). */
#include "core/ftl.h"
#include "hal/hal.h"


void unit_map_init(struct ftl *f) {
  const struct ftl_geo *g = &f->geo;
  struct unit_map *m = &f->pl.units;
  uint32_t mlc_pool = NONE32, mlc_superblocks = 0;
  for (uint32_t q = 0; q < g->pools; q++) {
    if (f->pl.pool_region[q] != REGION_MLC) continue;
    if (mlc_pool == NONE32) mlc_pool = q;
    mlc_superblocks += f->pool[q].blocks;
  }
  m->unit_sectors = f->cfg.combo_unit_blocks * f->pool[mlc_pool].sb_capacity;
  m->nunits = (g->logical_sectors + m->unit_sectors - 1u) / m->unit_sectors;
  m->quota = f->cfg.combo_unit_blocks + f->cfg.combo_unit_extra;
  if (m->quota + g->pools * (GC_RESERVE + f->host_reserve) > mlc_superblocks || m->quota > 0xFFFFu) {
    hal_puts("fw: a combo unit's quota of superblocks does not fit in the MLC region\n");
    hal_halt(SSD_HALT_BAD_CONFIG | SSD_BADCFG_UNIT_QUOTA);
    for (;;) hal_sleep();
  }
  m->open_sb = fw_alloc(f, m->nunits * m->quota * 4u, 64);
  m->open_page = fw_alloc(f, m->nunits * m->quota * 2u, 64);
  m->open_next = fw_alloc(f, m->nunits * 2u, 64);
  m->owned = fw_alloc(f, m->nunits * 2u, 64);
  m->next_pool = fw_alloc(f, m->nunits * 2u, 64);
  m->gc_victim = fw_alloc(f, m->nunits * 4u, 64);
  m->sb_unit = fw_alloc(f, g->superblocks * 4u, 64);
  m->queue_head = fw_alloc(f, g->pools * 4u, 64);
  m->queue_tail = fw_alloc(f, g->pools * 4u, 64);
  for (uint32_t u = 0; u < m->nunits; u++) {
    m->gc_victim[u] = NONE32;
    m->owned[u] = m->open_next[u] = 0;
    m->next_pool[u] = (uint16_t)(u % g->pools);
  }
  for (uint32_t k = 0; k < m->nunits * m->quota; k++) {
    m->open_sb[k] = NONE32;
    m->open_page[k] = 0;
  }
  for (uint32_t sb = 0; sb < g->superblocks; sb++) m->sb_unit[sb] = NONE32;
  for (uint32_t q = 0; q < g->pools; q++) m->queue_head[q] = m->queue_tail[q] = NONE32;
  f->stats->units = m->nunits;
  f->stats->unit_map_bytes = unit_map_bytes(f);
}

uint32_t unit_map_bytes(const struct ftl *f) {
  const struct unit_map *m = &f->pl.units;
  return m->nunits * (m->quota * 6u + 2u + 2u + 2u + 4u) + f->geo.superblocks * 4u + f->geo.pools * 8u;
}

/* Asks for a unit GC of unit u: its full superblock with the fewest valid sectors, queued for
 * its pool's engine.  Nothing happens while the unit already has one, or while every full
 * superblock it has is being cleaned (their erases free its quota). */
static void request_unit_gc(struct ftl *f, uint32_t u) {
  struct unit_map *m = &f->pl.units;
  const struct ftl_geo *g = &f->geo;
  if (m->gc_victim[u] != NONE32) return;
  uint32_t best = NONE32, best_valid = NONE32;
  for (uint32_t q = 0; q < g->pools; q++) {
    if (f->pl.pool_region[q] != REGION_MLC) continue;
    for (uint32_t sb = pool_sb_first(f, q); sb != NONE32; sb = pool_sb_next(f, q, sb)) {
      if (m->sb_unit[sb] != u || f->sb_state[sb] != SB_FULL || f->sb_progs_inflight[sb]) continue;
      if (f->sb_valid[sb] < best_valid) { best_valid = f->sb_valid[sb]; best = sb; }
    }
  }
  if (best == NONE32) return;             /* its blocks are being cleaned already */
  const uint32_t pool = sb_pool(f, best);
  sb_set_state(f, best, SB_VICTIM);           /* the pool's own choice passes it by */
  f->sb_next[best] = NONE32;
  if (m->queue_tail[pool] == NONE32) m->queue_head[pool] = best;
  else f->sb_next[m->queue_tail[pool]] = best;
  m->queue_tail[pool] = best;
  m->gc_victim[u] = best;
  gc_watch(f, pool);
}

/* Is one of unit u's open superblocks on this die? */
static int open_on_die(const struct ftl *f, uint32_t u, uint32_t die) {
  const struct unit_map *m = &f->pl.units;
  for (uint32_t k = 0; k < m->quota; k++) {
    const uint32_t sb = m->open_sb[u * m->quota + k];
    if (sb != NONE32 && sb_die(f, sb) == die) return 1;
  }
  return 0;
}

/* A free superblock from the first MLC pool in unit u's turn, other than `skip`, with more than
 * `reserve` free, whose die is under the limit and holds none of the unit's open superblocks. */
static uint32_t take_from_turn(struct ftl *f, uint32_t u, uint32_t skip, uint32_t reserve, uint32_t die_limit,
                               int *busy) {
  struct unit_map *m = &f->pl.units;
  const struct ftl_geo *g = &f->geo;
  for (uint32_t k = 0; k < g->pools; k++) {
    const uint32_t q = (m->next_pool[u] + k) % g->pools;
    const struct pool_state *ps = &f->pool[q];
    if (q == skip || f->pl.pool_region[q] != REGION_MLC || ps->free_count <= reserve || open_on_die(f, u, ps->die))
      continue;
    if (die_limit && f->die_progs[ps->die] >= die_limit) {
      *busy = 1;
      continue;
    }
    m->next_pool[u] = (uint16_t)((q + 1u) % g->pools);
    return blocks_take_free(f, q);
  }
  return NONE32;
}

/* A free superblock for unit u from the first pool, in the unit's turn, that has one to spare
 * for this kind of data, whose die is under the limit and holds none of the unit's open
 * superblocks.  GC copies take the victim's pool's first while it has more than its GC reserve
 * (the victim's erase gives it back).  A pool down to that reserve is full of valid data: a
 * copy kept there takes back what the victim's erase frees (a victim of 127 valid sectors in
 * 128 frees one), so it cleans for ever; its copies go to a pool with a free superblock beyond
 * its host reserve (one host data could have had), and only when none has one to its own
 * reserve.  From another pool GC copies take only what is above that pool's GC reserve: taking
 * its last free superblock left it unable to clean, and when the victim's pool then needed one
 * more, no pool could give it (both waited for ever). */
static uint32_t take_block(struct ftl *f, uint32_t u, int kind, uint32_t gc_pool, uint32_t die_limit, int *busy) {
  if (kind != UNIT_GC) return take_from_turn(f, u, NONE32, f->host_reserve, die_limit, busy);
  if (f->pool[gc_pool].free_count > GC_RESERVE) return blocks_take_free(f, gc_pool);
  /* the victim's pool is full of valid data: elsewhere, beyond host reserves */
  const uint32_t sb = take_from_turn(f, u, gc_pool, f->host_reserve, die_limit, busy);
  if (sb != NONE32) return sb;
  if (f->pool[gc_pool].free_count > 0) return blocks_take_free(f, gc_pool);
  return take_from_turn(f, u, NONE32, GC_RESERVE, die_limit, busy);
}

uint32_t unit_next_superpage(struct ftl *f, uint32_t u, int kind, uint32_t gc_pool, uint32_t die_limit, int *busy) {
  struct unit_map *m = &f->pl.units;
  uint32_t *open = &m->open_sb[u * m->quota];
  uint16_t *page = &m->open_page[u * m->quota];
  uint32_t slot = NONE32, free_slot = NONE32, nopen = 0;
  *busy = 0;
  for (uint32_t i = 0; i < m->quota; i++) {   /* its open superblocks in turn: the first usable */
    const uint32_t k = (m->open_next[u] + i) % m->quota;
    if (open[k] == NONE32) {
      if (free_slot == NONE32) free_slot = k;
      continue;
    }
    nopen++;
    if (slot == NONE32 && (!die_limit || f->die_progs[sb_die(f, open[k])] < die_limit)) slot = k;
  }
  if (slot == NONE32) {                         /* none, or all on busy dies: open another */
    const int may_open = kind == UNIT_GC || (m->owned[u] < m->quota && m->gc_victim[u] == NONE32);
    if (!may_open || free_slot == NONE32) {
      if (nopen) {
        *busy = 1;                              /* wait for one of its dies */
        return NONE32;
      }
      if (m->owned[u] >= m->quota) request_unit_gc(f, u);
      return NONE32;                            /* cleans itself first */
    }
    const uint32_t sb = take_block(f, u, kind, gc_pool, die_limit, busy);
    if (sb == NONE32) {
      if (nopen) *busy = 1;                     /* its open ones are there, on busy dies */
      return NONE32;
    }
    slot = free_slot;
    open[slot] = sb;
    page[slot] = 0;
    m->owned[u]++;
    m->sb_unit[sb] = u;
  }
  const uint32_t sb = open[slot];
  const uint32_t ppa = sb * f->geo.sb_sectors + page[slot] * f->geo.unit;
  m->open_next[u] = (uint16_t)((slot + 1u) % m->quota);
  if (++page[slot] == f->pool[sb_pool(f, sb)].pages) {
    sb_set_state(f, sb, SB_FULL);
    f->sb_closed_seq[sb] = f->write_seq;
    open[slot] = NONE32;
  }
  return ppa;
}

uint32_t unit_take_victim(struct ftl *f, uint32_t pool) {
  struct unit_map *m = &f->pl.units;
  if (!m->unit_sectors) return NONE32;
  const uint32_t sb = m->queue_head[pool];
  if (sb == NONE32) return NONE32;
  m->queue_head[pool] = f->sb_next[sb];
  if (m->queue_head[pool] == NONE32) m->queue_tail[pool] = NONE32;
  return sb;
}

int unit_sb_recovered(struct ftl *f, uint32_t sb, uint32_t u, uint32_t next_page) {
  struct unit_map *m = &f->pl.units;
  m->sb_unit[sb] = u;
  m->owned[u]++;
  if (next_page >= f->pool[sb_pool(f, sb)].pages) return 0;
  for (uint32_t k = 0; k < m->quota; k++) {
    uint32_t *open = &m->open_sb[u * m->quota + k];
    if (*open != NONE32) continue;
    *open = sb;
    m->open_page[u * m->quota + k] = (uint16_t)next_page;
    sb_set_state(f, sb, SB_OPEN);
    return 1;
  }
  return 0;
}

void unit_sb_erased(struct ftl *f, uint32_t sb) {
  struct unit_map *m = &f->pl.units;
  if (!m->unit_sectors || m->sb_unit[sb] == NONE32) return;
  const uint32_t u = m->sb_unit[sb];
  m->sb_unit[sb] = NONE32;
  m->owned[u]--;
  if (m->gc_victim[u] == sb) {
    m->gc_victim[u] = NONE32;
    f->stats->unit_gc_runs++;
  }
}
