/* Superblock allocation: per-die free lists (FIFO, so blocks are reused in erase order,
 * which spreads wear), the open host, GC and translation-page superblocks of each die, and
 * the reserve host data may not take (one superblock; two with a demand-based map) so that
 * cleaning, and the translation pages the map updates of moved data may need written, can
 * always make progress.  On a mixed device each MLC die also has an open superblock for data
 * SLC GC migrates into it (the host reserve applies to it as to host data). */
#include "core/ftl.h"
#include "hal/hal.h"

void blocks_init(struct ftl *f) {
  const struct ftl_geo *g = &f->geo;
  f->sb_valid = fw_alloc(f, g->superblocks * 4u, 64);
  f->sb_state = fw_alloc(f, g->superblocks, 64);
  f->sb_next = fw_alloc(f, g->superblocks * 4u, 64);
  f->sb_erases = fw_alloc(f, g->superblocks * 4u, 64);
  f->sb_closed_seq = fw_alloc(f, g->superblocks * 4u, 64);
  f->sb_progs_inflight = fw_alloc(f, g->superblocks * 2u, 64);
  f->sb_map = fw_alloc(f, g->superblocks, 64);
  f->die = fw_alloc(f, g->dies * (uint32_t)sizeof(struct die_state), 64);
  f->gc_dies = fw_alloc(f, g->dies * 4u, 64);
  for (uint32_t r = 0; r < PLACE_REGIONS; r++) f->blocked_epoch[r] = NONE32;
  for (uint32_t d = 0; d < g->dies; d++) {
    struct die_state *ds = &f->die[d];
    ds->free_head = ds->free_tail = NONE32;
    ds->host_sb = ds->gc_sb = ds->map_sb = ds->mig_sb = ds->victim = NONE32;
    ds->blocks = geo_die_blocks(g, d);   /* superblocks past a die's count do not exist */
    for (uint32_t b = 0; b < ds->blocks; b++) blocks_put_free(f, d * g->blocks + b);
  }
}

void blocks_put_free(struct ftl *f, uint32_t sb) {
  struct die_state *ds = &f->die[sb_die(f, sb)];
  f->sb_state[sb] = SB_FREE;
  f->sb_valid[sb] = 0;
  f->sb_map[sb] = 0;
  f->sb_next[sb] = NONE32;
  if (ds->free_tail == NONE32) ds->free_head = sb;
  else f->sb_next[ds->free_tail] = sb;
  ds->free_tail = sb;
  ds->free_count++;
  f->space_epoch++;
}

uint32_t blocks_take_free(struct ftl *f, uint32_t die) {
  struct die_state *ds = &f->die[die];
  uint32_t sb = ds->free_head;
  if (sb == NONE32) return NONE32;
  ds->free_head = f->sb_next[sb];
  if (ds->free_head == NONE32) ds->free_tail = NONE32;
  ds->free_count--;
  if (ds->free_count < f->cfg.gc_low_blocks) gc_watch(f, die);
  f->sb_state[sb] = SB_OPEN;
  return sb;
}

uint32_t blocks_next_superpage(struct ftl *f, uint32_t die, int stream) {
  struct die_state *ds = &f->die[die];
  const int map = stream == STREAM_MAP || stream == STREAM_MAP_GC;
  uint32_t *sb = stream == STREAM_GC ? &ds->gc_sb : map ? &ds->map_sb : stream == STREAM_MIGRATE ? &ds->mig_sb : &ds->host_sb;
  uint32_t *page = stream == STREAM_GC ? &ds->gc_page : map ? &ds->map_page : stream == STREAM_MIGRATE ? &ds->mig_page : &ds->host_page;
  if (*sb == NONE32) {
    uint32_t reserve = stream == STREAM_HOST || stream == STREAM_MIGRATE ? f->host_reserve : 0u;
    if (ds->free_count <= reserve) return NONE32;
    *sb = blocks_take_free(f, die);
    *page = 0;
    f->sb_map[*sb] = (uint8_t)map;
  }
  uint32_t ppa = *sb * f->geo.sb_sectors + *page * f->geo.unit;
  if (++*page == ds->pages) {
    f->sb_state[*sb] = SB_FULL;
    f->sb_closed_seq[*sb] = f->write_seq;
    *sb = NONE32;
  }
  return ppa;
}
