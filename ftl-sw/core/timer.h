/* A core's compare timer, shared by its users: each user keeps its own deadline and the
 * earliest is programmed, so that the sleeping core wakes for whichever comes first.  A user
 * checks its own deadline when the core wakes (a timer interrupt only ends the sleep); a
 * deadline already past when another is set is dropped (its user looks at its own).
 * Leaves out: periodic timers and callbacks (users poll their deadline in the event loop). */
#ifndef SSDVP_CORE_TIMER_H
#define SSDVP_CORE_TIMER_H

#include <stdint.h>

enum timer_user { TIMER_IDLE_MIGRATION = 0, TIMER_RING_WRITER, TIMER_USERS };

struct fw_timer {
  uint64_t due[TIMER_USERS];       /* ~0: not wanted */
  uint64_t armed;                  /* what the compare register holds (~0: nothing) */
  uint32_t cmp_lo, cmp_hi;         /* the core's compare register */
};

void timer_init(struct fw_timer *t, uint32_t core);
/* Wake the core at `at` (ns of simulated time) for `user`; ~0 cancels. */
void timer_set(struct fw_timer *t, enum timer_user user, uint64_t at);

#endif /* SSDVP_CORE_TIMER_H */
