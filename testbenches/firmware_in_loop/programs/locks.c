/* The firmware lock (ftl-sw/core/fw_lock.c, the same code the FTL runs) on several ISS cores:
 * each core adds 1 to a shared counter ITERATIONS times inside the lock, with a load, a few
 * instructions and a store that a quantum boundary can split.  Separate ISS instances run in
 * turns, so a critical section is interrupted by the other cores' quanta; the AMO lock must
 * still make every increment count.
 * RESULTS: [0] the counter, [1] acquisitions that found the lock held (the interleaving
 * happened), [2] times a core held the lock with f->cur naming another core, [3] cores done. */
#include "iss_test.h"
#include "core/ftl.h"

#define ITERATIONS 2000u

struct shared {
  volatile uint32_t counter, finished, bad;
  struct fw_core core[SSD_MAX_CORES];
  struct ssd_core_stats stats[SSD_MAX_CORES];
};
#define SHARED ((struct shared *)(uintptr_t)(SSD_DRAM_BASE + 0x4000u))
#define FTL ((struct ftl *)(uintptr_t)(SSD_DRAM_BASE + 0x100000u))

static void work(uint32_t id) {
  struct shared *s = SHARED;
  struct fw_core *me = &s->core[id];
  me->id = id;
  me->stats = &s->stats[id];
  hal_write32(SSD_SYSCTL_BASE + SYSCTL_IRQ_ENABLE, SSD_IRQ_IPI);
  for (uint32_t i = 0; i < ITERATIONS; i++) {
    fw_lock(FTL, me);
    const uint32_t v = s->counter;
    __asm__ volatile("nop; nop; nop; nop; nop");
    s->counter = v + 1u;
    if (FTL->cur != me) s->bad++;
    fw_unlock(FTL);
  }
  __atomic_fetch_add(&s->finished, 1u, __ATOMIC_ACQ_REL);
}

void secondary_main(void) {
  work(hal_read32(SSD_SYSCTL_BASE + SYSCTL_CORE_ID));
  for (;;) hal_sleep();
}

void fw_main(void) {
  const uint32_t cores = hal_read32(SSD_SYSCTL_BASE + SYSCTL_NUM_CORES);
  work(0);
  while (SHARED->finished < cores) {}
  uint32_t waits = 0;
  for (uint32_t k = 0; k < cores; k++) waits += (uint32_t)SHARED->stats[k].lock_waits;
  RESULTS[0] = SHARED->counter;
  RESULTS[1] = waits;
  RESULTS[2] = SHARED->bad;
  RESULTS[3] = SHARED->finished;
  done();
}
