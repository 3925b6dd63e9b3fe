/* Demand-based mapping (DFTL and the PTSD schemes): the whole map lives in translation pages
 * on flash (TP_ENTRIES 4-byte entries per 4 KiB page), found through the global translation
 * directory (GTD) in DRAM; a cached mapping table (CMT) holds whole translation pages in DRAM.
 *
 *  dftl        one region, one LRU; a miss takes the LRU page's slot and, if that page is
 *              dirty, writes it back first: a host read can wait for a translation write.
 *  part        a clean region and a dirty region, each its own LRU (cmt_clean_permille).  A
 *              read miss loads into the clean region and evicts only clean pages: a read
 *              never causes a flash write.  An update that hits a clean page moves it to the
 *              dirty region (writing that region's LRU page back first if it is full); an
 *              update that misses loads into the dirty region.
 *  writeopt,   the clean region as in part; dirty mappings are entries, not pages
 *  adaptive    (map/dirty_entries.c).
 *
 * Everything that needs a translation page not in DRAM waits on a "load": a record per page
 * with the waiters (host reads to restart, map updates to apply) in arrival order; updates of
 * one page are applied in the order they were made.  Translation pages are programmed in
 * their own superblocks (STREAM_MAP), a superpage at a time (pages of several evictions
 * share one program), with MAP_BIT | page in the OOB; GC cleans translation blocks like data
 * blocks and moves the GTD (dmap_page_placed).
 * After a power cut the GTD and the pages are rebuilt from a scan (recovery/map_rebuild.c).
 * Leaves out: the reverse map stays in DRAM as GC's valid-page table (a real DFTL keeps a bitmap and reads
 * the LPA from the OOB). */
#include "core/ftl.h"
#include "hal/hal.h"

#define LF_PAYLOAD (SSD_FDF_PAYLOAD)
#define LF_DIRTY   0x80u   /* map_load.flags: the page it moved was dirty */

uint32_t *dmap_slot_page(struct ftl *f, uint32_t slot) {
  return hal_dram_ptr(f->dm.slot_base + slot * SECTOR_BYTES);
}

static int entry_mode(const struct ftl *f) { return f->cfg.mapping >= SSD_MAP_WRITEOPT; }

/* ------------------------------------------------------------------ LRU lists per region */
static void lru_remove(struct dmap *d, uint32_t s) {
  struct tp_slot *t = &d->slot[s];
  struct cache_region *r = &d->reg[t->region];
  if (t->prev != NONE32) d->slot[t->prev].next = t->next;
  else r->lru_head = t->next;
  if (t->next != NONE32) d->slot[t->next].prev = t->prev;
  else r->lru_tail = t->prev;
  t->prev = t->next = NONE32;
}

static void lru_push(struct dmap *d, uint32_t s) {
  struct tp_slot *t = &d->slot[s];
  struct cache_region *r = &d->reg[t->region];
  t->prev = NONE32;
  t->next = r->lru_head;
  if (r->lru_head != NONE32) d->slot[r->lru_head].prev = s;
  else r->lru_tail = s;
  r->lru_head = s;
}

static void lru_touch(struct dmap *d, uint32_t s) {
  if (d->reg[d->slot[s].region].lru_head == s) return;
  lru_remove(d, s);
  lru_push(d, s);
}

/* ------------------------------------------------------------------ records */
/* Waiters: updates and trims count toward the flow-control limit, reads do not. */
uint32_t dmap_waiter_new(struct ftl *f, uint8_t kind, uint32_t lpa, uint32_t ppa, uint32_t cond, uint32_t cookie) {
  struct dmap *d = &f->dm;
  uint32_t w = d->w_free;
  if (w == NONE32) {
    hal_puts("fw: mapping waiters exhausted\n");
    hal_halt(0x3A900001u);
  }
  d->w_free = d->w[w].next;
  d->w[w].next = NONE32;
  if (kind != WK_READ) d->upd_waiters++;
  d->w[w].kind = kind;
  d->w[w].lpa = lpa;
  d->w[w].ppa = ppa;
  d->w[w].cond = cond;
  d->w[w].cookie = cookie;
  return w;
}

void dmap_waiter_free(struct dmap *d, uint32_t w) {
  if (d->w[w].kind != WK_READ) d->upd_waiters--;
  d->w[w].kind = 0;
  d->w[w].next = d->w_free;
  d->w_free = w;
}

static void load_add_waiter(struct dmap *d, uint32_t l, uint32_t w) {
  struct map_load *ld = &d->load[l];
  d->w[w].next = NONE32;
  if (ld->wlast == NONE32) ld->wfirst = w;
  else d->w[ld->wlast].next = w;
  ld->wlast = w;
}

static void ready_push(struct dmap *d, uint32_t l) {
  d->load[l].state = LD_READY;
  d->load[l].next = NONE32;
  if (d->ready_tail == NONE32) d->ready_head = l;
  else d->load[d->ready_tail].next = l;
  d->ready_tail = l;
}

