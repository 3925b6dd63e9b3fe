/* The entry-level dirty cache of writeopt and adaptive (PTSD's write optimisation): a map
 * update is an entry (lpa -> ppa) appended to the dirty cache, grouped by translation page,
 * so a write needs no translation page read.  When the cache is nearly full, a batch update
 * takes the translation page with the most dirty entries (greedy), brings it in (the cached
 * clean copy in place, or a read into a batch buffer), applies all its entries and programs
 * it once.  Lookups see entries before pages.
 *
 * An entry made without its page in DRAM does not know the value it replaces: that old
 * physical sector stays valid until the batch update reads the page (the entry is
 * "unresolved"); GC meeting such a sector drops its copy and resolves the entry.
 * Memory: 12 bytes an entry plus its index (two 4-byte hash slots per entry).
 * Leaves out: LRU choice of the batch page (the paper names it; greedy is what it measured). */
#include "core/ftl.h"
#include "hal/hal.h"

#define UNRESOLVED 0x80000000u
#define NEXT_MASK  0x7FFFFFFFu
#define NEXT_NONE  0x7FFFFFFFu

static uint32_t ehash(uint32_t lpa, uint32_t mask) { return (lpa * 2654435761u) & mask; }

static void set_limit(struct dmap *d, uint32_t high) {
  if (high > d->e_cap) high = d->e_cap;
  if (high < 64u) high = 64u;
  d->e_high = high;
  uint32_t slack = high / 16u;
  d->e_start = high - (slack ? slack : 1u);
}

void dent_set_limit(struct ftl *f, uint32_t high) {
  set_limit(&f->dm, high);
  f->stats->dirty_entry_capacity = f->dm.e_high;
}

void dent_init(struct ftl *f, uint32_t bytes) {
  struct dmap *d = &f->dm;
  d->e_cap = bytes / ((uint32_t)sizeof(struct dirty_entry) + 8u);
  if (d->e_cap < 64u) {
    hal_puts("fw: dirty-entry cache too small (fewer than 64 entries)\n");
    hal_halt(SSD_HALT_BAD_CONFIG | SSD_BADCFG_DIRTY_ENTRIES);
  }
  d->e = fw_alloc(f, d->e_cap * (uint32_t)sizeof(struct dirty_entry), 64);
  uint32_t hsize = 1;
  while (hsize < 2u * d->e_cap) hsize <<= 1;
  d->e_hash_mask = hsize - 1u;
  d->e_hash = fw_alloc(f, hsize * 4u, 64);
  for (uint32_t i = 0; i < hsize; i++) d->e_hash[i] = NONE32;
  for (uint32_t i = 0; i < d->e_cap; i++) d->e[i].next = i + 1u < d->e_cap ? i + 1u : NEXT_NONE;
  d->e_free = 0;
  d->e_used = 0;
  d->tp_ehead = fw_alloc(f, d->n_tp * 4u, 64);
  d->tp_ecount = fw_alloc(f, d->n_tp * 2u, 64);
  d->b_next = fw_alloc(f, d->n_tp * 4u, 64);
  d->b_prev = fw_alloc(f, d->n_tp * 4u, 64);
  d->b_head = fw_alloc(f, (TP_ENTRIES + 1u) * 4u, 64);
  for (uint32_t t = 0; t < d->n_tp; t++) d->tp_ehead[t] = NEXT_NONE;
  for (uint32_t c = 0; c <= TP_ENTRIES; c++) d->b_head[c] = NONE32;
  d->b_max = 0;
  set_limit(d, d->e_cap);
}

/* ------------------------------------------------------------------ index */
uint32_t dent_find(const struct ftl *f, uint32_t lpa) {
  const struct dmap *d = &f->dm;
  for (uint32_t i = ehash(lpa, d->e_hash_mask);; i = (i + 1u) & d->e_hash_mask) {
    uint32_t x = d->e_hash[i];
    if (x == NONE32) return NONE32;
    if (d->e[x].lpa == lpa) return x;
  }
}

static void hash_put(struct dmap *d, uint32_t x) {
  uint32_t i = ehash(d->e[x].lpa, d->e_hash_mask);
  while (d->e_hash[i] != NONE32) i = (i + 1u) & d->e_hash_mask;
  d->e_hash[i] = x;
}

