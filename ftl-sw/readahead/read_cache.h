/* The read cache: 4 KiB DRAM sectors holding flash data the host read or the firmware read
 * ahead, looked up by logical sector, replaced least-recently-used.
 *
 * Models: a fixed number of sector entries (ftl.read_cache.kib); an entry is FREE, FILLING
 * (a flash read is landing in it: a host read of the same sector waits for it instead of
 * reading again) or VALID.  Pinned entries (a host DMA reads from them, or a flash read is
 * in flight) are never replaced; unpinned VALID entries sit in one LRU list.  A host write
 * or trim invalidates what it covers at once: the entry leaves the index, and if pinned it
 * is freed when the last pin goes (readers that found it before the write may still finish
 * with it; nobody finds it after).  Which entries stay after the host has read them is the
 * read-ahead policy's choice (readahead.h).
 * Leaves out: entries larger than a sector (the policy's item size groups sectors for
 * prediction and prefetch only), a separate prefetch buffer, write caching (the write
 * buffer serves reads of unflushed data before the cache is asked). */
#ifndef SSDVP_READAHEAD_READ_CACHE_H
#define SSDVP_READAHEAD_READ_CACHE_H

#include <stdint.h>

struct ftl;

enum rc_state { RC_FREE = 0, RC_FILLING, RC_VALID };
#define RC_PREFETCHED  0x01u   /* read ahead, the host has not read it yet */
#define RC_STALE       0x02u   /* invalidated while pinned: freed with the last pin */
#define RC_QUEUED      0x04u   /* read-ahead waiting for its die (readahead.c's queue) */

struct rc_entry {
  uint32_t lpa;
  uint8_t  state, flags;
  uint16_t pins;
  uint32_t prev, next;     /* LRU (unpinned VALID entries), or free list (next) */
  uint32_t hnext;          /* index chain */
  uint32_t waiters;        /* first host read waiting for the fill (rc_waiter index) */
  uint32_t gen;            /* prediction that claimed it (prefetched entries) */
  uint32_t qnext;          /* read-ahead queue link ... */
  uint32_t qdie;           /* ... of that die's queue */
};

struct rc_waiter {
  uint16_t slot;           /* host command */
  uint16_t sector;         /* which of its sectors */
  uint32_t next;
};

struct read_cache {
  uint32_t n;              /* entries */
  uint32_t base_addr;      /* DRAM address of entry 0's sector */
  struct rc_entry *e;
  uint32_t *hash, hash_mask;
  uint32_t free_head, free_count;
  uint32_t lru_head, lru_tail;   /* head = most recently used */
  struct rc_waiter *w;
  uint32_t nwaiters, w_free, w_free_count;
};

void rc_init(struct ftl *f, uint32_t entries);
uint32_t rc_bytes(uint32_t entries);
static inline uint32_t rc_addr(const struct read_cache *c, uint32_t i) { return c->base_addr + i * 4096u; }
/* The entry whose sector is at DRAM address addr, NONE32 if addr is not a cache sector. */
static inline uint32_t rc_entry_of(const struct read_cache *c, uint32_t addr) {
  uint32_t off = addr - c->base_addr;
  return c->n && off < c->n * 4096u ? off / 4096u : 0xFFFFFFFFu;
}
uint32_t rc_lookup(const struct read_cache *c, uint32_t lpa);
/* A FILLING entry for lpa, pinned once (the fill): a free one or the LRU one replaced;
 * NONE32 if every entry is pinned.  *evicted_unused tells that an unread prefetch went. */
uint32_t rc_alloc(struct ftl *f, uint32_t lpa, uint8_t flags);
void rc_pin(struct read_cache *c, uint32_t i);
/* Drops one pin; keep = 0 frees the entry once unpinned (the policy does not keep it),
 * as does a stale entry; else it becomes the most recently used. */
void rc_unpin(struct ftl *f, uint32_t i, int keep);
/* The fill of entry i is done (status: SSD_FST_*): it is VALID (unless the read failed:
 * then it is freed), its waiters are told.  Drops the fill's pin with keep. */
void rc_fill_done(struct ftl *f, uint32_t i, uint16_t status, int keep);
/* A host read waits for entry i's fill; 0 if no waiter record is free. */
int  rc_wait(struct read_cache *c, uint32_t i, uint16_t slot, uint32_t sector);
/* Host writes/trims of [lpa, lpa + n): cached copies are gone. */
void rc_invalidate(struct ftl *f, uint32_t lpa, uint32_t n);
/* Frees an unpinned VALID entry (replacement by the policy: an earlier prediction). */
void rc_drop(struct ftl *f, uint32_t i);

#endif /* SSDVP_READAHEAD_READ_CACHE_H */
