/* Superblock allocation: per-pool free lists (FIFO, so blocks are reused in erase order,
 * which spreads wear; by erase count while a pool's wear is uneven: wear/static_wl.h; a pool is a die's blocks of one cell mode, ftl.h), the open host, GC
 * and translation-page superblocks of each pool, and
 * the reserve host data may not take (one superblock; two with a demand-based map) so that
 * cleaning, and the translation pages the map updates of moved data may need written, can
 * always make progress.  With placement each MLC pool also has an open superblock for data
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
  f->sb_stream = fw_alloc(f, g->superblocks, 64);
  f->sb_min_ver = fw_alloc(f, g->superblocks * 4u, 64);
  for (uint32_t sb = 0; sb < g->superblocks; sb++) f->sb_min_ver[sb] = NONE32;
  f->sb_owner = fw_alloc(f, g->superblocks * 2u, 64);
  f->pool = fw_alloc(f, g->pools * (uint32_t)sizeof(struct pool_state), 64);
  f->die_progs = fw_alloc(f, g->dies * 4u, 64);
  f->gc_pools = fw_alloc(f, g->pools * 4u, 64);
  f->gc_parked_bits = fw_alloc(f, (g->pools + 31u) / 32u * 4u, 64);
  f->next_host_pool = fw_alloc(f, WBUF_QUEUES * 4u, 64);
  f->blocked_epoch = fw_alloc(f, WBUF_QUEUES * 4u, 64);
  for (uint32_t r = 0; r < WBUF_QUEUES; r++) f->blocked_epoch[r] = NONE32;
  f->walk = fw_alloc(f, WBUF_QUEUES * (uint32_t)sizeof(struct pool_walk), 64);
  for (uint32_t r = 0; r < WBUF_QUEUES; r++) f->walk[r].epoch = NONE32;
  for (uint32_t sb = 0; sb < g->superblocks; sb++)   /* past a die's count: none (never used) */
    f->sb_owner[sb] = (uint16_t)(sb % g->blocks < geo_die_blocks(g, sb / g->blocks) ? sb_home_pool(f, sb) : 0xFFFFu);
  for (uint32_t p = 0; p < g->pools; p++) {
    struct pool_state *ps = &f->pool[p];
    const int slc_mode = p >= g->dies;
    ps->die = p % g->dies;
    ps->free_head = ps->free_tail = NONE32;
    ps->host_sb = ps->gc_sb = ps->map_sb = ps->mig_sb = ps->wl_sb = ps->victim = NONE32;
    ps->gc_low = f->cfg.gc_low_blocks;     /* an SLC pool that only migrates may have its own */
    ps->gc_high = f->cfg.gc_high_blocks;
    ps->host_reserve = f->host_reserve;
    /* A pSLC cache takes the first blocks of each die; a dynamic one may borrow any of the
     * die's (place/slc_cache.h). */
    const uint32_t die_first = ps->die * g->blocks, die_blocks = geo_die_blocks(g, ps->die);
    const uint32_t cache = g->pools > g->dies ? g->pslc_blocks : 0u;
    ps->span_first = slc_mode ? die_first : die_first + cache;
    ps->span = slc_mode ? (slc_cache_dynamic(f) ? die_blocks : cache) : die_blocks - cache;
    ps->blocks = slc_mode ? cache : die_blocks - cache;
    ps->pages = slc_mode ? g->pslc_pages : geo_die_pages(g, ps->die);
    ps->sb_capacity = ps->pages * g->unit;
    ps->slc_mode = (uint8_t)slc_mode;
    for (uint32_t sb = pool_sb_first(f, p); sb != NONE32; sb = pool_sb_next(f, p, sb)) blocks_put_free(f, sb);
  }
}

/* Appends sb to the tail of its pool's free list (FIFO) and counts it. */
static void append_free(struct ftl *f, struct pool_state *ps, uint32_t sb) {
  f->sb_next[sb] = NONE32;
  if (ps->free_tail == NONE32) ps->free_head = sb;
  else f->sb_next[ps->free_tail] = sb;
  ps->free_tail = sb;
  ps->free_count++;
  f->free_superblocks++;
  pool_may_take_more(f);
}

