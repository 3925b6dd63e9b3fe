/* ftl.write_buffer = ring: pblk's ring write buffer (buffer/write_buffer.h).
 *
 * Entries are handed out at the memory pointer, in ring order, for as long as the ring has
 * room; the writer takes them in arrival order (the submission pointer) and every entry is
 * written, one a later write overwrote included (pblk writes every entry; the map ignores a
 * superseded one); an entry is given back (SL_SYNCED) when its data is on flash and mapped,
 * but its space is reusable only when the sync pointer reaches it: the sync pointer moves over
 * given-back entries in ring order, so the oldest entry still waiting for its program (or
 * its map update) holds back all the space behind it.  A synced entry stays readable from
 * DRAM until the memory pointer reuses it (pblk's lazy l2p update: its map points at the ring
 * entry until the space is needed), so the ring serves reads of the last ring-full of
 * written data; an entry a host read is still copying from is not reused until it is done.
 *
 * The writer drains when a full stripe (a superpage on every die) is buffered; with less, it
 * waits `ftl.ring.timeout_us` after it first went idle with whole superpages buffered, then
 * drains those; a partial superpage waits for more data or a flush (which pads it), as in
 * pblk.  While host writes wait for space it drains whole superpages at once, and pads a
 * partial one if nothing it submitted is still in flight (the space could never come back).
 *
 * Rate limiter (pblk's pblk-rl, applied to user writes): user writes may hold the whole ring
 * while the drive's free superblocks are at least ftl.gc_high_blocks per pool; below that
 * their share shrinks in proportion to the free superblocks (free / (gc_high_blocks x
 * pools); pools GC does not clean on demand, slc-direct's SLC cache, are left out of both),
 * never below one stripe plus one largest command, so that GC, which needs the
 * flash and the free blocks, gets them.  The rest of the ring is GC's in pblk, whose GC
 * writes go through the ring; GC copies here have their own buffers (gc/gc.c), so the share
 * the limiter takes from users is left empty: it throttles user writes only.
 * With several firmware cores each core's part is a ring of its own (write_buffer.h); the
 * limiter shares each part the same way.
 * Leaves out: GC writes through the ring, pblk's write-amplification-aware lines, the
 * paired-page reads that keep data in pblk's ring until the next wordline is written. */
#include "core/ftl.h"
#include "hal/hal.h"

static void ring_init(struct ftl *f, struct wbuf_part *p) {
  struct wbuf_ring *r = &p->ring;
  r->stripe = wbuf_stripe_sectors(f);   /* boot checked that each part holds one */
  r->timeout_ns = (uint64_t)f->cfg.ring_timeout_us * 1000u;
  r->mem = r->sync = p->first;
  p->free_count = p->nslots;
  f->stats->ring_stripe_sectors = r->stripe;
  f->stats->ring_user_limit_min = p->nslots;
}

/* The entry after s in the part's ring. */
static uint32_t ring_next(const struct wbuf_part *p, uint32_t s) {
  return s + 1u == p->first + p->nslots ? p->first : s + 1u;
}

/* Entries user writes may hold now (the rate limiter above). */
static uint32_t user_limit(struct ftl *f, const struct wbuf_part *p) {
  uint32_t free = f->free_superblocks, pools = f->geo.pools;
  place_demand_cleaned_space(f, &free, &pools);   /* slc-direct: its cache is not GC's to clean */
  const uint32_t high = f->cfg.gc_high_blocks * pools;
  if (free >= high) return p->nslots;
  uint32_t limit = (uint32_t)(((uint64_t)p->nslots * free) / high);
  uint32_t floor = p->ring.stripe + SSD_MDTS_SECTORS;
  if (floor > p->nslots) floor = p->nslots;
  if (limit < floor) limit = floor;
  if (limit < f->stats->ring_user_limit_min) f->stats->ring_user_limit_min = limit;
  return limit;
}

static int ring_alloc(struct ftl *f, struct wbuf_part *p, uint32_t n, uint32_t *slots_out) {
  struct wbuf *w = &f->wb;
  struct wbuf_ring *r = &p->ring;
  if (r->used + n > p->nslots) return 0;
  if (r->used + n > user_limit(f, p)) {
    if (!r->limited) f->stats->ring_limiter_holds++;
    r->limited = 1;
    return 0;
  }
  r->limited = 0;
  for (uint32_t i = 0, at = r->mem; i < n; i++, at = ring_next(p, at))
    if (w->pins[at]) return 0;          /* a host read still copies from it */
  for (uint32_t i = 0; i < n; i++) {
    wbuf_forget(f, r->mem);
    w->state[r->mem] = SL_FILLING;
    slots_out[i] = r->mem;
    r->mem = ring_next(p, r->mem);
  }
  r->used += n;
  p->free_count = p->nslots - r->used;
  if (r->used > f->stats->ring_used_max) f->stats->ring_used_max = r->used;
  if (p->core == 0) {
    f->stats->ring_mem = r->mem;
    f->stats->ring_used = r->used;
  }
  return 1;
}

static void ring_release(struct ftl *f, struct wbuf_part *p, uint32_t s) {
  struct wbuf *w = &f->wb;
  struct wbuf_ring *r = &p->ring;
  w->state[s] = SL_SYNCED;
  r->inflight--;
  while (r->used && w->state[r->sync] == SL_SYNCED) {
    r->sync = ring_next(p, r->sync);
    r->used--;
  }
  p->free_count = p->nslots - r->used;
  if (p->core == 0) {
    f->stats->ring_sync = r->sync;
    f->stats->ring_used = r->used;
  }
}

static int ring_drain_mode(struct ftl *f, struct wbuf_part *p) {
  struct wbuf_ring *r = &p->ring;
  const uint32_t queued = wbuf_queued(p);
  const int writes_wait = f->core[p->core]->wait_write_head != NONE32;
  if (queued < f->geo.unit) {
    r->wait_since_ns = 0;
    r->timed_out = 0;
    return writes_wait && queued && r->inflight == 0 ? 2 : 0;
  }
  if (queued >= r->stripe) {
    r->wait_since_ns = 0;
    return 1;
  }
  return r->timed_out || writes_wait;
}

static int ring_idle(struct ftl *f, struct wbuf_part *p) {
  struct wbuf_ring *r = &p->ring;
  struct fw_timer *t = &f->core[p->core]->timer;
  if (!r->timeout_ns || r->timed_out || wbuf_queued(p) < f->geo.unit) return 0;
  const uint64_t now = hal_now_ns();
  if (!r->wait_since_ns) r->wait_since_ns = now;
  const uint64_t due = r->wait_since_ns + r->timeout_ns;
  if (now < due) {
    timer_set(t, TIMER_RING_WRITER, due);
    return 0;
  }
  timer_set(t, TIMER_RING_WRITER, ~0ull);
  r->timed_out = 1;
  f->stats->ring_timeout_drains++;
  return 1;
}

const struct wbuf_space wbuf_ring = {"ring", ring_init, ring_alloc, ring_release, ring_drain_mode, ring_idle, 1, 1};