static void hash_del(struct dmap *d, uint32_t lpa) {
  uint32_t i = ehash(lpa, d->e_hash_mask);
  while (d->e[d->e_hash[i]].lpa != lpa) i = (i + 1u) & d->e_hash_mask;
  for (uint32_t j = (i + 1u) & d->e_hash_mask; d->e_hash[j] != NONE32; j = (j + 1u) & d->e_hash_mask) {
    uint32_t home = ehash(d->e[d->e_hash[j]].lpa, d->e_hash_mask);
    if (((j - home) & d->e_hash_mask) >= ((j - i) & d->e_hash_mask)) {
      d->e_hash[i] = d->e_hash[j];
      i = j;
    }
  }
  d->e_hash[i] = NONE32;
}

/* Pages bucketed by their number of dirty entries: the greedy choice in O(1). */
static void bucket_remove(struct dmap *d, uint32_t tp) {
  uint32_t c = d->tp_ecount[tp];
  if (c == 0) return;
  if (d->b_prev[tp] != NONE32) d->b_next[d->b_prev[tp]] = d->b_next[tp];
  else d->b_head[c] = d->b_next[tp];
  if (d->b_next[tp] != NONE32) d->b_prev[d->b_next[tp]] = d->b_prev[tp];
}

static void bucket_add(struct dmap *d, uint32_t tp) {
  uint32_t c = d->tp_ecount[tp];
  if (c == 0) return;
  d->b_prev[tp] = NONE32;
  d->b_next[tp] = d->b_head[c];
  if (d->b_head[c] != NONE32) d->b_prev[d->b_head[c]] = tp;
  d->b_head[c] = tp;
  if (c > d->b_max) d->b_max = c;
}

/* ------------------------------------------------------------------ updates */
/* Applies one update; 0 when there is no room for a new entry. */
static int dent_try(struct ftl *f, uint32_t lpa, uint32_t ppa, uint32_t cond) {
  struct dmap *d = &f->dm;
  uint32_t x = dent_find(f, lpa);
  if (x != NONE32) {
    struct dirty_entry *e = &d->e[x];
    if (cond != NONE32 && e->ppa != cond) {
      /* A GC copy of a sector that is no longer current.  If it is the page's old value,
       * still valid because the entry is unresolved, it is stale: resolve now. */
      if (f->p2l[cond] == lpa && (e->next & UNRESOLVED)) {
        map_invalidate(f, cond);
        e->next &= ~UNRESOLVED;
      }
      return 1;
    }
    if (e->ppa != NONE32) map_invalidate(f, e->ppa);
    e->ppa = ppa;
    if (ppa != NONE32) {
      f->p2l[ppa] = lpa;
      sb_valid_inc(f, ppa_sb(f, ppa));
    }
    f->stats->cmt_update_hits++;
    adapt_access(f);
    return 1;
  }
  uint32_t tp = lpa / TP_ENTRIES;
  uint32_t s = d->tp_where[tp];
  const uint32_t *page = (s != NONE32 && d->slot[s].state >= TPS_CLEAN) ? dmap_slot_page(f, s) : 0;
  if (cond != NONE32) {
    if (page ? page[lpa % TP_ENTRIES] != cond : f->p2l[cond] != lpa) return 1;   /* stale copy */
  } else if (ppa == NONE32 && !page && d->gtd[tp] == NONE32 && !d->tp_writing[tp] && d->tp_load[tp] == NONE32) {
    return 1;                          /* trim of a page never written */
  }
  if (d->e_used >= d->e_high || d->e_free == NEXT_NONE) return 0;
  x = d->e_free;
  struct dirty_entry *e = &d->e[x];
  d->e_free = e->next & NEXT_MASK;
  d->e_used++;
  e->lpa = lpa;
  e->ppa = ppa;
  uint32_t flags = 0;
  uint32_t old = page ? page[lpa % TP_ENTRIES] : cond;
  if (page || cond != NONE32) {
    if (old != NONE32 && f->p2l[old] == lpa) map_invalidate(f, old);
  } else {
    flags = UNRESOLVED;
  }
  if (page) f->stats->cmt_update_hits++;
  else f->stats->cmt_update_misses++;
  bucket_remove(d, tp);
  e->next = (d->tp_ehead[tp] & NEXT_MASK) | flags;
  d->tp_ehead[tp] = x;
  d->tp_ecount[tp]++;
  bucket_add(d, tp);
  hash_put(d, x);
  if (ppa != NONE32) {
    f->p2l[ppa] = lpa;
    sb_valid_inc(f, ppa_sb(f, ppa));
  }
  adapt_access(f);
  return 1;
}

