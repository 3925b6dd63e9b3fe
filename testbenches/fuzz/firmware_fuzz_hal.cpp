// A HAL for fuzzing the host-compiled firmware: DRAM is one anonymous mapping (zero pages
// mapped when touched) and every address the firmware converts through the HAL is checked; registers are a table the harness fills (what the
// devices answer) and the firmware writes; the UART is dropped; a halt, and a sleep (the event
// loop has nothing to do), longjmp back to the harness.  In the flash controller's functional
// mode (the factory scan at format) descriptors complete at the doorbell over erased flash.
// Leaves out: time (the timer reads 0), interrupts, other cores.
#include "firmware_fuzz_hal.h"

#include <sys/mman.h>

#include <cstring>
#include <string>
#include <unordered_map>

#include "fuzz_check.h"

namespace {
uint8_t* g_dram = nullptr;
size_t g_dram_bytes = 0;
std::unordered_map<uint32_t, uint32_t> g_registers;
std::jmp_buf g_jump;
uint32_t g_halt_code = 0;
uint32_t g_cpl_tail = 0, g_cpl_phase = 1;   // flash completions posted by the functional mode

uint32_t reg(uint32_t addr) {
  const auto it = g_registers.find(addr);
  return it == g_registers.end() ? 0 : it->second;
}

// FCTL_FUNCTIONAL = 1 (the factory's bad-block scan at format): the controller executes each
// descriptor when its doorbell rings, over a new drive: every read finds erased flash.
void functional_doorbell(uint32_t tail) {
  const uint32_t sub = reg(SSD_FCTL_BASE + FCTL_SUB_RING_ADDR), subs = reg(SSD_FCTL_BASE + FCTL_SUB_RING_SIZE);
  const uint32_t cpl = reg(SSD_FCTL_BASE + FCTL_CPL_RING_ADDR), cpls = reg(SSD_FCTL_BASE + FCTL_CPL_RING_SIZE);
  ssdvp::fuzz::check(subs && cpls, "the firmware rang the flash doorbell before setting up its rings");
  uint32_t head = reg(SSD_FCTL_BASE + FCTL_SUB_HEAD);
  for (; head != tail; head++) {
    const auto* d = static_cast<const ssd_flash_desc*>(hal_dram_ptr(sub + (head % subs) * uint32_t(sizeof(ssd_flash_desc))));
    if (d->opcode == SSD_FOP_READ && d->oob_addr)
      std::memset(hal_dram_ptr(d->oob_addr), 0xFF, size_t(d->nsect) * sizeof(ssd_oob));
    auto* c = static_cast<ssd_flash_cpl*>(hal_dram_ptr(cpl + (g_cpl_tail % cpls) * uint32_t(sizeof(ssd_flash_cpl))));
    *c = ssd_flash_cpl{d->tag, SSD_FST_OK, uint16_t(g_cpl_phase), 0, 0};
    if (++g_cpl_tail % cpls == 0) g_cpl_phase ^= 1u;
  }
  g_registers[SSD_FCTL_BASE + FCTL_SUB_HEAD] = head;
}
}  // namespace

void fuzz_hal_reset(size_t bytes) {
  // Mapped once: the firmware zeroes all it allocates (fw_alloc) and its context at boot, and
  // the harness writes the configuration afresh, so DRAM needs no clearing between inputs.
  if (g_dram_bytes != bytes) {
    if (g_dram) munmap(g_dram, g_dram_bytes);
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    ssdvp::fuzz::check(p != MAP_FAILED, "cannot map the firmware's DRAM");
    g_dram = static_cast<uint8_t*>(p);
    g_dram_bytes = bytes;
  }
  g_registers.clear();
  g_halt_code = 0;
  g_cpl_tail = 0;
  g_cpl_phase = 1;
}
void fuzz_hal_flash_completions(uint32_t* tail, uint32_t* phase) {
  *tail = g_cpl_tail;
  *phase = g_cpl_phase;
}
std::jmp_buf* fuzz_hal_jump_target() { return &g_jump; }
void fuzz_hal_set_register(uint32_t addr, uint32_t value) { g_registers[addr] = value; }
uint32_t fuzz_hal_register(uint32_t addr) {
  const auto it = g_registers.find(addr);
  return it == g_registers.end() ? 0 : it->second;
}
uint32_t fuzz_hal_halt_code() { return g_halt_code; }

extern "C" {
uint32_t hal_read32(uint32_t addr) { return fuzz_hal_register(addr); }
void hal_write32(uint32_t addr, uint32_t value) {
  if (addr == SSD_SYSCTL_BASE + SYSCTL_HALT) {
    g_halt_code = value;
    std::longjmp(g_jump, kFuzzHalted);
  }
  if (addr == SSD_UART_BASE + UART_TX) return;
  if (addr == SSD_FCTL_BASE + FCTL_SUB_TAIL && reg(SSD_FCTL_BASE + FCTL_FUNCTIONAL)) functional_doorbell(value);
  g_registers[addr] = value;
}
void* hal_dram_ptr(uint32_t addr) {
  ssdvp::fuzz::check(addr >= SSD_DRAM_BASE && addr - SSD_DRAM_BASE < g_dram_bytes,
                     "the firmware made a pointer of DRAM address " + std::to_string(addr) + ", outside DRAM");
  return g_dram + (addr - SSD_DRAM_BASE);
}
uint32_t hal_dram_addr(const void* p) {
  const auto* b = static_cast<const uint8_t*>(p);
  ssdvp::fuzz::check(b >= g_dram && b <= g_dram + g_dram_bytes, "the firmware took the address of memory outside DRAM");
  return uint32_t(b - g_dram) + SSD_DRAM_BASE;
}
void* hal_sram(void) { return nullptr; }
void hal_sleep(void) { std::longjmp(g_jump, kFuzzIdle); }
void hal_wait_for_event(void) { std::longjmp(g_jump, kFuzzIdle); }
void hal_cost(enum hal_cost, uint32_t) {}
void hal_relax(void) {}
}