static void region_wait_push(struct dmap *d, uint32_t l) {
  struct cache_region *r = &d->reg[d->load[l].region];
  d->load[l].state = LD_WAIT_SLOT;
  d->load[l].next = NONE32;
  if (r->wait_tail == NONE32) r->wait_head = l;
  else d->load[r->wait_tail].next = l;
  r->wait_tail = l;
}

static void region_wait_remove(struct dmap *d, uint32_t l) {
  struct cache_region *r = &d->reg[d->load[l].region];
  uint32_t prev = NONE32;
  for (uint32_t x = r->wait_head; x != NONE32; prev = x, x = d->load[x].next) {
    if (x != l) continue;
    if (prev == NONE32) r->wait_head = d->load[x].next;
    else d->load[prev].next = d->load[x].next;
    if (r->wait_tail == x) r->wait_tail = prev;
    return;
  }
}

/* ------------------------------------------------------------------ slots */
static void slot_release(struct ftl *f, uint32_t s) {
  struct dmap *d = &f->dm;
  struct tp_slot *t = &d->slot[s];
  if (d->tp_where[t->tp] == s) d->tp_where[t->tp] = NONE32;
  d->reg[t->region].count--;
  if (t->state == TPS_WRITING && t->region != REG_BATCH) d->reg[t->region].writing--;
  t->state = TPS_FREE;
  t->pinned = 0;
  d->free_slots[d->nfree++] = s;
}

/* Starts writing a dirty resident page back; its slot stays readable until the program is
 * done, then it is freed. */
static void write_back(struct ftl *f, uint32_t s) {
  struct dmap *d = &f->dm;
  struct tp_slot *t = &d->slot[s];
  lru_remove(d, s);
  t->state = TPS_WRITING;
  d->reg[t->region].writing++;
  d->tp_writing[t->tp] = 1;
  f->stats->tp_dirty_evictions++;
  dmap_queue_write(f, s);
}

/* Evicts the LRU page of a region: a clean one is dropped (EVICT_DROPPED: its quota is free
 * now), a dirty one starts its write-back (EVICT_WRITING); EVICT_NONE: nothing evictable. */
enum { EVICT_NONE, EVICT_DROPPED, EVICT_WRITING };
static int evict_lru(struct ftl *f, uint32_t region) {
  struct dmap *d = &f->dm;
  uint32_t v = d->reg[region].lru_tail;
  if (v == NONE32) return EVICT_NONE;
  if (d->slot[v].state == TPS_CLEAN) {
    lru_remove(d, v);
    slot_release(f, v);
    return EVICT_DROPPED;
  }
  write_back(f, v);
  return EVICT_WRITING;
}

/* A slot under region r's quota: a free one, a clean LRU page dropped, or NONE32 (a dirty LRU
 * page is being written back for it, or every slot is busy).  *wrote: a write-back started. */
static uint32_t slot_acquire(struct ftl *f, uint32_t region, int *wrote) {
  struct dmap *d = &f->dm;
  struct cache_region *r = &d->reg[region];
  for (;;) {
    if (r->count < r->cap && d->nfree > 0) {
      uint32_t s = d->free_slots[--d->nfree];
      r->count++;
      d->slot[s].region = (uint8_t)region;
      d->slot[s].prev = d->slot[s].next = NONE32;
      return s;
    }
    uint32_t vr = region;
    if (r->count < r->cap) {
      /* Under quota but no buffer free: another region is over its quota (the adaptive split
       * moved): take from it. */
      vr = NONE32;
      for (uint32_t x = 0; x < 3; x++)
        if (d->reg[x].count > d->reg[x].cap && d->reg[x].lru_tail != NONE32) vr = x;
      if (vr == NONE32) return NONE32;
    }
    const int e = evict_lru(f, vr);
    if (e == EVICT_DROPPED) continue;
    if (e == EVICT_WRITING) *wrote = 1;
    return NONE32;
  }
}

/* ------------------------------------------------------------------ loads */
static void load_submit(struct ftl *f, uint32_t l) {
  struct dmap *d = &f->dm;
  struct map_load *ld = &d->load[l];
  if (!flash_can_submit(f)) {
    ld->state = LD_WAIT_SUBMIT;
    ld->next = d->submit_wait;
    d->submit_wait = l;
    return;
  }
  uint32_t ppa = d->gtd[ld->tp];
  uint32_t die = sb_die(f, ppa_sb(f, ppa));
  if (die_gc_busy(f, die)) ld->flags |= SSD_CPLI_GC;
  uint32_t tag = fop_alloc(f, FOP_MAP_READ);
  f->fop[tag].gc_index = l;
  ld->state = LD_READING;
  f->stats->tp_reads++;
  flash_submit(f, tag, SSD_FOP_READ, ppa, 1, d->slot_base + ld->slot * SECTOR_BYTES, 0, LF_PAYLOAD);
}

/* Gives load l its slot (or moves the resident page into l's region); NONE32-returning
 * acquisitions leave it waiting on the region. */
