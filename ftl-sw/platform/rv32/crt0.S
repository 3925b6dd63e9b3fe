/* Start-up code of an ssdvp RV32 core: global pointer, a stack at the top of this core's SRAM
 * window, the trap vector, .bss cleared by core 0, then fw_main on core 0.  Other cores sleep
 * (secondary_main, when the image has one, runs first).  A trap the firmware does not expect halts
 * the platform with mcause in the halt code. */
#include "hal/regs.h"

  .section .text.init, "ax"
  .globl _start
  .type _start, @function
_start:
  .option push
  .option norelax
  la gp, __global_pointer$
  .option pop
  li t0, SSD_SYSCTL_BASE
  lw a0, SYSCTL_CORE_ID(t0)
  addi t1, a0, 1
  li t2, SSD_SRAM_PER_CORE
  mul t1, t1, t2
  li t2, SSD_SRAM_BASE
  add sp, t1, t2
  la t0, trap_entry
  csrw mtvec, t0
  bnez a0, secondary
  la t0, __bss_start
  la t1, __bss_end
1:
  bgeu t0, t1, 2f
  sw zero, 0(t0)
  addi t0, t0, 4
  j 1b
2:
  call fw_main
  j halt_unexpected

/* Other cores run secondary_main(core id) if the image has one (weak: 0 when absent). */
  .weak secondary_main
secondary:
  lui t0, %hi(secondary_main)
  addi t0, t0, %lo(secondary_main)
  beqz t0, 5f
  jalr t0
5:
  li t0, SSD_SYSCTL_BASE
3:
  sw zero, SYSCTL_SLEEP(t0)
  j 3b

  .align 4
trap_entry:
  csrr a0, mcause
halt_unexpected:
  li t0, SSD_SYSCTL_BASE
  li t1, 0xE0000000
  or a0, a0, t1
  sw a0, SYSCTL_HALT(t0)
4:
  j 4b
