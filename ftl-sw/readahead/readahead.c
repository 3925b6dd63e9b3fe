/* Read-ahead policies, the prediction queue and its flash reads: see readahead.h. */
#include "core/ftl.h"
#include "hal/hal.h"

/* ---- predictions */

/* The analyser's prediction (dtree, dtree-lru). */
static int dtree_note(struct ftl *f, uint32_t lba, uint32_t nsect, uint32_t *lpa, uint32_t *count) {
  struct readahead *ra = &f->ra;
  struct ssd_fw_stats *st = f->stats;
  const uint32_t item = ra->item_sectors;
  const uint32_t first = lba / item, last = (lba + nsect - 1u) / item;
  pt_note(&ra->pt, first, last - first + 1u);
  st->ra_tree_nodes = ra->pt.used;
  st->ra_tree_nodes_max = ra->pt.used_max;
  st->ra_tree_drops = ra->pt.drops;
  uint32_t addr, len;
  int sequential;
  if (!pt_predict(&ra->pt, &addr, &len, &sequential)) return 0;
  if (sequential) st->ra_predictions_seq++;
  else st->ra_predictions_tree++;
  *lpa = addr * item;
  *count = len * item;
  return 1;
}

/* Next-N: once a stream has continued `seq_trigger` times in a row, keep `seq_window`
 * sectors read ahead of it, topped up when less than half of it is left. */
static int seq_note(struct ftl *f, uint32_t lba, uint32_t nsect, uint32_t *lpa, uint32_t *count) {
  struct readahead *ra = &f->ra;
  const uint32_t window = f->cfg.seq_window_sectors;
  if (lba == ra->seq_end) {
    ra->seq_count++;
  } else {
    ra->seq_count = 0;
    ra->seq_ahead = 0;
  }
  ra->seq_end = lba + nsect;
  if (ra->seq_count < f->cfg.seq_trigger) return 0;
  if (ra->seq_ahead > ra->seq_end + window / 2u) return 0;
  uint32_t from = ra->seq_ahead > ra->seq_end ? ra->seq_ahead : ra->seq_end;
  ra->seq_ahead = ra->seq_end + window;
  *lpa = from;
  *count = ra->seq_ahead - from;
  f->stats->ra_predictions_seq++;
  return 1;
}

static const struct ra_policy ra_policies[] = {
    [SSD_RA_LRU] = {"lru", 1, 0, 0},
    [SSD_RA_DTREE] = {"dtree", 0, 1, dtree_note},
    [SSD_RA_DTREE_LRU] = {"dtree-lru", 1, 0, dtree_note},
    [SSD_RA_SEQ] = {"seq", 0, 0, seq_note},
};

/* Prefetches' flash completions (core/flash_port.h). */
static const struct flash_owner prefetch_owner;