static void load_grant(struct ftl *f, uint32_t l) {
  struct dmap *d = &f->dm;
  struct map_load *ld = &d->load[l];
  uint32_t tp = ld->tp;
  uint32_t cur = d->tp_where[tp];
  int wrote = 0;
  if (ld->kind == LK_PAGE && cur != NONE32 && (d->slot[cur].state == TPS_CLEAN || d->slot[cur].state == TPS_DIRTY) &&
      !d->slot[cur].pinned) {
    /* Resident in another region: a move, quota only.  The page is held out of the LRU (as
     * loading) until the load finishes, so nothing evicts it in between. */
    struct cache_region *r = &d->reg[ld->region];
    if (d->slot[cur].region != ld->region) {
      while (r->count >= r->cap) {
        if (evict_lru(f, ld->region) == EVICT_DROPPED) continue;
        ld->flags |= SSD_CPLI_MAP_WRITE;   /* a write-back of this region frees the quota */
        region_wait_push(d, l);
        return;
      }
    }
    lru_remove(d, cur);
    if (d->slot[cur].state == TPS_DIRTY) ld->flags |= LF_DIRTY;
    d->slot[cur].state = TPS_LOADING;
    d->reg[d->slot[cur].region].count--;
    d->slot[cur].region = ld->region;
    r->count++;
    ld->slot = cur;
    ready_push(d, l);
    return;
  }
  uint32_t s = slot_acquire(f, ld->region, &wrote);
  if (s == NONE32) {
    /* Waiting for a slot: for a translation write if one is under way in the region (reads
     * in part and later never are: their region holds clean pages only). */
    if (wrote || d->reg[ld->region].writing) ld->flags |= SSD_CPLI_MAP_WRITE;
    region_wait_push(d, l);
    return;
  }
  struct tp_slot *t = &d->slot[s];
  t->tp = tp;
  t->state = TPS_LOADING;
  t->pinned = 0;
  d->tp_where[tp] = s;
  ld->slot = s;
  if (d->gtd[tp] == NONE32) {          /* never written: every entry unmapped */
    uint32_t *pg = dmap_slot_page(f, s);
    for (uint32_t i = 0; i < TP_ENTRIES; i++) pg[i] = NONE32;
    ready_push(d, l);
    return;
  }
  load_submit(f, l);
}

static uint32_t load_start(struct ftl *f, uint32_t tp, uint32_t region, uint8_t kind) {
  struct dmap *d = &f->dm;
  uint32_t l = d->load_free;
  if (l == NONE32) {
    hal_puts("fw: mapping loads exhausted\n");
    hal_halt(0x3A900002u);
  }
  d->load_free = d->load[l].next;
  struct map_load *ld = &d->load[l];
  ld->tp = tp;
  ld->region = (uint8_t)region;
  ld->kind = kind;
  ld->flags = 0;
  ld->slot = NONE32;
  ld->wfirst = ld->wlast = NONE32;
  ld->next = NONE32;
  d->tp_load[tp] = l;
  if (d->tp_writing[tp] && kind == LK_PAGE && !(d->tp_where[tp] != NONE32 && d->slot[d->tp_where[tp]].pinned)) {
    ld->state = LD_WAIT_WRITE;       /* reading the GTD location now would get the old page */
    ld->flags |= SSD_CPLI_MAP_WRITE;
    return l;
  }
  load_grant(f, l);
  return l;
}

static uint32_t load_get(struct ftl *f, uint32_t tp, uint32_t region) {
  uint32_t l = f->dm.tp_load[tp];
  return l != NONE32 ? l : load_start(f, tp, region, LK_PAGE);
}

void dmap_load_for_read(struct ftl *f, uint32_t tp, uint16_t host_slot) {
  struct dmap *d = &f->dm;
  uint32_t l = d->tp_load[tp];
  if (l == NONE32) {
    l = load_start(f, tp, REG_CLEAN, LK_PAGE);
  } else if (f->cfg.mapping != SSD_MAP_DFTL && d->load[l].state == LD_WAIT_SLOT &&
             d->load[l].region == REG_DIRTY) {
    /* An update's load waits for a dirty page to be written back: a read must not wait for
     * that; load the page into the clean region instead (the update follows it there and
     * moves it when the dirty region has room). */
    region_wait_remove(d, l);
    d->load[l].region = REG_CLEAN;
    d->load[l].flags &= (uint8_t)~SSD_CPLI_MAP_WRITE;
    load_grant(f, l);
  }
  /* A write the load already waited for before this read joined is not this read's wait
   * (cond: the mask of the load's flags the read takes). */
  const uint8_t st = d->load[l].state;
  const uint32_t mask = st == LD_WAIT_SLOT || st == LD_WAIT_WRITE ? 0xFFu : (uint8_t)~SSD_CPLI_MAP_WRITE;
  load_add_waiter(d, l, dmap_waiter_new(f, WK_READ, 0, 0, mask, host_slot));
  f->hc[host_slot].map_pending++;
  f->hc[host_slot].waited |= SSD_CPLI_MAP_READ;
  if (entry_mode(f)) adapt_note_read_miss(f);
}