static void upd_queue(struct ftl *f, uint8_t kind, uint32_t lpa, uint32_t ppa, uint32_t cond, uint32_t cookie) {
  struct dmap *d = &f->dm;
  uint32_t w = dmap_waiter_new(f, kind, lpa, ppa, cond, cookie);
  if (d->upd_tail == NONE32) d->upd_head = w;
  else d->w[d->upd_tail].next = w;
  d->upd_tail = w;
}

int dent_update(struct ftl *f, uint32_t lpa, uint32_t ppa, uint32_t cond, uint32_t cookie) {
  if (f->dm.upd_head == NONE32 && dent_try(f, lpa, ppa, cond)) return 1;
  upd_queue(f, WK_UPDATE, lpa, ppa, cond, cookie);   /* after those already waiting for room */
  return 0;
}

int dent_trim(struct ftl *f, uint32_t lpa, uint32_t n, uint32_t cookie) {
  for (uint32_t i = 0; i < n; i++) {
    if (f->dm.upd_head != NONE32 || !dent_try(f, lpa + i, NONE32, NONE32)) {
      upd_queue(f, WK_TRIM, lpa + i, n - i, NONE32, cookie);
      return 0;
    }
  }
  return 1;
}

/* ------------------------------------------------------------------ batch update */
/* Applies every dirty entry of page tp to its image and drops them. */
void dent_apply_to_image(struct ftl *f, uint32_t tp, uint32_t *image) {
  struct dmap *d = &f->dm;
  uint32_t n = 0;
  bucket_remove(d, tp);
  for (uint32_t x = d->tp_ehead[tp] & NEXT_MASK; x != NEXT_NONE;) {
    struct dirty_entry *e = &d->e[x];
    uint32_t next = e->next & NEXT_MASK;
    uint32_t idx = e->lpa % TP_ENTRIES;
    if (e->next & UNRESOLVED) {
      uint32_t old = image[idx];
      if (old != NONE32 && f->p2l[old] == e->lpa) map_invalidate(f, old);
    }
    image[idx] = e->ppa;
    hash_del(d, e->lpa);
    e->next = d->e_free;
    d->e_free = x;
    n++;
    x = next;
  }
  d->tp_ehead[tp] = NEXT_NONE;
  d->tp_ecount[tp] = 0;
  d->e_used -= n;
  f->stats->batch_updates++;
  f->stats->batch_entries += n;
}

/* The page with the most dirty entries that is not being read or written already. */
static uint32_t pick_page(struct dmap *d) {
  while (d->b_max > 0 && d->b_head[d->b_max] == NONE32) d->b_max--;
  for (uint32_t c = d->b_max; c > 0; c--)
    for (uint32_t tp = d->b_head[c]; tp != NONE32; tp = d->b_next[tp])
      if (!d->tp_writing[tp] && d->tp_load[tp] == NONE32) return tp;
  return NONE32;
}

/* Batch image read in (or filled for a page never written): apply and program it. */
void dent_batch_loaded(struct ftl *f, uint32_t l) {
  struct dmap *d = &f->dm;
  uint32_t s = d->load[l].slot, tp = d->load[l].tp;
  dent_apply_to_image(f, tp, dmap_slot_page(f, s));
  d->slot[s].state = TPS_WRITING;
  d->tp_writing[tp] = 1;
  dmap_queue_write(f, s);
}

int dmap_start_batch(struct ftl *f, uint32_t tp);

int dent_batch_step(struct ftl *f) {
  struct dmap *d = &f->dm;
  int n = 0;
  while (d->e_used >= d->e_start && d->batches_inflight < MAP_BATCH_BUFS) {
    uint32_t tp = pick_page(d);
    if (tp == NONE32 || !dmap_start_batch(f, tp)) break;
    n++;
  }
  /* Updates that waited for room, in order. */
  while (d->upd_head != NONE32) {
    uint32_t w = d->upd_head;
    struct map_waiter *mw = &d->w[w];
    if (mw->kind == WK_TRIM) {
      while (mw->ppa && dent_try(f, mw->lpa, NONE32, NONE32)) { mw->lpa++; mw->ppa--; }
      if (mw->ppa) break;
    } else if (!dent_try(f, mw->lpa, mw->ppa, mw->cond)) {
      break;
    }
    d->upd_head = mw->next;
    if (d->upd_head == NONE32) d->upd_tail = NONE32;
    const uint8_t kind = mw->kind;
    const uint32_t cookie = mw->cookie;
    dmap_waiter_free(d, w);
    if (cookie != NONE32) {
      if (kind == WK_UPDATE) wbuf_map_applied(f, cookie);
      else hcmd_trim_done(f, (uint16_t)cookie);
    }
    n++;
  }
  return n;
}