void ra_init(struct ftl *f) {
  flash_register(f, FOP_PREFETCH, &prefetch_owner);
  struct readahead *ra = &f->ra;
  const struct ssd_fw_config *c = &f->cfg;
  if (c->readahead == SSD_RA_NONE) return;
  if (c->readahead > SSD_RA_SEQ || c->rc_sectors == 0 || c->item_sectors == 0 ||
      c->item_sectors > c->rc_sectors) {
    hal_puts("fw: read-ahead configuration out of range\n");
    hal_halt(0xAD000001u);
    return;
  }
  ra->policy = &ra_policies[c->readahead];
  ra->item_sectors = c->item_sectors;
  uint32_t heap_before = f->heap.used;
  rc_init(f, c->rc_sectors);
  f->stats->ra_cache_sectors = c->rc_sectors;
  f->stats->ra_cache_bytes = f->heap.used - heap_before;
  if (ra->policy->note_read == dtree_note) {
    uint32_t nodes = pt_nodes_for(c->pt_bytes);
    if (c->pt_branches == 0 || c->pt_depth == 0 || c->pt_depth > nodes || c->pt_branches > nodes) {
      hal_puts("fw: pattern analyser does not fit its memory budget\n");
      hal_halt(0xAD000002u);
      return;
    }
    uint32_t bytes = pt_bytes_for(nodes);
    const uint32_t tree_before = f->heap.used;
    void *mem = fw_alloc(f, bytes, 64);
    pt_init(&ra->pt, mem, bytes, c->pt_branches, c->pt_depth, c->pt_seq_run, c->pt_min_repeats);
    f->stats->ra_tree_bytes = f->heap.used - tree_before;   /* what the heap gave it, alignment too */
    f->stats->ra_tree_node_capacity = ra->pt.nnodes;
  }
  const struct ftl_geo *g = &f->geo;
  ra->q_head = fw_alloc(f, g->dies * 4u, 16);
  ra->q_tail = fw_alloc(f, g->dies * 4u, 16);
  ra->die_pf = fw_alloc(f, g->dies, 16);
  ra->die_wait_t0 = fw_alloc(f, g->dies * 8u, 16);
  ra->pf_sgl = fw_alloc(f, g->dies * g->spp * 4u, 16);
  ra->pf_entry = fw_alloc(f, g->dies * g->spp * 4u, 16);
  for (uint32_t d = 0; d < g->dies; d++) {
    ra->q_head[d] = ra->q_tail[d] = NONE32;
    ra->die_pf[d] = 0;
    ra->die_wait_t0[d] = 0;
  }
}

void ra_note_read(struct ftl *f, uint32_t lba, uint32_t nsect) {
  struct readahead *ra = &f->ra;
  if (!ra->policy->note_read) return;
  ra->want = (uint8_t)ra->policy->note_read(f, lba, nsect, &ra->want_lpa, &ra->want_nsect);
}

/* ---- the queue of sectors to read ahead */

static void queue_push(struct readahead *ra, uint32_t die, uint32_t i) {
  ra->rc.e[i].qnext = NONE32;
  ra->rc.e[i].qdie = die;
  ra->rc.e[i].flags |= RC_QUEUED;
  if (ra->q_tail[die] == NONE32) ra->q_head[die] = i;
  else ra->rc.e[ra->q_tail[die]].qnext = i;
  ra->q_tail[die] = i;
  ra->queued++;
}

static void queue_pop(struct readahead *ra, uint32_t die) {
  uint32_t i = ra->q_head[die];
  ra->q_head[die] = ra->rc.e[i].qnext;
  if (ra->q_head[die] == NONE32) ra->q_tail[die] = NONE32;
  ra->rc.e[i].flags &= (uint8_t)~RC_QUEUED;
  ra->queued--;
}

void ra_take_queued(struct ftl *f, uint32_t i) {
  struct readahead *ra = &f->ra;
  struct rc_entry *e = &ra->rc.e[i];
  uint32_t *link = &ra->q_head[e->qdie], prev = NONE32;
  while (*link != i) {
    prev = *link;
    link = &ra->rc.e[*link].qnext;
  }
  *link = e->qnext;
  if (ra->q_tail[e->qdie] == i) ra->q_tail[e->qdie] = prev;
  e->flags &= (uint8_t)~(RC_QUEUED | RC_PREFETCHED);
  ra->queued--;
  f->stats->ra_prefetch_cancelled++;
}

/* Where lpa's data is on flash if it should be read ahead now, else NONE32 and, in *buffered
 * (if given), whether that is because the write buffer serves it (or a trim of it is pending)
 * rather than its translation page not being cached. */
static uint32_t readable_ppa(struct ftl *f, uint32_t lpa, int *buffered) {
  const int in_buffer = wbuf_lookup(f, lpa) != NONE32 || hcmd_trim_pending(f, lpa);
  if (buffered) *buffered = in_buffer;
  if (in_buffer) return NONE32;
  uint32_t ppa = map_lookup(f, lpa, 0);
  if (ppa == MAP_MISS) {
    f->stats->ra_skipped_map_miss++;
    return NONE32;
  }
  return ppa;
}