/* A slot of `region` was freed: the oldest load waiting for one there tries again. */
void dmap_slot_grant(struct ftl *f, uint32_t region) {
  struct dmap *d = &f->dm;
  struct cache_region *r = &d->reg[region];
  while (r->wait_head != NONE32 && (r->count < r->cap || r->lru_tail != NONE32)) {
    uint32_t l = r->wait_head;
    r->wait_head = d->load[l].next;
    if (r->wait_head == NONE32) r->wait_tail = NONE32;
    load_grant(f, l);
    if (d->load[l].state == LD_WAIT_SLOT) break;   /* went back to the end: stop */
  }
}

void dmap_resume_update(struct ftl *f, uint32_t w) {
  struct dmap *d = &f->dm;
  struct map_waiter mw = d->w[w];
  dmap_waiter_free(d, w);
  if (mw.kind == WK_TRIM) {
    if (dmap_trim(f, mw.lpa, mw.ppa, mw.cookie) && mw.cookie != NONE32) hcmd_trim_done(f, (uint16_t)mw.cookie);
  } else if (dmap_update(f, mw.lpa, mw.ppa, mw.cond, mw.cookie) && mw.cookie != NONE32) wbuf_map_applied(f, mw.cookie);
}


/* A load is in: the page becomes resident, then its waiters run in order. */
static void load_finish(struct ftl *f, uint32_t l) {
  struct dmap *d = &f->dm;
  struct map_load *ld = &d->load[l];
  uint32_t tp = ld->tp;
  if (d->tp_load[tp] == l) d->tp_load[tp] = NONE32;
  if (ld->kind == LK_BATCH) {
    dent_batch_loaded(f, l);
  } else {
    struct tp_slot *t = &d->slot[ld->slot];
    t->state = (ld->flags & LF_DIRTY) ? TPS_DIRTY : TPS_CLEAN;
    lru_push(d, ld->slot);
  }
  uint32_t w = ld->wfirst;
  uint8_t flags = ld->flags & 0x0Fu;
  ld->state = LD_FREE;
  ld->next = d->load_free;
  d->load_free = l;
  while (w != NONE32) {
    uint32_t next = d->w[w].next;
    if (d->w[w].kind != WK_READ) {
      dmap_resume_update(f, w);
    } else {
      uint16_t slot = (uint16_t)d->w[w].cookie;
      uint8_t mask = (uint8_t)d->w[w].cond;
      dmap_waiter_free(d, w);
      f->hc[slot].waited |= flags & mask;
      if (--f->hc[slot].map_pending == 0) hcmd_map_ready(f, slot);
    }
    w = next;
  }
  /* A page just became resident (evictable): loads waiting for a slot try again. */
  for (uint32_t r = 0; r < 3; r++)
    if (d->reg[r].wait_head != NONE32) dmap_slot_grant(f, r);
}

void dmap_read_done(struct ftl *f, uint32_t tag) {
  uint32_t l = f->fop[tag].gc_index;
  fop_release(f, tag);
  load_finish(f, l);
}

/* ------------------------------------------------------------------ translation page writes */
void dmap_queue_write(struct ftl *f, uint32_t slot) {
  struct dmap *d = &f->dm;
  d->wq[(d->wq_head + d->wq_count) % d->wq_size] = slot;
  d->wq_count++;
}

/* The GTD entry of translation page tp moves to ppa (only if it is at cond: GC copies). */
void dmap_page_placed(struct ftl *f, uint32_t tp, uint32_t ppa, uint32_t cond) {
  struct dmap *d = &f->dm;
  if (cond != NONE32 && d->gtd[tp] != cond) return;   /* a newer copy exists: ppa stays invalid */
  if (d->gtd[tp] != NONE32) map_invalidate(f, d->gtd[tp]);
  d->gtd[tp] = ppa;
  f->p2l[ppa] = MAP_BIT | tp;
  sb_valid_inc(f, ppa_sb(f, ppa));
}

int dmap_writer_step(struct ftl *f) {
  struct dmap *d = &f->dm;
  const struct ftl_geo *g = &f->geo;
  int n = 0;
  while (d->wq_count && flash_can_submit(f)) {
    /* A die's last free superblock is left to its GC while GC runs there (its copies need it):
     * always if another die can take the page, else while the victim's data does not fit GC's
     * open superblock; recovery's rewrite (tp_reserve 1) leaves it in any case. */
    const uint32_t ppa = blocks_next_map_superpage(f, &d->next_map_die, d->tp_reserve);
    if (ppa == NONE32) break;          /* no die has space: GC frees some */
    uint32_t tag = fop_alloc(f, FOP_MAP_PROG);
    struct fop *op = &f->fop[tag];
    for (uint32_t k = 0; k < g->unit; k++) {
      op->oob[k].seq = next_version(f);
      f->write_seq++;
      if (d->wq_count) {
        uint32_t s = d->wq[d->wq_head];
        d->wq_head = (d->wq_head + 1u) % d->wq_size;
        d->wq_count--;
        op->slots[k] = s;
        op->sgl[k] = d->slot_base + s * SECTOR_BYTES;
        op->oob[k].lpa = MAP_BIT | d->slot[s].tp;
        f->stats->tp_writes++;
      } else {
        op->slots[k] = NONE32;
        op->sgl[k] = f->zero_sector_addr;
        op->oob[k].lpa = NONE32;
        f->stats->pad_sectors++;
      }
    }
    sb_progs_inc(f, ppa_sb(f, ppa));
    f->stats->flash_prog_sectors += g->unit;
    flash_submit(f, tag, SSD_FOP_PROGRAM, ppa, g->unit, hal_dram_addr(op->sgl), hal_dram_addr(op->oob),
                 SSD_FDF_SGL | LF_PAYLOAD);
    n++;
  }
  return n;
}

