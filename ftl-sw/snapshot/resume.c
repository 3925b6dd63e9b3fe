/* Resuming from a drive-state snapshot (snapshot/resume.h). */
#include "snapshot/resume.h"

#include "hal/hal.h"

struct ftl *resume_from_snapshot(const struct ssd_fw_config *cfg) {
  const uint32_t base = (cfg->dram_heap_addr + 63u) & ~63u;
  struct ftl *f = hal_dram_ptr(base);
  /* The state boot left at the heap's base, of this configuration and core count, quiet: no
   * flash operation, host command or write-buffer drain under way. */
  int ok = f->cfg.magic == SSD_FW_CONFIG_MAGIC && f->heap.base == cfg->dram_heap_addr &&
           f->heap.size == cfg->dram_heap_bytes && f->heap.used <= f->heap.size &&
           f->ncores == hal_read32(SSD_SYSCTL_BASE + SYSCTL_NUM_CORES) && f->stats != 0 &&
           f->stats->magic == SSD_FW_STATS_MAGIC && f->fops_inflight == 0 && f->lock == 0 && f->long_hold == 0;
  for (uint32_t k = 0; ok && k < f->ncores; k++) ok = f->core[k] != 0 && f->core[k]->id == k;
  if (!ok) hal_fatal("fw: the snapshot's DRAM holds no quiet firmware state of this configuration\n",
                     SSD_HALT_BAD_CONFIG | SSD_BADCFG_SNAPSHOT);
  for (uint32_t k = 0; k < f->ncores; k++) {
    struct fw_core *c = f->core[k];
    /* The compare register is the device's: write what the core had armed. */
    const uint64_t armed = c->timer.armed;
    if (armed != ~0ull) {
      hal_write32(c->timer.cmp_hi, (uint32_t)(armed >> 32));
      hal_write32(c->timer.cmp_lo, (uint32_t)armed);
    }
    c->asleep = 0;
  }
  f->cfg.resume = 0;
  f->lock_waiters = 0;
  return f;
}
