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
 * This file: the GTD, lookups, updates and trims, the waiters' records, the event loop and
 * boot; the CMT's slots and LRU lists are map/cmt_cache.c, translation-page reads and writes
 * map/tp_io.c.
 * Leaves out: the reverse map stays in DRAM as GC's valid-page table (a real DFTL keeps a bitmap and reads
 * the LPA from the OOB). */
#include "core/ftl.h"
#include "hal/hal.h"
#include "map/demand_map_parts.h"


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

/* The GTD entry of translation page tp moves to ppa (only if it is at cond: GC copies). */
void dmap_page_placed(struct ftl *f, uint32_t tp, uint32_t ppa, uint32_t cond) {
  struct dmap *d = &f->dm;
  if (cond != NONE32 && d->gtd[tp] != cond) return;   /* a newer copy exists: ppa stays invalid */
  if (d->gtd[tp] != NONE32) map_invalidate(f, d->gtd[tp]);
  d->gtd[tp] = ppa;
  f->p2l[ppa] = MAP_BIT | tp;
  sb_valid_inc(f, ppa_sb(f, ppa));
}

/* ------------------------------------------------------------------ lookups and updates */
uint32_t dmap_lookup(struct ftl *f, uint32_t lpa, int count) {
  struct dmap *d = &f->dm;
  if (dmap_entry_mode(f)) {
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
    if (t->state != TPS_WRITING && !t->pinned) dmap_lru_touch(d, s);
    if (count) {
      f->stats->cmt_read_hits++;
      if (t->region == REG_DIRTY || t->state == TPS_DIRTY) f->stats->cmt_dirty_hits++;
      else f->stats->cmt_clean_hits++;
      if (dmap_entry_mode(f)) adapt_access(f);
    }
    return dmap_slot_page(f, s)[lpa % TP_ENTRIES];
  }
  if (s == NONE32 && d->gtd[tp] == NONE32 && d->tp_load[tp] == NONE32 && !d->tp_writing[tp]) {
    if (count) { f->stats->cmt_read_hits++; f->stats->cmt_clean_hits++; }
    return NONE32;                     /* a page never written: nothing to load */
  }
  if (count) {
    f->stats->cmt_read_misses++;
    if (dmap_entry_mode(f)) adapt_access(f);
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
  if (dmap_entry_mode(f)) return dent_update(f, lpa, ppa, cond, cookie);
  uint32_t tp = lpa / TP_ENTRIES;
  uint32_t s = d->tp_where[tp];
  int resident = s != NONE32 && (d->slot[s].state == TPS_CLEAN || d->slot[s].state == TPS_DIRTY);
  if (d->tp_load[tp] == NONE32 && resident) {
    struct tp_slot *t = &d->slot[s];
    int in_place = f->cfg.mapping == SSD_MAP_DFTL || t->region == REG_DIRTY, moved = 0;
    if (!in_place && d->reg[REG_DIRTY].count < d->reg[REG_DIRTY].cap) {
      dmap_lru_remove(d, s);                /* part: a written page leaves the clean region */
      d->reg[REG_CLEAN].count--;
      t->region = REG_DIRTY;
      d->reg[REG_DIRTY].count++;
      dmap_lru_push(d, s);
      in_place = moved = 1;
    }
    if (in_place) {
      f->stats->cmt_update_hits++;
      if (cond == NONE32 || dmap_slot_page(f, s)[lpa % TP_ENTRIES] == cond) page_apply(f, s, lpa, ppa);
      t->state = TPS_DIRTY;
      dmap_lru_touch(d, s);
      if (moved) dmap_slot_grant(f, REG_CLEAN);
      return 1;
    }
  }
  if (!resident) f->stats->cmt_update_misses++;
  else f->stats->cmt_update_hits++;
  uint32_t l = dmap_load_get(f, tp, f->cfg.mapping == SSD_MAP_DFTL ? REG_CLEAN : REG_DIRTY);
  dmap_load_add_waiter(d, l, dmap_waiter_new(f, WK_UPDATE, lpa, ppa, cond, cookie));
  return 0;
}

/* Trims n sectors from lpa (within one translation page): now if the page is resident (1),
 * else one waiter for the range on the page's load (0; hcmd_trim_done(cookie) follows). */
int dmap_trim(struct ftl *f, uint32_t lpa, uint32_t n, uint32_t cookie) {
  struct dmap *d = &f->dm;
  if (dmap_entry_mode(f)) return dent_trim(f, lpa, n, cookie);
  uint32_t tp = lpa / TP_ENTRIES;
  uint32_t s = d->tp_where[tp];
  if (d->tp_load[tp] == NONE32 && d->gtd[tp] == NONE32 && s == NONE32 && !d->tp_writing[tp]) return 1;
  if (d->tp_load[tp] == NONE32 && s != NONE32 && (d->slot[s].state == TPS_DIRTY ||
      (d->slot[s].state == TPS_CLEAN && (f->cfg.mapping == SSD_MAP_DFTL || d->slot[s].region == REG_DIRTY)))) {
    for (uint32_t i = 0; i < n; i++) page_apply(f, s, lpa + i, NONE32);
    d->slot[s].state = TPS_DIRTY;
    return 1;
  }
  uint32_t l = dmap_load_get(f, tp, f->cfg.mapping == SSD_MAP_DFTL ? REG_CLEAN : REG_DIRTY);
  dmap_load_add_waiter(d, l, dmap_waiter_new(f, WK_TRIM, lpa, n, NONE32, cookie));
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
    dmap_load_finish(f, l);
    n++;
  }
  while (d->submit_wait != NONE32 && flash_can_submit(f)) {
    uint32_t l = d->submit_wait;
    d->submit_wait = d->load[l].next;
    dmap_load_submit(f, l);
    n++;
  }
  if (dmap_entry_mode(f)) n += dent_batch_step(f);
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
  tp_io_init(f);
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
  } else if (!dmap_entry_mode(f)) {
    clean_slots = (uint32_t)(clean / SECTOR_BYTES);
    dirty_slots = (uint32_t)((budget - clean) / SECTOR_BYTES);
  } else {
    /* Batch buffers come out of the dirty share: a quarter of it, 1..MAP_BATCH_BUFS pages. */
    clean_slots = (uint32_t)(clean / SECTOR_BYTES);
    batch_slots = (uint32_t)((budget - clean) / SECTOR_BYTES / 4u);
    if (batch_slots > MAP_BATCH_BUFS) batch_slots = MAP_BATCH_BUFS;
    if (batch_slots < 1u) batch_slots = 1u;
  }
  if (clean_slots < 2u || (f->cfg.mapping != SSD_MAP_DFTL && !dmap_entry_mode(f) && dirty_slots < 2u)) {
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
  if (dmap_entry_mode(f)) {
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
