/* The read cache: see read_cache.h. */
#include "core/ftl.h"
#include "hal/hal.h"
#include "readahead/readahead.h"

#define RC_WAITERS 4096u

static uint32_t hash_of(const struct read_cache *c, uint32_t lpa) {
  uint32_t x = lpa * 0x9E3779B1u;
  return (x ^ (x >> 15)) & c->hash_mask;
}

static uint32_t buckets_for(uint32_t entries) {
  uint32_t b = 1;
  while (b < entries) b <<= 1;
  return b;
}

uint32_t rc_bytes(uint32_t entries) {
  return entries * (4096u + (uint32_t)sizeof(struct rc_entry)) + buckets_for(entries) * 4u +
         RC_WAITERS * (uint32_t)sizeof(struct rc_waiter);
}

void rc_init(struct ftl *f, uint32_t entries) {
  struct read_cache *c = &f->ra.rc;
  c->n = entries;
  c->base_addr = hal_dram_addr(fw_alloc(f, entries * 4096u, 4096u));
  c->e = fw_alloc(f, entries * (uint32_t)sizeof(struct rc_entry), 64);
  uint32_t buckets = buckets_for(entries);
  c->hash = fw_alloc(f, buckets * 4u, 64);
  c->hash_mask = buckets - 1u;
  for (uint32_t b = 0; b < buckets; b++) c->hash[b] = NONE32;
  c->free_head = NONE32;
  for (uint32_t i = entries; i-- > 0;) {
    c->e[i].state = RC_FREE;
    c->e[i].next = c->free_head;
    c->free_head = i;
  }
  c->free_count = entries;
  c->lru_head = c->lru_tail = NONE32;
  c->nwaiters = RC_WAITERS;
  c->w = fw_alloc(f, RC_WAITERS * (uint32_t)sizeof(struct rc_waiter), 64);
  c->w_free = NONE32;
  for (uint32_t i = RC_WAITERS; i-- > 0;) {
    c->w[i].next = c->w_free;
    c->w_free = i;
  }
  c->w_free_count = RC_WAITERS;
}

uint32_t rc_lookup(const struct read_cache *c, uint32_t lpa) {
  for (uint32_t i = c->hash[hash_of(c, lpa)]; i != NONE32; i = c->e[i].hnext)
    if (c->e[i].lpa == lpa) return i;
  return NONE32;
}

static void index_remove(struct read_cache *c, uint32_t i) {
  uint32_t *link = &c->hash[hash_of(c, c->e[i].lpa)];
  while (*link != i) link = &c->e[*link].hnext;
  *link = c->e[i].hnext;
  c->e[i].flags |= RC_STALE;
}

static void lru_unlink(struct read_cache *c, uint32_t i) {
  struct rc_entry *e = &c->e[i];
  if (e->prev != NONE32) c->e[e->prev].next = e->next;
  else c->lru_head = e->next;
  if (e->next != NONE32) c->e[e->next].prev = e->prev;
  else c->lru_tail = e->prev;
}

static void lru_push_head(struct read_cache *c, uint32_t i) {
  struct rc_entry *e = &c->e[i];
  e->prev = NONE32;
  e->next = c->lru_head;
  if (c->lru_head != NONE32) c->e[c->lru_head].prev = i;
  else c->lru_tail = i;
  c->lru_head = i;
}

/* The entry goes back to the free list (it is unpinned and out of the LRU). */
static void entry_free(struct ftl *f, uint32_t i) {
  struct read_cache *c = &f->ra.rc;
  struct rc_entry *e = &c->e[i];
  if (!(e->flags & RC_STALE)) index_remove(c, i);
  if (e->flags & RC_PREFETCHED) f->stats->ra_prefetch_wasted++;
  e->state = RC_FREE;
  e->flags = 0;
  e->next = c->free_head;
  c->free_head = i;
  c->free_count++;
}

uint32_t rc_alloc(struct ftl *f, uint32_t lpa, uint8_t flags) {
  struct read_cache *c = &f->ra.rc;
  uint32_t i = c->free_head;
  if (i != NONE32) {
    c->free_head = c->e[i].next;
    c->free_count--;
  } else {
    i = c->lru_tail;              /* the least recently used unpinned entry */
    if (i == NONE32) return NONE32;
    lru_unlink(c, i);
    if (c->e[i].flags & RC_PREFETCHED) f->stats->ra_prefetch_wasted++;
    index_remove(c, i);
  }
  struct rc_entry *e = &c->e[i];
  e->lpa = lpa;
  e->state = RC_FILLING;
  e->flags = flags;
  e->pins = 1;
  e->waiters = NONE32;
  e->gen = f->ra.gen;
  e->qnext = NONE32;
  uint32_t *head = &c->hash[hash_of(c, lpa)];
  e->hnext = *head;
  *head = i;
  return i;
}

void rc_pin(struct read_cache *c, uint32_t i) {
  struct rc_entry *e = &c->e[i];
  if (e->pins++ == 0 && e->state == RC_VALID) lru_unlink(c, i);
}

void rc_drop(struct ftl *f, uint32_t i) {
  lru_unlink(&f->ra.rc, i);
  entry_free(f, i);
}

void rc_unpin(struct ftl *f, uint32_t i, int keep) {
  struct read_cache *c = &f->ra.rc;
  struct rc_entry *e = &c->e[i];
  if (--e->pins) return;
  if (!keep || (e->flags & RC_STALE) || e->state != RC_VALID) entry_free(f, i);
  else lru_push_head(c, i);
}

void rc_fill_done(struct ftl *f, uint32_t i, uint16_t status, int keep) {
  struct read_cache *c = &f->ra.rc;
  struct rc_entry *e = &c->e[i];
  const int failed = status == SSD_FST_UNCORRECTABLE;
  if (!failed) e->state = RC_VALID;   /* a failed fill stays FILLING: freed with its last pin */
  for (uint32_t w = e->waiters; w != NONE32;) {
    uint32_t next = c->w[w].next;
    hcmd_sector_ready(f, c->w[w].slot, c->w[w].sector, status);
    c->w[w].next = c->w_free;
    c->w_free = w;
    c->w_free_count++;
    w = next;
  }
  e->waiters = NONE32;
  if (failed && !(e->flags & RC_STALE)) index_remove(c, i);
  rc_unpin(f, i, keep);
}

int rc_wait(struct read_cache *c, uint32_t i, uint16_t slot, uint32_t sector) {
  uint32_t w = c->w_free;
  if (w == NONE32) return 0;
  c->w_free = c->w[w].next;
  c->w_free_count--;
  c->w[w].slot = slot;
  c->w[w].sector = (uint16_t)sector;
  c->w[w].next = c->e[i].waiters;
  c->e[i].waiters = w;
  return 1;
}

void rc_invalidate(struct ftl *f, uint32_t lpa, uint32_t n) {
  struct read_cache *c = &f->ra.rc;
  for (uint32_t k = 0; k < n; k++) {
    uint32_t i = rc_lookup(c, lpa + k);
    if (i == NONE32) continue;
    f->stats->ra_invalidated_sectors++;
    if (c->e[i].pins == 0) {
      lru_unlink(c, i);
      entry_free(f, i);
    } else {
      index_remove(c, i);        /* nobody finds it now; freed with its last pin */
      f->stats->ra_invalidated_busy++;
    }
  }
}
