/* Idle-time migration (place/idle_migration.h). */
#include "core/ftl.h"
#include "hal/hal.h"

uint32_t idle_migration_init(struct ftl *f) {
  struct idle_migration *m = &f->pl.idle;
  m->idle_ns = f->pl.regions > 1 ? (uint64_t)f->cfg.idle_migration_us * 1000u : 0u;
  return m->idle_ns ? SSD_IRQ_TIMER : 0u;
}

void idle_note_command(struct ftl *f) {
  struct idle_migration *m = &f->pl.idle;
  if (!m->idle_ns) return;
  m->last_cmd_ns = hal_now_ns();
  m->done_this_period = 0;
  if (m->active) {
    m->active = 0;
    f->stats->idle_migration_stops++;
  }
}

/* Nothing of the host's is waiting or being read: what is left to do is the drive's own. */
static int host_quiet(const struct ftl *f) {
  return f->reads_active == 0 && !f->writes_waiting && f->wait_read_head == NONE32 &&
         f->flush_head == NONE32;
}

uint32_t idle_target_free(const struct ftl *f, uint32_t pool) {
  const uint32_t blocks = f->pool[pool].blocks;
  const uint32_t target = (uint32_t)(((uint64_t)blocks * f->cfg.idle_free_permille) / 1000u);
  return target > f->pool[pool].gc_high ? target : f->pool[pool].gc_high;
}

int idle_poll(struct ftl *f) {
  struct idle_migration *m = &f->pl.idle;
  if (!m->idle_ns || m->active || m->done_this_period || !host_quiet(f)) return 0;
  const uint64_t due = m->last_cmd_ns + m->idle_ns;
  if (hal_now_ns() < due) {
    timer_set(&f->core[0]->timer, TIMER_IDLE_MIGRATION, due);
    return 0;
  }
  timer_set(&f->core[0]->timer, TIMER_IDLE_MIGRATION, ~0ull);
  m->done_this_period = 1;
  m->pools_left = 0;
  for (uint32_t p = 0; p < f->geo.pools; p++) {
    struct pool_state *ps = &f->pool[p];
    if (!place_slc_pool(f, p) || ps->free_count >= idle_target_free(f, p)) continue;
    ps->idle_gc = 1;
    gc_watch(f, p);
    m->pools_left++;
  }
  if (!m->pools_left) return 0;
  m->active = 1;
  f->stats->idle_migration_runs++;
  return 1;
}

void idle_pool_done(struct ftl *f) {
  struct idle_migration *m = &f->pl.idle;
  if (m->pools_left && --m->pools_left == 0) m->active = 0;
}
