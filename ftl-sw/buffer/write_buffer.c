/* The write buffer's common part (buffer/write_buffer.h): 4 KiB entries filled by host DMA,
 * indexed by LPA so reads of buffered data are served from DRAM, drained in arrival order a
 * superpage at a time to the next die in the stripe (channel first, then way).  An entry
 * overwritten while buffered is dropped before it reaches flash (slots) or written anyway
 * (the ring: writes_superseded); one being programmed stays until its program completes.  How entries are handed out and given back is the kind's
 * (slot_pool.c, ring.c).
 * With SLC/MLC placement each entry carries the region the policy chose when it was
 * committed and waits in that region's fifo: a superpage holds one region's data, in arrival
 * order, for one of that region's dies, and the regions drain in turn.  Without placement
 * there is one fifo: the plain arrival order.  In a region that groups data (combo's
 * unit-mapped MLC) a superpage takes the run of the head sector's unit from the fifo, padded
 * where the run ends, and goes where that unit writes (a fifo head waiting for its unit
 * holds the region back).  Under slc-direct a superpage of the SLC fifo goes to the next MLC
 * die when no SLC pool has room (placement.h: place_full_region_fallback).
 * Parts (one per firmware core) each have their own fifos and writer; the index is shared.
 * Write-through (device.volatile_write_cache = false) programs only the pages holding data
 * (wbuf_flush_step).
 * Leaves out: partial-superpage programs for a flush or FUA write with the cache on (those pad
 * the superpage, as pblk pads to its minimum write unit). */
#include "core/ftl.h"
#include "hal/hal.h"

static uint32_t hash_of(uint32_t lpa, uint32_t mask) { return (lpa * 2654435761u) & mask; }

uint32_t wbuf_stripe_sectors(const struct ftl *f) { return f->geo.unit * f->geo.dies; }

/* Host data programs' completions (core/flash_port.h); a failed one goes to media/program_retry.h. */
static const struct flash_owner wbuf_program_owner;

void wbuf_init(struct ftl *f, uint32_t parts) {
  flash_register(f, FOP_HOST_PROG, &wbuf_program_owner);
  struct wbuf *w = &f->wb;
  w->space = f->cfg.wbuf_kind == SSD_WBUF_RING ? &wbuf_ring : &wbuf_slot_pool;
  w->part_slots = f->cfg.wbuf_sectors / parts;
  w->nslots = w->part_slots * parts;
  w->base_addr = hal_dram_addr(fw_alloc(f, w->nslots * SECTOR_BYTES, SECTOR_BYTES));
  w->lpa = fw_alloc(f, w->nslots * 4u, 64);
  w->seq = fw_alloc(f, w->nslots * 4u, 64);
  w->state = fw_alloc(f, w->nslots, 64);
  w->pins = fw_alloc(f, w->nslots * 2u, 64);
  w->queue = fw_alloc(f, w->nslots, 64);
  w->queues = place_queues(f);
  uint32_t hsize = 1;
  while (hsize < 2u * w->nslots) hsize <<= 1;
  w->hash_mask = hsize - 1u;
  w->hash_key = fw_alloc(f, hsize * 4u, 64);
  w->hash_val = fw_alloc(f, hsize * 4u, 64);
  for (uint32_t i = 0; i < hsize; i++) w->hash_key[i] = NONE32;
  f->prog_done = fw_alloc(f, FOP_MAX, 64);
}

void wbuf_init_part(struct ftl *f, struct wbuf_part *p, uint32_t core) {
  const struct wbuf *w = &f->wb;
  p->core = core;
  p->nslots = w->part_slots;
  p->first = core * w->part_slots;
  p->used_counted = 0;
  p->queues = w->queues;
  for (uint32_t r = 0; r < w->queues; r++) p->q[r].ring = fw_alloc(f, p->nslots * 4u, 64);
  w->space->init(f, p);
}

struct wbuf_part *wbuf_part_of(struct ftl *f, uint32_t slot) {
  return &f->core[slot / f->wb.part_slots]->wb;
}

uint32_t wbuf_lookup(const struct ftl *f, uint32_t lpa) {
  const struct wbuf *w = &f->wb;
  for (uint32_t i = hash_of(lpa, w->hash_mask);; i = (i + 1u) & w->hash_mask) {
    if (w->hash_key[i] == lpa) return w->hash_val[i];
    if (w->hash_key[i] == NONE32) return NONE32;
  }
}

