/* Read buffers: a pool of 4 KiB DRAM slots that flash reads land in before the host DMA.
 * With ftl.readahead a host read lands in the read cache instead (readahead/read_cache.h) and
 * uses these only when every cache entry is pinned. */
#include "core/ftl.h"
#include "hal/hal.h"

#define READ_SLOTS 4096u

void rbuf_init(struct ftl *f) {
  struct rbuf *r = &f->rb;
  r->nslots = READ_SLOTS;
  r->base_addr = hal_dram_addr(fw_alloc(f, r->nslots * SECTOR_BYTES, SECTOR_BYTES));
  r->free_list = fw_alloc(f, r->nslots * 4u, 64);
  for (uint32_t i = 0; i < r->nslots; i++) r->free_list[i] = r->base_addr + i * SECTOR_BYTES;
  r->free_count = r->nslots;
}

int rbuf_alloc(struct ftl *f, uint32_t n, uint32_t *addrs) {
  struct rbuf *r = &f->rb;
  if (r->free_count < n) return 0;
  for (uint32_t i = 0; i < n; i++) addrs[i] = r->free_list[--r->free_count];
  return 1;
}

void rbuf_free(struct ftl *f, uint32_t addr) { f->rb.free_list[f->rb.free_count++] = addr; }