/* Recovery (recovery/map_rebuild.c): translation page tp is written afresh with `n` entries
 * (the rest unmapped) through a clean slot; 0 if no slot is free now (a program in flight
 * frees one).  The GTD moves when the program completes, as for any write-back. */
int dmap_write_page(struct ftl *f, uint32_t tp, const uint32_t *entries, uint32_t n) {
  struct dmap *d = &f->dm;
  struct cache_region *r = &d->reg[REG_CLEAN];
  if (d->nfree == 0 || r->count >= r->cap) return 0;
  const uint32_t s = d->free_slots[--d->nfree];
  struct tp_slot *t = &d->slot[s];
  r->count++;
  r->writing++;
  t->region = REG_CLEAN;
  t->tp = tp;
  t->pinned = 0;
  t->prev = t->next = NONE32;
  t->state = TPS_WRITING;
  uint32_t *page = dmap_slot_page(f, s);
  for (uint32_t i = 0; i < TP_ENTRIES; i++) page[i] = i < n ? entries[i] : NONE32;
  d->tp_where[tp] = s;
  d->tp_writing[tp] = 1;
  dmap_queue_write(f, s);
  return 1;
}

void dmap_program_done(struct ftl *f, uint32_t tag) {
  struct dmap *d = &f->dm;
  struct fop *op = &f->fop[tag];
  uint8_t freed[3] = {0, 0, 0};
  for (uint32_t k = 0; k < f->geo.unit; k++) {
    uint32_t s = op->slots[k];
    if (s == NONE32) continue;
    struct tp_slot *t = &d->slot[s];
    uint32_t tp = t->tp;
    dmap_page_placed(f, tp, op->ppa + k, NONE32);
    d->tp_writing[tp] = 0;
    if (t->pinned) {                   /* writeopt batch on a cached clean page */
      t->pinned = 0;
      lru_push(d, s);
      d->batches_inflight--;
    } else {
      if (t->region == REG_BATCH) d->batches_inflight--;
      freed[t->region] = 1;
      slot_release(f, s);
    }
    /* Loads that waited for this write read the new location now. */
    uint32_t l = d->tp_load[tp];
    if (l != NONE32 && d->load[l].state == LD_WAIT_WRITE) load_grant(f, l);
  }
  sb_progs_dec(f, ppa_sb(f, op->ppa));
  fop_release(f, tag);
  for (uint32_t r = 0; r < 3; r++)
    if (freed[r] || d->reg[r].wait_head != NONE32) dmap_slot_grant(f, r);
}

/* writeopt: starts a batch update of page tp (its dirty entries into one program): in place
 * on its cached clean copy, or through a batch buffer.  0 if no buffer is free. */
int dmap_start_batch(struct ftl *f, uint32_t tp) {
  struct dmap *d = &f->dm;
  uint32_t s = d->tp_where[tp];
  if (s != NONE32 && d->slot[s].state == TPS_CLEAN && !d->slot[s].pinned) {
    lru_remove(d, s);
    d->slot[s].pinned = 1;
    dent_apply_to_image(f, tp, dmap_slot_page(f, s));
    d->tp_writing[tp] = 1;
    d->batches_inflight++;
    dmap_queue_write(f, s);
    adapt_note_write_cost(f, 0);
    return 1;
  }
  if (d->reg[REG_BATCH].count >= d->reg[REG_BATCH].cap) return 0;
  d->batches_inflight++;
  adapt_note_write_cost(f, d->gtd[tp] != NONE32);
  load_start(f, tp, REG_BATCH, LK_BATCH);
  return 1;
}

/* adaptive: drops clean pages beyond a region's (reduced) quota. */
void dmap_shrink_region(struct ftl *f, uint32_t region) {
  struct dmap *d = &f->dm;
  struct cache_region *r = &d->reg[region];
  while (r->count > r->cap && r->lru_tail != NONE32 && d->slot[r->lru_tail].state == TPS_CLEAN)
    evict_lru(f, region);
}