static void hash_put(struct wbuf *w, uint32_t lpa, uint32_t slot) {
  uint32_t i = hash_of(lpa, w->hash_mask);
  while (w->hash_key[i] != NONE32 && w->hash_key[i] != lpa) i = (i + 1u) & w->hash_mask;
  w->hash_key[i] = lpa;
  w->hash_val[i] = slot;
}

/* Deletion with backward shift, so lookups never need tombstones. */
static void hash_del(struct wbuf *w, uint32_t lpa) {
  uint32_t i = hash_of(lpa, w->hash_mask);
  while (w->hash_key[i] != lpa) {
    if (w->hash_key[i] == NONE32) return;
    i = (i + 1u) & w->hash_mask;
  }
  for (uint32_t j = (i + 1u) & w->hash_mask; w->hash_key[j] != NONE32; j = (j + 1u) & w->hash_mask) {
    uint32_t home = hash_of(w->hash_key[j], w->hash_mask);
    /* Move j into the hole at i if its home is not in (i, j]. */
    if (((j - home) & w->hash_mask) >= ((j - i) & w->hash_mask)) {
      w->hash_key[i] = w->hash_key[j];
      w->hash_val[i] = w->hash_val[j];
      i = j;
    }
  }
  w->hash_key[i] = NONE32;
}

/* The buffer's fill gauge (stats->wbuf_used) after the part's entries in use changed. */
static void count_used(struct ftl *f, struct wbuf_part *p) {
  const uint32_t used = p->nslots - p->free_count;
  f->stats->wbuf_used = f->stats->wbuf_used - p->used_counted + used;
  p->used_counted = used;
}

int wbuf_alloc(struct ftl *f, struct wbuf_part *p, uint32_t n, uint32_t *slots_out) {
  struct wbuf *w = &f->wb;
  if (!w->space->alloc(f, p, n, slots_out)) return 0;
  count_used(f, p);
  f->stats->wbuf_inserts += n;
  f->stats->wbuf_used_at_insert += (uint64_t)n * (p->nslots - p->free_count);
  f->core[p->core]->stats->wbuf_inserts += n;
  return 1;
}

static void slot_free(struct ftl *f, uint32_t s) {
  struct wbuf_part *p = wbuf_part_of(f, s);
  f->wb.space->release(f, p, s);
  count_used(f, p);
}

/* The slot is no longer the newest copy of its LPA.  While a flush drains, a live one is
 * written anyway (it stays LIVE; its program completes without a map update, the index no
 * longer pointing at it): the flush may cover it and the newer copy arrived after the flush,
 * so dropping it would leave neither on flash when the flush completes. */
static void slot_supersede(struct ftl *f, uint32_t s) {
  struct wbuf *w = &f->wb;
  if (w->state[s] == SL_LIVE && f->flushes_draining) return;
  if (w->state[s] == SL_LIVE) {
    struct wbuf_part *p = wbuf_part_of(f, s);
    w->state[s] = SL_DEAD;        /* stays in the fifo; dropped when the drain reaches it */
    p->live_count--;
    p->q[w->queue[s]].live--;
  }
  /* SL_PROGRAMMING / SL_MAPPING: completion sees the hash no longer points here. */
}

void wbuf_commit_sector(struct ftl *f, uint32_t slot, uint32_t lpa, uint32_t req_nsect, uint32_t fdp_queue) {
  struct wbuf *w = &f->wb;
  struct wbuf_part *p = wbuf_part_of(f, slot);
  uint32_t old = wbuf_lookup(f, lpa);
  if (old != NONE32) slot_supersede(f, old);
  hash_put(w, lpa, slot);
  w->lpa[slot] = lpa;
  w->seq[slot] = next_version(f);
  w->state[slot] = SL_LIVE;
  w->queue[slot] = (uint8_t)place_queue_of_write(f, lpa, req_nsect, fdp_queue);
  struct wfifo *q = &p->q[w->queue[slot]];
  q->ring[(q->head + q->count) % p->nslots] = slot;
  q->count++;
  q->pushed++;
  q->live++;
  p->live_count++;
}

