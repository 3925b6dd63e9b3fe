/* Quantum timing: two timer reads 1001 instructions apart (the first read, 1000 nops) must
 * be exactly 1001 x CPI / clock apart, whatever the quantum.  RESULTS[0] = the difference in
 * ns. */
#include "iss_test.h"

void fw_main(void) {
  uint32_t t0, t1;
  __asm__ volatile(
      "lw %0, %2(%3)\n"
      ".rept 1000\n nop\n .endr\n"
      "lw %1, %2(%3)\n"
      : "=&r"(t0), "=&r"(t1)
      : "i"(TIMER_NOW_LO), "r"(SSD_TIMER_BASE)
      : "memory");
  RESULTS[0] = t1 - t0;
  done();
}