/* ------------------------------------------------------------------ lookups and updates */
uint32_t dmap_lookup(struct ftl *f, uint32_t lpa, int count) {
  struct dmap *d = &f->dm;
  if (entry_mode(f)) {
    uint32_t x = dent_find(f, lpa);
    if (x != NONE32) {
      if (count) { f->stats->cmt_read_hits++; f->stats->cmt_dirty_hits++; adapt_access(f); }
      return d->e[x].ppa;
    }
  }
  uint32_t tp = lpa / TP_ENTRIES;
  uint32_t s = d->tp_where[tp];
  if (s != NONE32 && d->slot[s].state >= TPS_CLEAN) {
    struct tp_slot *t = &d->slot[s];
    if (t->state != TPS_WRITING && !t->pinned) lru_touch(d, s);
    if (count) {
      f->stats->cmt_read_hits++;
      if (t->region == REG_DIRTY || t->state == TPS_DIRTY) f->stats->cmt_dirty_hits++;
      else f->stats->cmt_clean_hits++;
      if (entry_mode(f)) adapt_access(f);
    }
    return dmap_slot_page(f, s)[lpa % TP_ENTRIES];
  }
  if (s == NONE32 && d->gtd[tp] == NONE32 && d->tp_load[tp] == NONE32 && !d->tp_writing[tp]) {
    if (count) { f->stats->cmt_read_hits++; f->stats->cmt_clean_hits++; }
    return NONE32;                     /* a page never written: nothing to load */
  }
  if (count) {
    f->stats->cmt_read_misses++;
    if (entry_mode(f)) adapt_access(f);
  }
  return MAP_MISS;
}

/* Sets an entry of a resident page (cond checked by the caller). */
static void page_apply(struct ftl *f, uint32_t s, uint32_t lpa, uint32_t ppa) {
  uint32_t *e = &dmap_slot_page(f, s)[lpa % TP_ENTRIES];
  if (*e != NONE32) map_invalidate(f, *e);
  *e = ppa;
  if (ppa != NONE32) {
    f->p2l[ppa] = lpa;
    sb_valid_inc(f, ppa_sb(f, ppa));
  }
}

int dmap_update(struct ftl *f, uint32_t lpa, uint32_t ppa, uint32_t cond, uint32_t cookie) {
  struct dmap *d = &f->dm;
  if (entry_mode(f)) return dent_update(f, lpa, ppa, cond, cookie);
  uint32_t tp = lpa / TP_ENTRIES;
  uint32_t s = d->tp_where[tp];
  int resident = s != NONE32 && (d->slot[s].state == TPS_CLEAN || d->slot[s].state == TPS_DIRTY);
  if (d->tp_load[tp] == NONE32 && resident) {
    struct tp_slot *t = &d->slot[s];
    int in_place = f->cfg.mapping == SSD_MAP_DFTL || t->region == REG_DIRTY, moved = 0;
    if (!in_place && d->reg[REG_DIRTY].count < d->reg[REG_DIRTY].cap) {
      lru_remove(d, s);                /* part: a written page leaves the clean region */
      d->reg[REG_CLEAN].count--;
      t->region = REG_DIRTY;
      d->reg[REG_DIRTY].count++;
      lru_push(d, s);
      in_place = moved = 1;
    }
    if (in_place) {
      f->stats->cmt_update_hits++;
      if (cond == NONE32 || dmap_slot_page(f, s)[lpa % TP_ENTRIES] == cond) page_apply(f, s, lpa, ppa);
      t->state = TPS_DIRTY;
      lru_touch(d, s);
      if (moved) dmap_slot_grant(f, REG_CLEAN);
      return 1;
    }
  }
  if (!resident) f->stats->cmt_update_misses++;
  else f->stats->cmt_update_hits++;
  uint32_t l = load_get(f, tp, f->cfg.mapping == SSD_MAP_DFTL ? REG_CLEAN : REG_DIRTY);
  load_add_waiter(d, l, dmap_waiter_new(f, WK_UPDATE, lpa, ppa, cond, cookie));
  return 0;
}

/* Trims n sectors from lpa (within one translation page): now if the page is resident (1),
 * else one waiter for the range on the page's load (0; hcmd_trim_done(cookie) follows). */
int dmap_trim(struct ftl *f, uint32_t lpa, uint32_t n, uint32_t cookie) {
  struct dmap *d = &f->dm;
  if (entry_mode(f)) return dent_trim(f, lpa, n, cookie);
  uint32_t tp = lpa / TP_ENTRIES;
  uint32_t s = d->tp_where[tp];
  if (d->tp_load[tp] == NONE32 && d->gtd[tp] == NONE32 && s == NONE32 && !d->tp_writing[tp]) return 1;
  if (d->tp_load[tp] == NONE32 && s != NONE32 && (d->slot[s].state == TPS_DIRTY ||
      (d->slot[s].state == TPS_CLEAN && (f->cfg.mapping == SSD_MAP_DFTL || d->slot[s].region == REG_DIRTY)))) {
    for (uint32_t i = 0; i < n; i++) page_apply(f, s, lpa + i, NONE32);
    d->slot[s].state = TPS_DIRTY;
    return 1;
  }
  uint32_t l = load_get(f, tp, f->cfg.mapping == SSD_MAP_DFTL ? REG_CLEAN : REG_DIRTY);
  load_add_waiter(d, l, dmap_waiter_new(f, WK_TRIM, lpa, n, NONE32, cookie));
  return 0;
}