void wbuf_discard_lpa(struct ftl *f, uint32_t lpa) {
  struct wbuf *w = &f->wb;
  uint32_t old = wbuf_lookup(f, lpa);
  if (old == NONE32) return;
  slot_supersede(f, old);
  hash_del(w, lpa);
}

void wbuf_unpin(struct ftl *f, uint32_t slot) {
  struct wbuf *w = &f->wb;
  if (--w->pins[slot] == 0 && w->state[slot] == SL_DEAD && w->lpa[slot] == NONE32)
    slot_free(f, slot);
}

/* Pops the head of a region's fifo. */
static uint32_t fifo_pop(const struct wbuf_part *p, struct wfifo *q) {
  const uint32_t s = q->ring[q->head];
  q->head = (q->head + 1u) % p->nslots;
  q->count--;
  q->drained++;
  return s;
}

/* Drops dead slots at the head of a region's fifo (freeing them unless a host read holds
 * them). */
static void fifo_skip_dead(struct ftl *f, const struct wbuf_part *p, struct wfifo *q) {
  struct wbuf *w = &f->wb;
  if (w->space->writes_superseded) return;
  while (q->count && w->state[q->ring[q->head]] == SL_DEAD) {
    const uint32_t s = fifo_pop(p, q);
    w->lpa[s] = NONE32;           /* marks "left the fifo" for wbuf_unpin */
    if (w->pins[s] == 0) slot_free(f, s);
  }
}

uint32_t wbuf_queued(const struct wbuf_part *p) {
  uint32_t n = 0;
  for (uint32_t r = 0; r < p->queues; r++) n += p->q[r].count;
  return n;
}

int wbuf_drain_mode(struct ftl *f, struct wbuf_part *p) {
  if (f->flushes_draining && wbuf_queued(p)) return 2;
  return f->wb.space->drain_mode(f, p);
}

uint32_t drain_barrier_bytes(const struct ftl *f) {
  return f->ncores * (f->wb.queues > PLACE_REGIONS ? f->wb.queues : PLACE_REGIONS) * 4u;
}

void drain_barrier_begin(struct ftl *f, struct drain_barrier *b) {
  uint32_t *mark = b->drain_mark;
  for (uint32_t c = 0; c < f->ncores; c++)
    for (uint32_t r = 0; r < f->wb.queues; r++) *mark++ = f->core[c]->wb.q[r].pushed;
  b->draining = 1;
  f->flushes_draining++;
  f->progress++;                 /* every core's writer drains its part now */
}

static int drained_past(const struct ftl *f, const uint32_t *marks) {
  for (uint32_t c = 0; c < f->ncores; c++)
    for (uint32_t r = 0; r < f->wb.queues; r++)
      if ((int32_t)(f->core[c]->wb.q[r].drained - *marks++) < 0) return 0;
  return 1;
}

int drain_barrier_passed(struct ftl *f, struct drain_barrier *b) {
  if (b->draining) {             /* drained past the marks: then the programs issued until now */
    if (!drained_past(f, b->drain_mark)) return 0;
    b->draining = 0;
    f->flushes_draining--;
    b->barrier = f->prog_next;
  }
  return (int32_t)(f->prog_oldest - b->barrier) >= 0;
}

/* The pool takes the queue's superpages and has room for them: its stream's superblock is
 * open, or a free one beyond the host reserve (pick_pool's first test; its pace is the second). */
static int pool_has_room_for(struct ftl *f, uint32_t queue, uint32_t pool, int stream) {
  const struct pool_state *ps = &f->pool[pool];
  return place_queue_takes_pool(f, queue, pool) &&
         (ps->free_count > ps->host_reserve || blocks_stream_open(f, pool, stream) != NONE32);
}

/* ftl.check_pool_walk: the pools a resumed walk skips must still be skipped, and the pace of
 * those it would have asked must not change by asking (gc_pace_host_waits counts a wait when
 * it begins): a pool that could take host data again without pool_may_take_more is a firmware
 * bug that makes placement depend on when the walk ran. */