/* Gives the current prediction's waiting sectors cache entries, in order, while an entry is
 * to be had; with every entry pinned (a host read as large as the cache holds them all until
 * its data has gone out) the rest waits for the entries to come back (ra_prefetch_step). */
static int place_prediction(struct ftl *f) {
  struct readahead *ra = &f->ra;
  struct read_cache *rc = &ra->rc;
  int n = 0;
  for (; ra->pend_nsect; ra->pend_lpa++, ra->pend_nsect--) {
    const uint32_t lpa = ra->pend_lpa;
    uint32_t i = rc_lookup(rc, lpa);
    if (i != NONE32) {           /* cached, being read, or queued: still part of it */
      rc->e[i].gen = ra->gen;
      f->stats->ra_pred_cached_sectors++;
      continue;
    }
    int buffered;
    uint32_t ppa = readable_ppa(f, lpa, &buffered);
    if (ppa == NONE32) {         /* the buffer serves it, or its translation page is not cached */
      if (buffered) f->stats->ra_pred_buffered_sectors++;
      else f->stats->ra_pred_map_miss_sectors++;
      continue;
    }
    i = rc_alloc(f, lpa, RC_PREFETCHED);
    if (i == NONE32) {           /* every entry is pinned: the rest waits */
      if (!ra->pend_waited) f->stats->ra_waited_for_room++;
      ra->pend_waited = 1;
      break;
    }
    queue_push(ra, sb_die(f, ppa_sb(f, ppa)), i);
    f->stats->ra_pred_queued_sectors++;
    n++;
  }
  f->stats->ra_pending_sectors = ra->pend_nsect;
  return n;
}

void ra_read_sent(struct ftl *f) {
  struct readahead *ra = &f->ra;
  struct read_cache *rc = &ra->rc;
  if (!ra->want) return;
  ra->want = 0;
  /* What the last prediction never got room for goes (this one replaces it). */
  f->stats->ra_dropped_no_room_sectors += ra->pend_nsect;
  ra->pend_nsect = 0;
  ra->pend_waited = 0;
  f->stats->ra_pending_sectors = 0;
  uint32_t lpa = ra->want_lpa, n = ra->want_nsect;
  f->stats->ra_predicted_sectors += n;
  if (lpa >= f->geo.logical_sectors) {
    f->stats->ra_dropped_beyond_end_sectors += n;
    return;
  }
  if (n > f->geo.logical_sectors - lpa) {
    f->stats->ra_dropped_beyond_end_sectors += n - (f->geo.logical_sectors - lpa);
    n = f->geo.logical_sectors - lpa;
  }
  /* At most half the cache, so that the host's own reads still find entries. */
  const uint32_t cap = rc->n / 2u ? rc->n / 2u : 1u;
  if (n > cap) {
    f->stats->ra_dropped_half_cache_sectors += n - cap;
    n = cap;
  }
  if (ra->policy->replace) ra->gen++;
  ra->pend_lpa = lpa;
  ra->pend_nsect = n;
  place_prediction(f);
  if (ra->policy->replace) {
    /* The unread sectors of earlier predictions go (in flight: when they land). */
    for (uint32_t i = rc->lru_head; i != NONE32;) {
      uint32_t next = rc->e[i].next;
      if ((rc->e[i].flags & RC_PREFETCHED) && rc->e[i].gen != ra->gen) rc_drop(f, i);
      i = next;
    }
  }
}

void ra_host_read_submitted(struct ftl *f, uint32_t die) {
  struct readahead *ra = &f->ra;
  if (ra->die_pf[die] && ra->die_wait_t0[die] == 0) {
    ra->die_wait_t0[die] = hal_now_ns() | 1u;
    f->stats->ra_reads_behind_prefetch++;
  }
}

void ra_invalidate(struct ftl *f, uint32_t lpa, uint32_t n) { rc_invalidate(f, lpa, n); }

