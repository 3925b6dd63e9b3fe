/* Sleep until interrupt: with the timer line enabled and its compare 50 us ahead, a write to
 * SYSCTL_SLEEP stops the core until the line is pending.  RESULTS: [0] ns slept (>= 50000),
 * [1] 1 if the timer line is what is pending. */
#include "iss_test.h"

void fw_main(void) {
  hal_write32(SSD_SYSCTL_BASE + SYSCTL_IRQ_ENABLE, SSD_IRQ_TIMER);
  const uint32_t t0 = now_lo();
  hal_write32(SSD_TIMER_BASE + TIMER_CMP_HI, 0);
  hal_write32(SSD_TIMER_BASE + TIMER_CMP_LO, t0 + 50000);
  hal_sleep();
  RESULTS[0] = now_lo() - t0;
  RESULTS[1] = (hal_read32(SSD_SYSCTL_BASE + SYSCTL_IRQ_PENDING) & SSD_IRQ_TIMER) != 0;
  done();
}
