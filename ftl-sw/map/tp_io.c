/* Translation-page I/O of the demand-based map (map/demand_map.c): loads (a record per page
 * not in the CMT, with its waiters in arrival order: host reads to restart, updates to apply),
 * their slots and completions; write-backs of dirty pages, a superpage at a time in their own
 * superblocks (STREAM_MAP, MAP_BIT | page in the OOB), batch updates (writeopt) and the
 * recovery's rewrite of pages.
 * Leaves out: the CMT's slots and LRU lists (map/cmt_cache.c), lookups and updates
 * (map/demand_map.c). */
#include "core/ftl.h"
#include "hal/hal.h"
#include "map/demand_map_parts.h"


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

/* ------------------------------------------------------------------ loads */
void dmap_load_submit(struct ftl *f, uint32_t l) {
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
        if (dmap_evict_lru(f, ld->region) == EVICT_DROPPED) continue;
        ld->flags |= SSD_CPLI_MAP_WRITE;   /* a write-back of this region frees the quota */
        region_wait_push(d, l);
        return;
      }
    }
    dmap_lru_remove(d, cur);
    if (d->slot[cur].state == TPS_DIRTY) ld->flags |= LF_DIRTY;
    d->slot[cur].state = TPS_LOADING;
    d->reg[d->slot[cur].region].count--;
    d->slot[cur].region = ld->region;
    r->count++;
    ld->slot = cur;
    ready_push(d, l);
    return;
  }
  uint32_t s = dmap_slot_acquire(f, ld->region, &wrote);
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
  dmap_load_submit(f, l);
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

uint32_t dmap_load_get(struct ftl *f, uint32_t tp, uint32_t region) {
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
  dmap_load_add_waiter(d, l, dmap_waiter_new(f, WK_READ, 0, 0, mask, host_slot));
  f->hc[host_slot].map_pending++;
  f->hc[host_slot].waited |= SSD_CPLI_MAP_READ;
  if (dmap_entry_mode(f)) adapt_note_read_miss(f);
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
void dmap_load_finish(struct ftl *f, uint32_t l) {
  struct dmap *d = &f->dm;
  struct map_load *ld = &d->load[l];
  uint32_t tp = ld->tp;
  if (d->tp_load[tp] == l) d->tp_load[tp] = NONE32;
  if (ld->kind == LK_BATCH) {
    dent_batch_loaded(f, l);
  } else {
    struct tp_slot *t = &d->slot[ld->slot];
    t->state = (ld->flags & LF_DIRTY) ? TPS_DIRTY : TPS_CLEAN;
    dmap_lru_push(d, ld->slot);
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

static void dmap_read_done(struct ftl *f, uint32_t tag, const struct flash_result *r) {
  (void)r;
  uint32_t l = f->fop[tag].gc_index;
  fop_release(f, tag);
  dmap_load_finish(f, l);
}

/* ------------------------------------------------------------------ translation page writes */
void dmap_queue_write(struct ftl *f, uint32_t slot) {
  struct dmap *d = &f->dm;
  d->wq[(d->wq_head + d->wq_count) % d->wq_size] = slot;
  d->wq_count++;
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

static void dmap_program_done(struct ftl *f, uint32_t tag, const struct flash_result *r) {
  (void)r;
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
      dmap_lru_push(d, s);
      d->batches_inflight--;
    } else {
      if (t->region == REG_BATCH) d->batches_inflight--;
      freed[t->region] = 1;
      dmap_slot_release(f, s);
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
    dmap_lru_remove(d, s);
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

/* Translation pages' flash completions (core/flash_port.h); a failed program goes to
 * media/program_retry.h. */
static const struct flash_owner tp_read_owner = {SSD_FRSN_MAP, 0, dmap_read_done, 0};
static const struct flash_owner tp_program_owner = {SSD_FRSN_MAP, SSD_FST_PROGRAM_FAIL, dmap_program_done,
                                                    program_failed};

void tp_io_init(struct ftl *f) {
  flash_register(f, FOP_MAP_READ, &tp_read_owner);
  flash_register(f, FOP_MAP_PROG, &tp_program_owner);
}