/* ------------------------------------------------------------------ scheduling input */
int dmap_reads_protected(const struct ftl *f) {
  return f->reads_active > 0 && f->writes_waiting;
}

int dmap_has_work(const struct ftl *f) {
  const struct dmap *d = &f->dm;
  return d->ready_head != NONE32 || d->submit_wait != NONE32 || d->wq_count ||
         (f->cfg.mapping >= SSD_MAP_WRITEOPT && (d->e_used >= d->e_start || d->upd_head != NONE32));
}

/* ------------------------------------------------------------------ event loop */
int dmap_step(struct ftl *f) {
  struct dmap *d = &f->dm;
  int n = 0;
  while (d->ready_head != NONE32) {
    uint32_t l = d->ready_head;
    d->ready_head = d->load[l].next;
    if (d->ready_head == NONE32) d->ready_tail = NONE32;
    load_finish(f, l);
    n++;
  }
  while (d->submit_wait != NONE32 && flash_can_submit(f)) {
    uint32_t l = d->submit_wait;
    d->submit_wait = d->load[l].next;
    load_submit(f, l);
    n++;
  }
  if (entry_mode(f)) n += dent_batch_step(f);
  /* part-sched: a full buffer does not flush while reads wait (write_stop): translation
   * writes (the flush's map work) wait with it. */
  if (!(f->cfg.sched == SSD_SCHED_WRITE_STOP && dmap_reads_protected(f))) n += dmap_writer_step(f);
  return n;
}

/* The mapping layer's state on the UART (the firmware is stuck: diagnostics). */
void dmap_dump(struct ftl *f) {
  struct dmap *d = &f->dm;
  uint32_t loads = 0, waiting[6] = {0, 0, 0, 0, 0, 0};
  for (uint32_t l = 0; l < d->nloads; l++)
    if (d->load[l].state != LD_FREE) { loads++; waiting[d->load[l].state]++; }
  hal_puts("  mapping state: ");
  hal_put_u32("loads", loads);
  hal_put_u32("wait_write", waiting[LD_WAIT_WRITE]);
  hal_put_u32("wait_slot", waiting[LD_WAIT_SLOT]);
  hal_put_u32("wait_submit", waiting[LD_WAIT_SUBMIT]);
  hal_put_u32("reading", waiting[LD_READING]);
  hal_put_u32("ready", waiting[LD_READY]);
  hal_put_u32("write_queue", d->wq_count);
  hal_put_u32("free_slots", d->nfree);
  for (uint32_t r = 0; r < 3; r++) {
    hal_put_u32("cap", d->reg[r].cap);
    hal_put_u32("count", d->reg[r].count);
  }
  hal_put_u32("entries", d->e_used);
  hal_put_u32("fops", f->fops_inflight);
  hal_puts("\n");
  for (uint32_t p = 0; p < f->geo.pools; p++) {
    const struct pool_state *ps = &f->pool[p];
    hal_put_u32("pool", p);
    hal_put_u32("free", ps->free_count);
    hal_put_u32("victim_valid", ps->victim == NONE32 ? 0u : f->sb_valid[ps->victim]);
  }
  hal_puts("\n");
}