static void check_walk(struct ftl *f, uint32_t queue, int stream, uint32_t skip) {
  for (uint32_t j = 0; j < skip; j++) {
    const uint32_t q = (f->next_host_pool[queue] + j) % f->geo.pools;
    struct pool_state *ps = &f->pool[q];
    if (!pool_has_room_for(f, queue, q, stream)) continue;
    const uint32_t held = ps->pace.host_held;
    const uint64_t waits = f->stats->gc_pace_host_waits;
    if (!gc_pace_host_waits(f, q) || ps->pace.host_held != held || f->stats->gc_pace_host_waits != waits) {
      hal_puts("fw: the write buffer's resumed walk skipped a pool that could take host data\n");
      hal_halt(0x6C400000u | (q & 0xFFFFu));
    }
  }
}

/* Stripes a queue's superpages over its pools (its region's; an FDP queue's: its reclaim
 * group's) in a fixed order (by die: channel first, then way), so that where data lands does
 * not depend on timing: when the next pool's die already has its queue of programs (`limit`)
 * the data waits for it.  Only a pool without space (its GC has not freed a superblock yet) is
 * skipped, or one whose paced GC is behind its writes (gc/pacing.h).  A walk that stopped at a
 * pool whose die was busy is resumed there while nothing could have changed the pools it passed
 * over (struct pool_walk): on an aged drive most pools wait at their host reserve, and the
 * event loop asks again on every pass. */
static uint32_t pick_pool(struct ftl *f, uint32_t queue, uint32_t limit) {
  const uint32_t pools = f->geo.pools;
  const int stream = place_queue_stream(f, queue);
  struct pool_walk *walk = &f->walk[queue];
  uint32_t k = 0;
  if (walk->epoch == f->pool_epoch && walk->from == f->next_host_pool[queue]) k = walk->skip;
  if (k && f->cfg.check_pool_walk) check_walk(f, queue, stream, k);
  for (; k < pools; k++) {
    uint32_t q = (f->next_host_pool[queue] + k) % pools;
    struct pool_state *ps = &f->pool[q];
    if (!pool_has_room_for(f, queue, q, stream) || gc_pace_host_waits(f, q)) continue;
    if (f->die_progs[ps->die] >= limit) {
      walk->epoch = f->pool_epoch;
      walk->from = f->next_host_pool[queue];
      walk->skip = k;
      return NONE32;
    }
    f->next_host_pool[queue] = (q + 1u) % pools;
    return q;
  }
  f->blocked_epoch[queue] = f->space_epoch;
  return NONE32;
}

/* Where the head of `queue`'s fifo goes next, NONE32 if it must wait: a whole superpage
 * (want 0), or write-through's next `want` pages of a pool's open superpage (fewer where it
 * ends).  *planes gets the planes it covers.  A region whose superpages hold one group of data
 * each (placement.h: a unit of combo's MLC map) goes where the head sector's group writes, a
 * whole superpage always. */
static uint32_t next_superpage(struct ftl *f, const struct wbuf_part *p, uint32_t queue, uint32_t want,
                               uint32_t *planes) {
  *planes = f->geo.planes;
  const uint32_t region = place_queue_region(f, queue);
  const uint32_t fallback = place_full_region_fallback(f, region);   /* slc-direct: MLC (a queue
                                                                        is its region then) */
  if (f->blocked_epoch[queue] == f->space_epoch && fallback == NONE32) return NONE32;   /* nothing was freed since */
  uint32_t limit = f->cfg.die_prog_limit;
  if (f->cfg.sched == SSD_SCHED_ADAPTIVE && f->reads_active) limit = 1;
  if (place_groups_region(f, region)) {
    const struct wfifo *q = &p->q[queue];
    int busy;
    const uint32_t ppa = place_group_superpage(f, f->wb.lpa[q->ring[q->head]], limit, &busy);
    if (ppa == NONE32 && !busy) f->blocked_epoch[queue] = f->space_epoch;
    return ppa;
  }
  uint32_t pool = f->blocked_epoch[queue] == f->space_epoch ? NONE32 : pick_pool(f, queue, limit);
  if (pool == NONE32 && fallback != NONE32 && f->blocked_epoch[queue] == f->space_epoch &&
      f->blocked_epoch[fallback] != f->space_epoch)   /* the region is full, not just busy */
    pool = pick_pool(f, fallback, limit);
  if (pool == NONE32) return NONE32;
  return want ? blocks_next_pages(f, pool, want, planes) : blocks_next_superpage(f, pool, place_queue_stream(f, queue));
}

