/* Hardware abstraction: the only way the firmware reaches hardware.
 *
 * Two flavours implement it: native (end of models/cpu/native_core.cpp, the firmware built for the
 * host and run inside a SystemC thread, firmware time from a cost model) and MMIO (the
 * firmware cross-compiled for RV32 and run on the ISS, firmware time from instructions).
 * The firmware keeps no mutable static data: each core's state lives in its SRAM or in DRAM,
 * so several native cores can run the same code in one process. */
#ifndef SSDVP_HAL_H
#define SSDVP_HAL_H

#include <stdint.h>
#include "regs.h"

#ifdef __cplusplus
extern "C" {
#endif

uint32_t hal_read32(uint32_t addr);
void hal_write32(uint32_t addr, uint32_t value);

/* Controller DRAM: device address <-> pointer the firmware can dereference. */
void *hal_dram_ptr(uint32_t dram_addr);
uint32_t hal_dram_addr(const void *ptr);

/* This core's SRAM (SSD_SRAM_PER_CORE bytes). */
void *hal_sram(void);

/* Sleep until an enabled interrupt is pending (WFI).  Returns at once if one is. */
void hal_sleep(void);
/* Sleep as hal_sleep, then clear the enabled interrupt lines: an event loop that polls
 * everything after it returns needs no separate acknowledgement. */
void hal_wait_for_event(void);

/* Firmware time in native mode: each kind of work costs a configured number of ns
 * (docs/config.md, firmware.cost.*).  On the ISS the instructions themselves take time and
 * these calls cost nothing. */
enum hal_cost {
  HAL_COST_LOOP = 0,      /* one pass of the event loop that found work */
  HAL_COST_HOST_CMD,      /* decode and dispatch one host command */
  HAL_COST_SECTOR,        /* per 4 KiB sector of a host command (map lookup/update, buffer) */
  HAL_COST_FLASH_SUBMIT,  /* build and submit one flash descriptor */
  HAL_COST_FLASH_DONE,    /* handle one flash completion */
  HAL_COST_DMA_SUBMIT,    /* build and submit one host DMA descriptor */
  HAL_COST_GC_SECTOR,     /* GC bookkeeping per moved sector */
  HAL_COST_SPIN,          /* one turn of a spin on a lock another core holds */
  HAL_COST_KINDS
};
void hal_cost(enum hal_cost kind, uint32_t count);
/* One turn of a spin-wait on another core: natively it costs HAL_COST_SPIN (and lets the other
 * cores run); on the ISS the loop's own instructions are the cost. */
void hal_relax(void);

static inline uint64_t hal_now_ns(void) {
  uint32_t lo = hal_read32(SSD_TIMER_BASE + TIMER_NOW_LO);
  uint32_t hi = hal_read32(SSD_TIMER_BASE + TIMER_NOW_HI);
  return ((uint64_t)hi << 32) | lo;
}

static inline void hal_puts(const char *s) {
  while (*s) hal_write32(SSD_UART_BASE + UART_TX, (uint32_t)(unsigned char)*s++);
}

/* Fatal firmware error: reported to the platform, which stops the run with the code. */
/* "label=value " in decimal, for diagnostics. */
static inline void hal_put_u32(const char *label, uint32_t v) {
  char buf[12];
  int n = 0;
  do { buf[n++] = (char)('0' + v % 10u); v /= 10u; } while (v && n < 11);
  hal_puts(label);
  hal_write32(SSD_UART_BASE + UART_TX, '=');
  while (n) hal_write32(SSD_UART_BASE + UART_TX, (uint32_t)buf[--n]);
  hal_write32(SSD_UART_BASE + UART_TX, ' ');
}

static inline void hal_halt(uint32_t code) { hal_write32(SSD_SYSCTL_BASE + SYSCTL_HALT, code); }

/* A line on the UART, the halt, and no return: what the firmware does with a configuration
 * it cannot run (code SSD_HALT_BAD_CONFIG | SSD_BADCFG_*). */
static inline void hal_fatal(const char *why, uint32_t code) {
  hal_puts(why);
  hal_halt(code);
  for (;;) hal_sleep();
}

#ifdef __cplusplus
}
#endif

#endif /* SSDVP_HAL_H */
