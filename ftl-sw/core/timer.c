/* A core's compare timer and its users (core/timer.h). */
#include "core/timer.h"
#include "hal/hal.h"

void timer_init(struct fw_timer *t, uint32_t core) {
  for (uint32_t u = 0; u < TIMER_USERS; u++) t->due[u] = ~0ull;
  t->armed = ~0ull;
  t->cmp_lo = SSD_TIMER_BASE + TIMER_CMP_LO_OF(core);
  t->cmp_hi = SSD_TIMER_BASE + TIMER_CMP_HI_OF(core);
}

void timer_set(struct fw_timer *t, enum timer_user user, uint64_t at) {
  t->due[user] = at;
  /* A deadline already past needs no interrupt: its user sees it on its next look. */
  const uint64_t now = hal_now_ns();
  uint64_t first = ~0ull;
  for (uint32_t u = 0; u < TIMER_USERS; u++) {
    if (t->due[u] <= now) t->due[u] = ~0ull;
    if (t->due[u] < first) first = t->due[u];
  }
  if (first == t->armed) return;
  t->armed = first;
  hal_write32(t->cmp_hi, (uint32_t)(first >> 32));
  hal_write32(t->cmp_lo, (uint32_t)first);
}