/* Takes up to `unit` live slots from the head of `queue`'s fifo into the program `op`,
 * dropping dead ones on the way; in a region that groups data, only the head's group (the
 * superpage is padded where the run of that group ends). */
static uint32_t take_slots(struct ftl *f, struct wbuf_part *p, uint32_t queue, struct fop *op, uint32_t unit) {
  struct wbuf *w = &f->wb;
  struct wfifo *q = &p->q[queue];
  const uint32_t region = place_queue_region(f, queue);
  const int grouped = place_groups_region(f, region);
  uint32_t n = 0, group = 0;
  while (n < unit && q->count) {
    const uint32_t s = q->ring[q->head];
    const int dead = w->state[s] == SL_DEAD;
    if (dead && !w->space->writes_superseded) {
      fifo_pop(p, q);
      w->lpa[s] = NONE32;
      if (w->pins[s] == 0) slot_free(f, s);
      continue;
    }
    if (grouped) {
      const uint32_t g = place_group_of(f, region, w->lpa[s]);
      if (n == 0) group = g;
      else if (g != group) break;
    }
    fifo_pop(p, q);
    w->state[s] = SL_PROGRAMMING;
    if (dead) f->stats->wbuf_superseded_written++;   /* on flash, never mapped */
    else {
      p->live_count--;
      q->live--;
    }
    op->slots[n] = s;
    op->sgl[n] = wbuf_slot_addr(f, s);
    op->oob[n].lpa = w->lpa[s];
    op->oob[n].seq = w->seq[s];
    f->write_seq++;
    n++;
  }
  return n;
}

void wbuf_pad(struct ftl *f, struct fop *op, uint32_t from, uint32_t to) {
  for (uint32_t n = from; n < to; n++) {
    op->slots[n] = NONE32;
    op->sgl[n] = f->zero_sector_addr;
    op->oob[n].lpa = NONE32;
    op->oob[n].seq = next_version(f);
    f->write_seq++;
    f->stats->pad_sectors++;
    f->stats->host_pad_sectors++;
  }
}

/* Entries of a region's fifo the writer would program: the live ones, or every one when
 * superseded entries are written too. */
static uint32_t fifo_ready(const struct wbuf *w, const struct wfifo *q) {
  return w->space->writes_superseded ? q->count : q->live;
}

/* Issues one superpage program when a full one is buffered (or, with force, any data is).
 * When the drive writes through (device.volatile_write_cache = false: every write completes
 * only on flash) a program covers only the pages that hold data, from the open superpage's
 * next free plane on: a 4 KiB write programs one plane's page, not a superpage padded to
 * every plane (ONFI programs a single plane; the page stays the smallest unit).
 * Returns 1 if it issued one. */
int wbuf_flush_step(struct ftl *f, struct wbuf_part *p, int force) {
  struct wbuf *w = &f->wb;
  const uint32_t unit = f->geo.unit;
  for (uint32_t r = 0; r < w->queues; r++) fifo_skip_dead(f, p, &p->q[r]);
  /* fifo_ready summed over the queues */
  const uint32_t ready = w->space->writes_superseded ? wbuf_queued(p) : p->live_count;
  if (ready == 0 || (ready < unit && !force)) return 0;
  if (!flash_can_submit(f)) return 0;
  if (f->demand && f->dm.upd_waiters >= f->dm.upd_limit) return 0;   /* map updates behind */
  /* The queues in turn, each when it has a superpage (or, with force, any data). */
  uint32_t ppa = NONE32, queue = 0, planes = 0;
  for (uint32_t k = 0; k < w->queues && ppa == NONE32; k++) {
    queue = (p->next_queue + k) % w->queues;
    const uint32_t live = fifo_ready(w, &p->q[queue]);
    if (live == 0 || (live < unit && !force)) continue;
    const uint32_t pages = (live + f->geo.spp - 1u) / f->geo.spp;
    const uint32_t want = !f->cfg.write_through || place_groups_region(f, place_queue_region(f, queue)) ? 0u
                          : pages < f->geo.planes ? pages : f->geo.planes;
    ppa = next_superpage(f, p, queue, want, &planes);
  }
  if (ppa == NONE32) return 0;
  p->next_queue = (queue + 1u) % w->queues;
  uint32_t tag = fop_alloc(f, FOP_HOST_PROG);
  struct fop *op = &f->fop[tag];
  op->host_slot = (uint16_t)p->core;   /* whose writer issued it */
  p->progs_inflight++;
  const uint32_t nsect = planes * f->geo.spp;   /* unit, or write-through's pages */
  uint32_t n = take_slots(f, p, queue, op, nsect);
  p->ring.inflight += n;          /* the ring gives them back in ring_release */
  if (f->pl.regions > 1) {         /* what was programmed, padding included, by where it went */
    if (f->pl.pool_region[sb_pool(f, ppa_sb(f, ppa))] == REGION_SLC) f->stats->host_slc_sectors += nsect;
    else f->stats->host_mlc_sectors += nsect;
  }
  if (nsect < unit) f->stats->wt_partial_programs++;
  wbuf_pad(f, op, n, nsect);   /* a partial superpage (flush), or write-through's last page */
  op->prog_id = f->prog_next++;
  f->core[p->core]->stats->programs++;
  f->prog_done[op->prog_id % FOP_MAX] = 0;
  sb_progs_inc(f, ppa_sb(f, ppa));
  f->die_progs[sb_die(f, ppa_sb(f, ppa))]++;
  f->stats->flash_prog_sectors += nsect;
  flash_submit(f, tag, SSD_FOP_PROGRAM, ppa, nsect, hal_dram_addr(op->sgl), hal_dram_addr(op->oob),
               SSD_FDF_SGL);
  return 1;
}