void blocks_put_free(struct ftl *f, uint32_t sb) {
  struct pool_state *ps = &f->pool[sb_pool(f, sb)];
  sb_set_state(f, sb, SB_FREE);
  sb_valid_clear(f, sb);
  f->sb_map[sb] = 0;
  f->sb_min_ver[sb] = NONE32;
  append_free(f, ps, sb);
  f->stats->free_superblocks = f->free_superblocks;
  f->space_epoch++;
}

/* Unlinks sb (after prev, NONE32: the head) from the pool's free list. */
static uint32_t unlink_free(struct ftl *f, uint32_t pool, uint32_t prev, uint32_t sb) {
  struct pool_state *ps = &f->pool[pool];
  if (prev == NONE32) ps->free_head = f->sb_next[sb];
  else f->sb_next[prev] = f->sb_next[sb];
  if (ps->free_tail == sb) ps->free_tail = prev;
  ps->free_count--;
  f->free_superblocks--;
  f->stats->free_superblocks = f->free_superblocks;
  if (ps->free_count < ps->gc_low) gc_watch(f, pool);
  slc_cache_taken(f, pool);
  sb_set_state(f, sb, SB_OPEN);
  return sb;
}

uint32_t blocks_take_free(struct ftl *f, uint32_t pool) {
  const uint32_t sb = f->pool[pool].free_head;
  return sb == NONE32 ? NONE32 : unlink_free(f, pool, NONE32, sb);
}

/* The free superblock a stream opens: the oldest-erased one; while the pool's wear is uneven
 * (wear/static_wl.h) the least-erased, but the most-erased for wear levelling's moves of cold
 * data (cold data parks on worn blocks), as Linux UBI's wear levelling does. */
static uint32_t take_free_for(struct ftl *f, uint32_t pool, int stream) {
  const struct pool_state *ps = &f->pool[pool];
  if (!ps->wl_uneven) return blocks_take_free(f, pool);
  const int cold = stream == STREAM_WEAR;
  uint32_t best = NONE32, best_prev = NONE32;
  for (uint32_t prev = NONE32, sb = ps->free_head; sb != NONE32; prev = sb, sb = f->sb_next[sb])
    if (best == NONE32 || (cold ? f->sb_erases[sb] > f->sb_erases[best] : f->sb_erases[sb] < f->sb_erases[best])) {
      best = sb;
      best_prev = prev;
    }
  return best == NONE32 ? NONE32 : unlink_free(f, pool, best_prev, best);
}

/* The pool's open superblock of `stream` (NONE32: none open) and its next superpage; an FDP
 * handle's streams are FDP's (place/fdp.h). */
static uint32_t *stream_sb(struct ftl *f, uint32_t pool, int stream) {
  struct pool_state *ps = &f->pool[pool];
  if (stream >= (int)STREAM_FDP_HOST) return fdp_stream_sb(f, pool, stream);
  return stream == STREAM_GC ? &ps->gc_sb
         : stream == STREAM_MAP || stream == STREAM_MAP_GC ? &ps->map_sb
         : stream == STREAM_MIGRATE ? &ps->mig_sb : stream == STREAM_WEAR ? &ps->wl_sb : &ps->host_sb;
}
static uint32_t *stream_page(struct ftl *f, uint32_t pool, int stream) {
  struct pool_state *ps = &f->pool[pool];
  if (stream >= (int)STREAM_FDP_HOST) return fdp_stream_page(f, pool, stream);
  return stream == STREAM_GC ? &ps->gc_page
         : stream == STREAM_MAP || stream == STREAM_MAP_GC ? &ps->map_page
         : stream == STREAM_MIGRATE ? &ps->mig_page : stream == STREAM_WEAR ? &ps->wl_page : &ps->host_page;
}

/* Host data and data migrated from SLC leave the host reserve free (an FDP handle's host data
 * too). */
static int stream_takes_host_reserve(int stream) {
  return stream == STREAM_HOST || stream == STREAM_MIGRATE ||
         (stream >= (int)STREAM_FDP_HOST && stream < (int)STREAM_FDP_GC);
}

uint32_t blocks_stream_open(struct ftl *f, uint32_t pool, int stream) { return *stream_sb(f, pool, stream); }

