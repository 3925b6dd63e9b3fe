// A HAL for firmware unit tests: DRAM is a plain host buffer, registers are not reachable
// (any access fails the test), a halt fails the test with its code and the firmware's last
// message unless the test said it expects halts (they are recorded either way).  It lets the FTL's data structures be
// tested without a platform; everything that needs hardware is tested on the platform.
#include "hal_arena.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace {
// calloc'd: pages the firmware never touches are never mapped, so a test may give it the
// largest DRAM (2 GiB) and use a few pages at its end.
std::unique_ptr<uint8_t, decltype(&std::free)> g_dram{nullptr, &std::free};
std::vector<uint32_t> g_halts;
std::string g_uart;          // the firmware's messages since the last halt
bool g_expect_halts = false;
}  // namespace

void hal_arena_reset(size_t bytes) {
  g_dram.reset(static_cast<uint8_t*>(std::calloc(bytes, 1)));
  if (!g_dram) {
    std::fprintf(stderr, "hal_arena: no memory for %zu bytes of DRAM\n", bytes);
    std::abort();
  }
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
void* hal_dram_ptr(uint32_t addr) { return g_dram.get() + (addr - SSD_DRAM_BASE); }
uint32_t hal_dram_addr(const void* p) {
  return uint32_t(static_cast<const uint8_t*>(p) - g_dram.get()) + SSD_DRAM_BASE;
}
void* hal_sram(void) { return nullptr; }
// The firmware sleeps only for good, after a halt: the test process ends there (a test that
// provokes it runs it in EXPECT_EXIT), rather than spinning in the firmware's last loop.
void hal_sleep(void) {
  // Which halt stopped it, for the death test's matcher ("stopped after halt 0x...").
  if (!g_halts.empty()) std::fprintf(stderr, "firmware stopped after halt 0x%08x\n", g_halts.back());
  std::fflush(nullptr);
  std::_Exit(kFirmwareStoppedExit);
}
void hal_wait_for_event(void) {}
void hal_cost(enum hal_cost, uint32_t) {}
void hal_relax(void) {}
}
