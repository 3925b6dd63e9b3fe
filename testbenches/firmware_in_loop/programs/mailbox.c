/* Two cores exchange mailbox messages: core 0 sends 100 numbers to core 1, which answers
 * each with the number + 1000 after sleeping until its mailbox line rises.
 * RESULTS: [0] answers received, [1] 1 if every answer was right and came from core 1,
 * [2] core 1's MBOX_STATUS (0: nothing dropped). */
#include "iss_test.h"

static uint32_t receive(void) {
  while (hal_read32(SSD_MBOX_BASE + MBOX_RECV_COUNT) == 0) {
    hal_write32(SSD_SYSCTL_BASE + SYSCTL_IRQ_PENDING, SSD_IRQ_MBOX);
    if (hal_read32(SSD_MBOX_BASE + MBOX_RECV_COUNT)) break;
    hal_sleep();
  }
  return hal_read32(SSD_MBOX_BASE + MBOX_RECV_DATA);
}

void secondary_main(uint32_t core) {
  (void)core;
  hal_write32(SSD_SYSCTL_BASE + SYSCTL_IRQ_ENABLE, SSD_IRQ_MBOX);
  hal_write32(SSD_MBOX_BASE + MBOX_SEND_TARGET, 0);
  for (;;) {
    const uint32_t v = receive();
    hal_write32(SSD_MBOX_BASE + MBOX_SEND_DATA, v + 1000u);
  }
}

void fw_main(void) {
  hal_write32(SSD_SYSCTL_BASE + SYSCTL_IRQ_ENABLE, SSD_IRQ_MBOX);
  hal_write32(SSD_MBOX_BASE + MBOX_SEND_TARGET, 1);
  uint32_t ok = 1, n = 0;
  for (uint32_t i = 0; i < 100; i++) {
    hal_write32(SSD_MBOX_BASE + MBOX_SEND_DATA, i);
    while (hal_read32(SSD_MBOX_BASE + MBOX_RECV_COUNT) == 0) {
      hal_write32(SSD_SYSCTL_BASE + SYSCTL_IRQ_PENDING, SSD_IRQ_MBOX);
      if (hal_read32(SSD_MBOX_BASE + MBOX_RECV_COUNT)) break;
      hal_sleep();
    }
    const uint32_t from = hal_read32(SSD_MBOX_BASE + MBOX_RECV_FROM);
    const uint32_t v = hal_read32(SSD_MBOX_BASE + MBOX_RECV_DATA);
    ok &= (v == i + 1000u) && from == 1u;
    n++;
  }
  RESULTS[0] = n;
  RESULTS[1] = ok;
  RESULTS[2] = hal_read32(SSD_MBOX_BASE + MBOX_STATUS);
  done();
}