/* The stream's open superblock (taking a free one if it has none; NONE32 when the pool may not
 * give it one now); *page is its next superpage. */
static uint32_t open_for(struct ftl *f, uint32_t pool, int stream) {
  struct pool_state *ps = &f->pool[pool];
  uint32_t *sb = stream_sb(f, pool, stream);
  if (*sb != NONE32) return *sb;
  const uint32_t reserve = stream_takes_host_reserve(stream) ? ps->host_reserve : 0u;
  if (ps->free_count <= reserve) return NONE32;
  *sb = take_free_for(f, pool, stream);
  *stream_page(f, pool, stream) = 0;
  pool_may_take_more(f);   /* a queue of this stream passes the pool over no longer */
  if (stream == STREAM_HOST) ps->host_plane = 0;
  f->sb_map[*sb] = (uint8_t)(stream == STREAM_MAP || stream == STREAM_MAP_GC);
  f->sb_stream[*sb] = (uint8_t)(stream == STREAM_MAP_GC ? STREAM_MAP : stream);
  return *sb;
}

/* The stream's open superblock moves past its current superpage (closing when it was the last). */
static void superpage_used(struct ftl *f, uint32_t pool, int stream) {
  uint32_t *sb = stream_sb(f, pool, stream);
  if (++*stream_page(f, pool, stream) == f->pool[pool].pages) {
    sb_set_state(f, *sb, SB_FULL);
    f->sb_closed_seq[*sb] = f->write_seq;
    *sb = NONE32;
  }
}

uint32_t blocks_next_superpage(struct ftl *f, uint32_t pool, int stream) {
  struct pool_state *ps = &f->pool[pool];
  if (stream == STREAM_HOST && ps->host_sb != NONE32 && ps->host_plane) {
    /* A write-through superpage is partly programmed: a whole one cannot follow in this
     * superblock (each plane's block programs its pages in order), so it closes with the
     * rest erased (only a retried program asks so: media/program_retry.h). */
    f->stats->wt_closed_early++;
    sb_set_state(f, ps->host_sb, SB_FULL);
    f->sb_closed_seq[ps->host_sb] = f->write_seq;
    ps->host_sb = NONE32;
    ps->host_plane = 0;
  }
  const uint32_t sb = open_for(f, pool, stream);
  if (sb == NONE32) return NONE32;
  const uint32_t ppa = sb * f->geo.sb_sectors + *stream_page(f, pool, stream) * f->geo.unit;
  if (stream_takes_host_reserve(stream) || stream == STREAM_MAP) gc_pace_consumed(f, pool, f->geo.unit);
  superpage_used(f, pool, stream);
  return ppa;
}

uint32_t blocks_next_pages(struct ftl *f, uint32_t pool, uint32_t want, uint32_t *planes) {
  struct pool_state *ps = &f->pool[pool];
  const struct ftl_geo *g = &f->geo;
  const uint32_t sb = open_for(f, pool, STREAM_HOST);
  if (sb == NONE32) return NONE32;
  const uint32_t first = ps->host_plane;
  const uint32_t n = want < g->planes - first ? want : g->planes - first;
  const uint32_t ppa = sb * g->sb_sectors + ps->host_page * g->unit + first * g->spp;
  gc_pace_consumed(f, pool, n * g->spp);
  *planes = n;
  ps->host_plane = first + n;
  if (ps->host_plane == g->planes) {
    ps->host_plane = 0;
    superpage_used(f, pool, STREAM_HOST);
  }
  return ppa;
}

uint32_t blocks_next_superpage_spill(struct ftl *f, uint32_t pool, int stream) {
  const uint32_t ppa = blocks_next_superpage(f, pool, stream);
  if (ppa != NONE32) return ppa;
  const uint8_t region = f->pl.pool_region[pool];
  for (uint32_t k = 1; k < f->geo.pools; k++) {
    const uint32_t q = (pool + k) % f->geo.pools;
    struct pool_state *qs = &f->pool[q];
    if (f->pl.pool_region[q] != region) continue;
    if (*stream_sb(f, q, stream) == NONE32 && qs->free_count <= f->host_reserve + GC_RESERVE) continue;
    const uint32_t p = blocks_next_superpage(f, q, stream);
    if (p != NONE32) return p;
  }
  return NONE32;
}

