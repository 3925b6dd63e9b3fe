/* The cores' wake-ups (core/fw_core.h). */
#include "core/ftl.h"
#include "hal/hal.h"

/* Work only c can do that no interrupt of its own will bring it back for: with a program of
 * its writer in flight, that program's completion wakes it anyway. */
int fw_core_has_work(const struct ftl *f, const struct fw_core *c) {
  if (c->wb.progs_inflight) return 0;
  if (c->wait_write_head != NONE32) return 1;
  const uint32_t queued = wbuf_queued(&c->wb);
  return queued >= f->geo.unit || (queued && f->flushes_draining);
}

void fw_wake_others(struct ftl *f) {
  struct fw_core *me = f->cur;
  for (uint32_t k = 0; k < f->ncores; k++) {
    struct fw_core *c = f->core[k];
    if (c == me || !c->asleep || c->seen_progress == f->progress || !fw_core_has_work(f, c)) continue;
    c->seen_progress = f->progress;
    hal_write32(SSD_SYSCTL_BASE + SYSCTL_IPI, k);
    me->stats->ipis_sent++;
  }
}