/* A queued entry that should not be read any more: invalidated, or (replacing policies)
 * of an earlier prediction.  (No host read waits for a queued entry: ra_take_queued.) */
static int queued_entry_dead(const struct readahead *ra, const struct rc_entry *e) {
  return (e->flags & RC_STALE) || (ra->policy->replace && e->gen != ra->gen);
}

int ra_prefetch_step(struct ftl *f) {
  struct readahead *ra = &f->ra;
  struct read_cache *rc = &ra->rc;
  const struct ftl_geo *g = &f->geo;
  int n = ra->pend_nsect ? place_prediction(f) : 0;
  for (uint32_t die = 0; die < g->dies && ra->queued; die++) {
    /* Only to an idle die: a host read sent there next waits for this one read at most. */
    if (ra->q_head[die] == NONE32 || f->die_ops[die]) continue;
    if (!flash_can_submit(f)) break;
    uint32_t *sgl = &ra->pf_sgl[die * g->spp], *ent = &ra->pf_entry[die * g->spp];
    uint32_t cnt = 0, first = NONE32, prev = NONE32;
    /* One descriptor: the queue's head sectors that follow each other in one page. */
    for (uint32_t i; (i = ra->q_head[die]) != NONE32 && cnt < g->spp;) {
      struct rc_entry *e = &rc->e[i];
      uint32_t ppa = queued_entry_dead(ra, e) ? NONE32 : readable_ppa(f, e->lpa, 0);
      if (ppa == NONE32) {
        queue_pop(ra, die);
        e->flags &= (uint8_t)~RC_PREFETCHED;   /* never read: not a wasted flash read */
        f->stats->ra_prefetch_cancelled++;
        rc_fill_done(f, i, SSD_FST_UNCORRECTABLE, 0);
        n++;
        continue;
      }
      if (cnt && (ppa != prev + 1u || ppa % g->spp == 0)) break;
      if (!cnt) first = ppa;
      queue_pop(ra, die);
      sgl[cnt] = rc_addr(rc, i);
      ent[cnt++] = i;
      prev = ppa;
    }
    if (!cnt) continue;
    uint32_t tag = fop_alloc(f, FOP_PREFETCH);
    f->fop[tag].gc_index = die;
    flash_submit(f, tag, SSD_FOP_READ, first, cnt, hal_dram_addr(sgl), 0, SSD_FDF_SGL);
    ra->die_pf[die] = 1;
    f->stats->ra_prefetch_sectors += cnt;
    n++;
  }
  return n;
}

static void ra_prefetch_done(struct ftl *f, uint32_t tag, const struct flash_result *r) {
  const uint16_t status = r->status;
  const uint64_t t_done = r->t_done;
  struct readahead *ra = &f->ra;
  const uint32_t die = f->fop[tag].gc_index, cnt = f->fop[tag].nsect;
  const uint32_t *ent = &ra->pf_entry[die * f->geo.spp];
  for (uint32_t k = 0; k < cnt; k++) {
    struct rc_entry *e = &ra->rc.e[ent[k]];
    int keep = !(ra->policy->replace && e->gen != ra->gen && e->waiters == NONE32);
    rc_fill_done(f, ent[k], status, keep);
  }
  ra->die_pf[die] = 0;
  if (ra->die_wait_t0[die]) {
    uint64_t t0 = ra->die_wait_t0[die] & ~1ull;
    uint64_t delay = t_done > t0 ? t_done - t0 : 0;
    struct ssd_fw_stats *st = f->stats;
    st->ra_prefetch_delay_sum_ns += delay;
    if (delay > st->ra_prefetch_delay_max_ns) st->ra_prefetch_delay_max_ns = (uint32_t)delay;
    ra->die_wait_t0[die] = 0;
  }
  fop_release(f, tag);
}

static const struct flash_owner prefetch_owner = {SSD_FRSN_PREFETCH, 0, ra_prefetch_done, 0};
