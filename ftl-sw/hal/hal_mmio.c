/* The HAL, MMIO flavour: the firmware cross-compiled for RV32 and run on the ISS.  Registers
 * are volatile accesses, DRAM addresses are pointers, sleeping is a write to SYSCTL_SLEEP (the
 * core stops until an interrupt), and time is the instructions themselves: hal_cost is free. */
#include "hal/hal.h"

uint32_t hal_read32(uint32_t addr) { return *(volatile uint32_t *)(uintptr_t)addr; }
void hal_write32(uint32_t addr, uint32_t value) { *(volatile uint32_t *)(uintptr_t)addr = value; }
void *hal_dram_ptr(uint32_t dram_addr) { return (void *)(uintptr_t)dram_addr; }
uint32_t hal_dram_addr(const void *ptr) { return (uint32_t)(uintptr_t)ptr; }
void *hal_sram(void) {
  return (void *)(uintptr_t)(SSD_SRAM_BASE + hal_read32(SSD_SYSCTL_BASE + SYSCTL_CORE_ID) * SSD_SRAM_PER_CORE);
}
/* Never inlined: the sleeping store is then the last instruction before the return, which
 * ends the ISS's basic block.  With per-block quanta the ISS stops at a block's end, so
 * anything inlined after the store would run before the core sleeps, on what it read before
 * the wake-up (a core could see its mailbox message, leave its wait loop and then sleep
 * with nothing left to wake it). */
__attribute__((noinline)) void hal_sleep(void) { hal_write32(SSD_SYSCTL_BASE + SYSCTL_SLEEP, 1); }
__attribute__((noinline)) void hal_wait_for_event(void) { hal_write32(SSD_SYSCTL_BASE + SYSCTL_WAIT_EVENT, 1); }
void hal_cost(enum hal_cost kind, uint32_t count) {
  (void)kind;
  (void)count;
}
void hal_relax(void) {}