int blocks_reopen(struct ftl *f, uint32_t sb, int stream, uint32_t page) {
  const uint32_t pool = sb_pool(f, sb);
  uint32_t *open = stream_sb(f, pool, stream);
  if (*open != NONE32) return 0;
  *open = sb;
  *stream_page(f, pool, stream) = page;
  pool_may_take_more(f);
  if (stream == STREAM_HOST) f->pool[pool].host_plane = 0;   /* from the superpage's first plane */
  sb_set_state(f, sb, SB_OPEN);
  f->sb_stream[sb] = (uint8_t)stream;
  return 1;
}

void blocks_close(struct ftl *f, uint32_t sb) {
  uint32_t *open = stream_sb(f, sb_pool(f, sb), f->sb_stream[sb]);
  if (*open != sb) return;   /* closed already */
  *open = NONE32;
  sb_set_state(f, sb, SB_FULL);
  f->sb_closed_seq[sb] = f->write_seq;
}

void blocks_drop_unfree(struct ftl *f) {
  const struct ftl_geo *g = &f->geo;
  for (uint32_t p = 0; p < g->pools; p++) {
    struct pool_state *ps = &f->pool[p];
    uint32_t *link = &ps->free_head, last = NONE32;
    while (*link != NONE32) {
      const uint32_t sb = *link;
      if (f->sb_state[sb] != SB_FREE) {
        *link = f->sb_next[sb];
        ps->free_count--;
        f->free_superblocks--;
        f->stats->free_superblocks = f->free_superblocks;
        continue;
      }
      last = sb;
      link = &f->sb_next[sb];
    }
    ps->free_tail = last;
    if (ps->free_count < ps->gc_low) gc_watch(f, p);
  }
}

void blocks_unfree(struct ftl *f, uint32_t sb) {
  const uint32_t pool = sb_pool(f, sb);
  uint32_t prev = NONE32;
  for (uint32_t s = f->pool[pool].free_head; s != NONE32 && s != sb; s = f->sb_next[s]) prev = s;
  unlink_free(f, pool, prev, sb);
}

void blocks_regroup(struct ftl *f) {
  const struct ftl_geo *g = &f->geo;
  f->free_superblocks = 0;
  for (uint32_t p = 0; p < g->pools; p++) {
    struct pool_state *ps = &f->pool[p];
    ps->free_head = ps->free_tail = NONE32;
    ps->free_count = ps->blocks = 0;
    for (uint32_t sb = pool_sb_first(f, p); sb != NONE32; sb = pool_sb_next(f, p, sb)) {
      ps->blocks++;
      if (f->sb_state[sb] == SB_FREE) append_free(f, ps, sb);
    }
  }
  f->stats->free_superblocks = f->free_superblocks;
  f->space_epoch++;
}

/* The pool's GC will need its last free superblock: its victim's valid data does not fit the
 * room left in its open GC superblock. */
static int gc_needs_last_free(const struct ftl *f, const struct pool_state *ps) {
  if (ps->victim == NONE32) return 0;
  const uint32_t room = ps->gc_sb == NONE32 ? 0u : (ps->pages - ps->gc_page) * f->geo.unit;
  return f->sb_valid[ps->victim] > room;
}

uint32_t blocks_next_map_superpage(struct ftl *f, uint32_t *next_die, uint32_t reserve) {
  const struct ftl_geo *g = &f->geo;
  for (uint32_t spare = 1; spare < 3u; spare++)
    for (uint32_t k = 0; k < g->dies; k++) {
      const uint32_t die = (*next_die + k) % g->dies;
      const struct pool_state *ps = &f->pool[die];
      if (ps->map_sb == NONE32 &&
          (ps->free_count <= reserve ||
           (ps->free_count <= 1u && ps->victim != NONE32 && (spare == 1u || gc_needs_last_free(f, ps)))))
        continue;
      const uint32_t ppa = blocks_next_superpage(f, die, STREAM_MAP);
      if (ppa == NONE32) continue;
      *next_die = (die + 1u) % g->dies;
      return ppa;
    }
  return NONE32;
}
