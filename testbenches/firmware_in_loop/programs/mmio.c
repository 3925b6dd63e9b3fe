/* MMIO routing: the UART gets a line, system control answers with the core id and DRAM
 * size, and then an access to a window with no device is a bus error that stops the run.
 * RESULTS: [0] core id, [1] DRAM size. */
#include "iss_test.h"

void fw_main(void) {
  hal_puts("hello from the ISS\n");
  RESULTS[0] = hal_read32(SSD_SYSCTL_BASE + SYSCTL_CORE_ID);
  RESULTS[1] = hal_read32(SSD_SYSCTL_BASE + SYSCTL_DRAM_SIZE);
  (void)hal_read32(SSD_MBOX_BASE);   /* nothing is mapped there: bus error */
  done();
}