/* The slot's data is on flash and its mapping in place: reads stop finding it here. */
void wbuf_map_applied(struct ftl *f, uint32_t s) {
  struct wbuf *w = &f->wb;
  if (w->space->keeps_synced) {     /* readable from DRAM until the entry is reused */
    slot_free(f, s);
    return;
  }
  uint32_t lpa = w->lpa[s];
  if (wbuf_lookup(f, lpa) == s) hash_del(w, lpa);
  if (w->pins[s] == 0) slot_free(f, s);
  else { w->state[s] = SL_DEAD; w->lpa[s] = NONE32; }
}

void wbuf_forget(struct ftl *f, uint32_t s) {
  struct wbuf *w = &f->wb;
  if (w->state[s] != SL_SYNCED) return;
  if (wbuf_lookup(f, w->lpa[s]) == s) {
    hash_del(w, w->lpa[s]);
    f->stats->ring_l2p_updates++;
  }
  w->state[s] = SL_FREE;
}

/* A superpage of host data is on flash.  Each sector still the newest copy of its LPA is
 * mapped there; with a demand-based map that may wait for a translation page, and the slot
 * keeps serving reads (SL_MAPPING) until the mapping is in place. */
static void wbuf_program_done(struct ftl *f, uint32_t tag, const struct flash_result *r) {
  (void)r;
  struct wbuf *w = &f->wb;
  struct fop *op = &f->fop[tag];
  for (uint32_t i = 0; i < op->nsect; i++) {
    uint32_t s = op->slots[i];
    if (s == NONE32) continue;
    uint32_t lpa = w->lpa[s];
    if (wbuf_lookup(f, lpa) == s && !map_update(f, lpa, op->ppa + i, NONE32, s)) {
      w->state[s] = SL_MAPPING;
      continue;
    }
    wbuf_map_applied(f, s);
  }
  f->core[op->host_slot]->wb.progs_inflight--;
  f->prog_done[op->prog_id % FOP_MAX] = 1;
  while (f->prog_oldest != f->prog_next && f->prog_done[f->prog_oldest % FOP_MAX]) f->prog_oldest++;
  sb_progs_dec(f, ppa_sb(f, op->ppa));
  f->die_progs[op->die]--;
  const uint32_t pool = sb_pool(f, ppa_sb(f, op->ppa));
  for (uint32_t q = 0; q < w->queues; q++)   /* it can take data again */
    if (place_queue_takes_pool(f, q, pool)) f->blocked_epoch[q] = NONE32;
  fop_release(f, tag);
}

int wbuf_idle(struct ftl *f, struct wbuf_part *p) { return f->wb.space->idle ? f->wb.space->idle(f, p) : 0; }

static const struct flash_owner wbuf_program_owner = {SSD_FRSN_HOST, SSD_FST_PROGRAM_FAIL, wbuf_program_done,
                                                      program_failed};
