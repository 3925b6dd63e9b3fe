/* Shared by the ISS core test programs: where results go and how a program ends. */
#ifndef ISS_TEST_H
#define ISS_TEST_H
#include <stdint.h>
#include "hal/hal.h"

#define RESULTS ((volatile uint32_t *)(uintptr_t)(SSD_DRAM_BASE + 0x2000u))
#define ISS_TEST_DONE 0x600Du

static inline uint32_t now_lo(void) { return hal_read32(SSD_TIMER_BASE + TIMER_NOW_LO); }
static inline void done(void) {
  hal_halt(ISS_TEST_DONE);
  for (;;) {}
}
#define CSR_READ(name) ({ uint32_t v_; __asm__ volatile("csrr %0, " #name : "=r"(v_)); v_; })
#define CSR_WRITE(name, v) __asm__ volatile("csrw " #name ", %0" ::"r"(v))
#endif
