/* Power-loss protection: see power_fail.h. */
#include "core/ftl.h"
#include "hal/hal.h"

void power_fail_init(struct ftl *f) {
  struct power_fail *p = &f->pf;
  const struct ssd_fw_config *live = hal_dram_ptr(hal_read32(SSD_SYSCTL_BASE + SYSCTL_CONFIG_ADDR));
  p->flag = &live->power_failing;
  p->state = PF_NONE;
  p->dump.drain_mark = fw_alloc(f, drain_barrier_bytes(f), 16);
}

int power_fail_step(struct ftl *f) {
  struct power_fail *p = &f->pf;
  switch (p->state) {
    case PF_NONE: {
      uint32_t buffered = 0;
      for (uint32_t k = 0; k < f->ncores; k++) buffered += wbuf_queued(&f->core[k]->wb);
      f->stats->power_dump_sectors = buffered;
      hal_puts("fw: the supply failed: putting the write buffer on flash\n");
      drain_barrier_begin(f, &p->dump);
      p->state = PF_DUMPING;
      return 1;
    }
    case PF_DUMPING:
      if (!drain_barrier_passed(f, &p->dump)) return 0;
      p->state = PF_DUMPED;
      f->stats->power_dumped = 1;
      hal_write32(SSD_SYSCTL_BASE + SYSCTL_POWER_DUMPED, 1);
      return 1;
    default:
      return 0;
  }
}
