/* Trap entry and return: an ecall enters the handler through mtvec with mcause 11 and mepc at
 * the ecall; the handler steps over it and mret returns.  Then a machine external interrupt
 * (the timer line) is taken with MIE set, its handler clears the line and returns.
 * RESULTS: [0] ecall mcause, [1] ecall mepc == address of the ecall, [2] interrupts taken,
 * [3] interrupt mcause, [4] mstatus.MIE restored after mret. */
#include "iss_test.h"

static volatile uint32_t interrupts;
extern void trap_vector(void);

void trap_handler(void) {
  const uint32_t cause = CSR_READ(mcause);
  if (cause & 0x80000000u) {
    interrupts++;
    RESULTS[3] = cause;
    hal_write32(SSD_TIMER_BASE + TIMER_CMP_HI, 0xFFFFFFFFu);
    hal_write32(SSD_TIMER_BASE + TIMER_CMP_LO, 0xFFFFFFFFu);
    hal_write32(SSD_SYSCTL_BASE + SYSCTL_IRQ_PENDING, SSD_IRQ_TIMER);
  } else {
    RESULTS[0] = cause;
    const uint32_t epc = CSR_READ(mepc);
    extern char ecall_site[];
    RESULTS[1] = epc == (uint32_t)(uintptr_t)ecall_site;
    CSR_WRITE(mepc, epc + 4);
  }
}

__asm__(
    ".align 4\n"
    ".globl trap_vector\n"
    "trap_vector:\n"
    "  addi sp, sp, -64\n"
    "  sw ra, 0(sp)\n sw t0, 4(sp)\n sw t1, 8(sp)\n sw t2, 12(sp)\n sw a0, 16(sp)\n sw a1, 20(sp)\n"
    "  sw a2, 24(sp)\n sw a3, 28(sp)\n sw a4, 32(sp)\n sw a5, 36(sp)\n sw t3, 40(sp)\n sw t4, 44(sp)\n"
    "  call trap_handler\n"
    "  lw ra, 0(sp)\n lw t0, 4(sp)\n lw t1, 8(sp)\n lw t2, 12(sp)\n lw a0, 16(sp)\n lw a1, 20(sp)\n"
    "  lw a2, 24(sp)\n lw a3, 28(sp)\n lw a4, 32(sp)\n lw a5, 36(sp)\n lw t3, 40(sp)\n lw t4, 44(sp)\n"
    "  addi sp, sp, 64\n"
    "  mret\n");

void fw_main(void) {
  CSR_WRITE(mtvec, (uint32_t)(uintptr_t)trap_vector);
  __asm__ volatile(".globl ecall_site\necall_site: ecall" ::: "memory");
  hal_write32(SSD_SYSCTL_BASE + SYSCTL_IRQ_ENABLE, SSD_IRQ_TIMER);
  CSR_WRITE(mie, 1u << 11);
  CSR_WRITE(mstatus, CSR_READ(mstatus) | (1u << 3));
  const uint32_t t = now_lo() + 20000;
  hal_write32(SSD_TIMER_BASE + TIMER_CMP_HI, 0);
  hal_write32(SSD_TIMER_BASE + TIMER_CMP_LO, t);
  while (!interrupts) {}
  RESULTS[2] = interrupts;
  RESULTS[4] = (CSR_READ(mstatus) >> 3) & 1u;
  done();
}