/* ------------------------------------------------------------------ boot */
void dmap_init(struct ftl *f) {
  struct dmap *d = &f->dm;
  const struct ftl_geo *g = &f->geo;
  d->n_tp = (g->logical_sectors + TP_ENTRIES - 1u) / TP_ENTRIES;
  d->gtd = fw_alloc(f, d->n_tp * 4u, 64);
  d->tp_where = fw_alloc(f, d->n_tp * 4u, 64);
  d->tp_load = fw_alloc(f, d->n_tp * 4u, 64);
  d->tp_writing = fw_alloc(f, d->n_tp, 64);
  for (uint32_t i = 0; i < d->n_tp; i++) d->gtd[i] = d->tp_where[i] = d->tp_load[i] = NONE32;

  /* The cache budget: cmt_permille of the whole map's bytes. */
  uint64_t budget = (uint64_t)g->logical_sectors * 4u * f->cfg.cmt_permille / 1000u;
  uint64_t clean = budget * f->cfg.cmt_clean_permille / 1000u;
  uint32_t clean_slots, dirty_slots = 0, batch_slots = 0;
  if (f->cfg.mapping == SSD_MAP_DFTL) {
    clean_slots = (uint32_t)(budget / SECTOR_BYTES);
  } else if (!entry_mode(f)) {
    clean_slots = (uint32_t)(clean / SECTOR_BYTES);
    dirty_slots = (uint32_t)((budget - clean) / SECTOR_BYTES);
  } else {
    /* Batch buffers come out of the dirty share: a quarter of it, 1..MAP_BATCH_BUFS pages. */
    clean_slots = (uint32_t)(clean / SECTOR_BYTES);
    batch_slots = (uint32_t)((budget - clean) / SECTOR_BYTES / 4u);
    if (batch_slots > MAP_BATCH_BUFS) batch_slots = MAP_BATCH_BUFS;
    if (batch_slots < 1u) batch_slots = 1u;
  }
  if (clean_slots < 2u || (f->cfg.mapping != SSD_MAP_DFTL && !entry_mode(f) && dirty_slots < 2u)) {
    hal_puts("fw: mapping cache too small (fewer than two translation pages per region)\n");
    hal_halt(SSD_HALT_BAD_CONFIG | SSD_BADCFG_MAP_CACHE_SMALL);
  }
  /* adaptive: buffers for the largest clean share the controller may choose */
  uint32_t max_clean = clean_slots;
  if (f->cfg.mapping == SSD_MAP_ADAPTIVE) max_clean = (uint32_t)(budget * 9u / 10u / SECTOR_BYTES);
  d->nslots = max_clean + dirty_slots + batch_slots;
  if (d->nslots > 65000u) {
    hal_puts("fw: mapping cache too large (more than 65000 translation pages)\n");
    hal_halt(SSD_HALT_BAD_CONFIG | SSD_BADCFG_MAP_CACHE_LARGE);
  }
  d->slot_base = hal_dram_addr(fw_alloc(f, d->nslots * SECTOR_BYTES, SECTOR_BYTES));
  d->slot = fw_alloc(f, d->nslots * (uint32_t)sizeof(struct tp_slot), 64);
  d->free_slots = fw_alloc(f, d->nslots * 4u, 64);
  for (uint32_t s = 0; s < d->nslots; s++) {
    d->slot[s].state = TPS_FREE;
    d->slot[s].prev = d->slot[s].next = NONE32;
    d->free_slots[s] = d->nslots - 1u - s;
  }
  d->nfree = d->nslots;
  for (uint32_t r = 0; r < 3; r++)
    d->reg[r] = (struct cache_region){0, 0, 0, NONE32, NONE32, NONE32, NONE32};
  d->reg[REG_CLEAN].cap = clean_slots;
  d->reg[REG_DIRTY].cap = dirty_slots;
  d->reg[REG_BATCH].cap = batch_slots;

  /* Loads: one per host command and per write-buffer program in flight is plenty; waiters:
   * every write-buffer slot and GC sector may wait at once, plus host reads. */
  d->nloads = SSD_HOST_SLOTS + 2u * d->nslots + 256u;
  d->load = fw_alloc(f, d->nloads * (uint32_t)sizeof(struct map_load), 64);
  for (uint32_t l = 0; l < d->nloads; l++) d->load[l].next = l + 1u < d->nloads ? l + 1u : NONE32;
  d->load_free = 0;
  d->nwaiters = f->cfg.wbuf_sectors + g->dies * 2u * g->unit + 2u * SSD_HOST_SLOTS + 1024u;
  d->w = fw_alloc(f, d->nwaiters * (uint32_t)sizeof(struct map_waiter), 64);
  for (uint32_t w = 0; w < d->nwaiters; w++) d->w[w].next = w + 1u < d->nwaiters ? w + 1u : NONE32;
  d->w_free = 0;
  d->ready_head = d->ready_tail = d->submit_wait = NONE32;
  d->upd_head = d->upd_tail = NONE32;
  d->wq_size = d->nslots;
  /* Flow control: map updates waiting at most this many (each may need a translation page
   * written before it is applied, and GC's erase waits for them). */
  d->upd_limit = 4u * g->dies * g->unit;
  d->wq = fw_alloc(f, d->wq_size * 4u, 64);

  uint32_t entry_bytes = 0;
  if (entry_mode(f)) {
    uint64_t used = (uint64_t)clean_slots * SECTOR_BYTES + (uint64_t)batch_slots * SECTOR_BYTES;
    entry_bytes = budget > used ? (uint32_t)(budget - used) : 0u;
    /* adaptive: entries for the largest dirty share the controller may choose */
    dent_init(f, f->cfg.mapping == SSD_MAP_ADAPTIVE ? (uint32_t)(budget * 9u / 10u) : entry_bytes);
  }
  d->budget_bytes = (uint32_t)budget;
  d->clean_permille = f->cfg.cmt_clean_permille;
  f->stats->cmt_bytes = (uint32_t)(clean_slots + dirty_slots + batch_slots) * SECTOR_BYTES;
  f->stats->gtd_bytes = d->n_tp * 4u;
  f->stats->dirty_entry_bytes = entry_bytes;
  f->stats->map_meta_bytes = d->n_tp * (4u + 4u + 1u) + d->nslots * (uint32_t)(sizeof(struct tp_slot) + 8u) +
                             d->nloads * (uint32_t)sizeof(struct map_load) +
                             d->nwaiters * (uint32_t)sizeof(struct map_waiter);
  f->stats->cmt_slots = clean_slots + dirty_slots;
  f->stats->cmt_clean_slots = clean_slots;
  f->stats->dirty_entry_capacity = d->e_high;
  f->stats->translation_pages = d->n_tp;
  if (f->cfg.mapping == SSD_MAP_ADAPTIVE) adapt_init(f);   /* the configured split to start */
}
