/* The firmware lock (core/fw_core.h): a test-and-set lock on AMOs that waiters sleep on. */
#include "core/ftl.h"
#include "hal/hal.h"

#define SPIN_TURNS 16u   /* turns a waiter spins before it sleeps until the holder's IPI */

/* Test-and-set on an AMO (amoswap.w.aq on RV32).  A waiter spins a few turns on plain loads,
 * then puts itself in the waiters' mask (amoor) and sleeps: the holder's fw_unlock wakes it
 * with an IPI.  It checks the lock again after joining the mask, so a release between its
 * last look and its joining is not missed; an IPI that comes first makes the sleep return at
 * once.  A core polls all its rings once it has the lock, so the interrupt lines the sleep
 * clears lose nothing. */
void fw_lock(struct ftl *f, struct fw_core *me) {
  if (__atomic_exchange_n(&f->lock, 1u, __ATOMIC_ACQUIRE)) {
    uint64_t spins = 0;
    do {
      uint32_t turns = 0;
      while (f->lock) {
        if (f->long_hold || ++turns > SPIN_TURNS) {
          __atomic_fetch_or(&f->lock_waiters, 1u << me->id, __ATOMIC_ACQ_REL);
          if (f->lock) hal_wait_for_event();
          turns = 0;
        } else {
          hal_relax();
        }
        spins++;
      }
    } while (__atomic_exchange_n(&f->lock, 1u, __ATOMIC_ACQUIRE));
    me->stats->lock_waits++;
    me->stats->lock_spins += spins;
  }
  f->cur = me;
}

void fw_unlock(struct ftl *f) {
  __atomic_store_n(&f->lock, 0u, __ATOMIC_RELEASE);
  if (!f->lock_waiters) return;
  uint32_t w = __atomic_exchange_n(&f->lock_waiters, 0u, __ATOMIC_ACQ_REL);
  for (uint32_t k = 0; w; k++, w >>= 1)
    if (w & 1u) hal_write32(SSD_SYSCTL_BASE + SYSCTL_IPI, k);
}

/* Waiters sleep at once while the hold is long (they join the waiters' mask: the release
 * wakes them). */
void fw_long_hold(struct ftl *f, int on) { f->long_hold = (uint32_t)on; }
