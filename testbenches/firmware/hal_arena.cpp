// A HAL for firmware unit tests: DRAM is a plain host buffer, registers are not reachable
// (any access fails the test), a halt fails the test with its code and the firmware's last
// message unless the test said it expects halts (they are recorded either way).  It lets the FTL's data structures be
// tested without a platform; everything that needs hardware is tested on the platform.
#include "hal_arena.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {
std::vector<uint8_t> g_dram;
std::vector<uint32_t> g_halts;
std::string g_uart;          // the firmware's messages since the last halt
bool g_expect_halts = false;
}  // namespace

void hal_arena_reset(size_t bytes) {
  g_dram.assign(bytes, 0);
  g_halts.clear();
  g_uart.clear();
  g_expect_halts = false;
}
void hal_arena_expect_halts(bool expect) { g_expect_halts = expect; }
const std::vector<uint32_t>& hal_arena_halts() { return g_halts; }

extern "C" {
uint32_t hal_read32(uint32_t addr) {
  ADD_FAILURE() << "firmware unit test touched register 0x" << std::hex << addr;
  return 0;
}
void hal_write32(uint32_t addr, uint32_t value) {
  if (addr == SSD_SYSCTL_BASE + SYSCTL_HALT) {
    g_halts.push_back(value);
    if (!g_expect_halts) ADD_FAILURE() << "firmware halted with code 0x" << std::hex << value << ": " << g_uart;
    g_uart.clear();
    return;
  }
  if (addr == SSD_UART_BASE + UART_TX) {
    g_uart.push_back(char(value));
    return;
  }
  ADD_FAILURE() << "firmware unit test wrote register 0x" << std::hex << addr;
}
void* hal_dram_ptr(uint32_t addr) { return g_dram.data() + (addr - SSD_DRAM_BASE); }
uint32_t hal_dram_addr(const void* p) {
  return uint32_t(static_cast<const uint8_t*>(p) - g_dram.data()) + SSD_DRAM_BASE;
}
void* hal_sram(void) { return nullptr; }
void hal_sleep(void) {}
void hal_wait_for_event(void) {}
void hal_cost(enum hal_cost, uint32_t) {}
void hal_relax(void) {}
}
