// Rv32Iss on Unicorn 2: exact instruction counts from a code hook that counts every
// instruction and ends the run before the first one past the budget; early ends requested
// from MMIO callbacks take effect at the next instruction (stopping Unicorn inside an MMIO
// callback would restart the accessing instruction); ecall/ebreak reported with the PC
// Unicorn gives (already past them) turned back into the instruction's address.
#include <unicorn/unicorn.h>

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "models/cpu/rv32_iss.h"

namespace ssdvp {

namespace {

constexpr uint32_t kCauseEcallU = 8, kCauseEcallM = 11, kCauseBreakpoint = 3;

std::string hex(uint64_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}

void check(uc_err e, const std::string& what) {
  if (e != UC_ERR_OK) throw std::runtime_error("ISS: " + what + ": " + uc_strerror(e));
}

int csr_reg(Rv32Iss::Csr c) {
  switch (c) {
    case Rv32Iss::Csr::Mstatus: return UC_RISCV_REG_MSTATUS;
    case Rv32Iss::Csr::Mtvec: return UC_RISCV_REG_MTVEC;
    case Rv32Iss::Csr::Mepc: return UC_RISCV_REG_MEPC;
    case Rv32Iss::Csr::Mcause: return UC_RISCV_REG_MCAUSE;
    default: return UC_RISCV_REG_MIE;
  }
}

class UnicornRv32 final : public Rv32Iss {
 public:
  UnicornRv32() {
    check(uc_open(UC_ARCH_RISCV, UC_MODE_RISCV32, &uc_), "cannot open a RISC-V 32 engine");
    install_code_hook();
    uc_hook h;
    check(uc_hook_add(uc_, &h, UC_HOOK_INTR, reinterpret_cast<void*>(&UnicornRv32::hook_intr), this, 1, 0), "trap hook");
    check(uc_hook_add(uc_, &h, UC_HOOK_MEM_INVALID, reinterpret_cast<void*>(&UnicornRv32::hook_invalid), this, 1, 0),
          "invalid-access hook");
  }
  ~UnicornRv32() override { uc_close(uc_); }

  void map_memory(uint32_t base, uint32_t size, uint8_t* host, bool executable) override {
    check(uc_mem_map_ptr(uc_, base, size, executable ? UC_PROT_ALL : (UC_PROT_READ | UC_PROT_WRITE), host),
          "map memory at " + hex(base));
  }
  void map_mmio(uint32_t base, uint32_t size, Bus& bus) override {
    check(uc_mmio_map(uc_, base, size, &UnicornRv32::mmio_read_cb, &bus, &UnicornRv32::mmio_write_cb, &bus),
          "map peripherals");
  }

  uint64_t simulate(uint64_t count) override {
    const uint64_t start = counter_;
    limit_ = counter_ + count;
    error_.clear();
    const uc_err err = uc_emu_start(uc_, pc(), 0xFFFFFFFFull, 0, 0);
    if (err != UC_ERR_OK && !trap_pending_ && error_.empty())
      error_ = std::string(uc_strerror(err)) + " at pc " + hex(pc());
    return counter_ - start;
  }
  void end_after_current() override { limit_ = counter_; }
  uint64_t retired() const override { return counter_; }
  bool take_trap(Trap& out) override {
    if (!trap_pending_) return false;
    trap_pending_ = false;
    out = trap_;
    return true;
  }
  std::string error() const override { return error_; }

  uint32_t reg(unsigned n) const override {
    uint32_t v = 0;
    if (n) uc_reg_read(uc_, int(UC_RISCV_REG_X0 + n), &v);
    return v;
  }
  void set_reg(unsigned n, uint32_t v) override {
    if (n) uc_reg_write(uc_, int(UC_RISCV_REG_X0 + n), &v);
  }
  uint32_t pc() const override {
    uint32_t v = 0;
    uc_reg_read(uc_, UC_RISCV_REG_PC, &v);
    return v;
  }
  void set_pc(uint32_t v) override {
    uc_reg_write(uc_, UC_RISCV_REG_PC, &v);
    skip_breakpoint_at_ = v;
  }
  uint32_t csr(Csr c) const override {
    uint32_t v = 0;
    uc_reg_read(uc_, csr_reg(c), &v);
    return v;
  }
  void set_csr(Csr c, uint32_t v) override { uc_reg_write(uc_, csr_reg(c), &v); }
  bool read_mem(uint32_t addr, uint8_t* out, uint32_t len) override {
    return uc_mem_read(uc_, addr, out, len) == UC_ERR_OK;
  }
  bool write_mem(uint32_t addr, const uint8_t* in, uint32_t len) override {
    return uc_mem_write(uc_, addr, in, len) == UC_ERR_OK;
  }

  void set_breakpoint_filter(std::function<bool(uint32_t)> f) override {
    breakpoint_ = std::move(f);
    install_code_hook();
  }
  void enable_profile(uint32_t code_size) override {
    profile_.assign(code_size / 2, 0);
    install_code_hook();
  }
  const std::vector<uint32_t>& profile_counts() const override { return profile_; }
  void reset_profile() override { std::fill(profile_.begin(), profile_.end(), 0u); }

 private:
  // The per-instruction hook is the ISS's main cost: the plain one only counts; the full one
  // (breakpoints or profiling on) also checks the PC.
  void install_code_hook() {
    if (code_hook_) uc_hook_del(uc_, code_hook_);
    const bool full = breakpoint_ || !profile_.empty();
    void* fn = full ? reinterpret_cast<void*>(&UnicornRv32::hook_code_full) : reinterpret_cast<void*>(&UnicornRv32::hook_code);
    check(uc_hook_add(uc_, &code_hook_, UC_HOOK_CODE, fn, this, 1, 0), "code hook");
  }

  static void hook_code(uc_engine* uc, uint64_t, uint32_t, void* self) {
    auto* c = static_cast<UnicornRv32*>(self);
    if (c->counter_ >= c->limit_) {
      uc_emu_stop(uc);
      return;
    }
    c->counter_++;
  }

  // Before every instruction: ends the run at the budget or a breakpoint, else counts it.
  static void hook_code_full(uc_engine* uc, uint64_t address, uint32_t, void* self) {
    auto* c = static_cast<UnicornRv32*>(self);
    if (c->counter_ >= c->limit_) {
      uc_emu_stop(uc);
      return;
    }
    if (c->breakpoint_ && uint32_t(address) != c->skip_breakpoint_at_ && c->breakpoint_(uint32_t(address))) {
      c->skip_breakpoint_at_ = uint32_t(address);   // resuming from here steps over it
      uc_emu_stop(uc);
      return;
    }
    c->skip_breakpoint_at_ = 0xFFFFFFFFu;
    c->counter_++;
    if (address < c->profile_.size() * 2) c->profile_[address >> 1]++;
  }

  static void hook_intr(uc_engine* uc, uint32_t intno, void* self) {
    auto* c = static_cast<UnicornRv32*>(self);
    const uint32_t pc = c->pc();
    Trap t{intno, pc};
    // Unicorn reports ecall as the U-mode code (8) whatever the privilege (the hart runs in
    // M-mode: 11), and ecall/ebreak with the PC already past the instruction.
    if (intno == kCauseEcallU || intno == kCauseEcallM) {
      t = Trap{kCauseEcallM, pc - 4};
    } else if (intno == kCauseBreakpoint) {
      uint8_t half[2] = {0, 0};
      const bool compressed = pc >= 2 && uc_mem_read(uc, pc - 2, half, 2) == UC_ERR_OK && half[0] == 0x02 && half[1] == 0x90;
      t.epc = pc - (compressed ? 2 : 4);
    }
    c->trap_ = t;
    c->trap_pending_ = true;
    uc_emu_stop(uc);
  }

  static bool hook_invalid(uc_engine*, uc_mem_type type, uint64_t address, int size, int64_t, void* self) {
    auto* c = static_cast<UnicornRv32*>(self);
    const char* what = type == UC_MEM_FETCH_UNMAPPED || type == UC_MEM_FETCH_PROT   ? "fetch from"
                       : type == UC_MEM_WRITE_UNMAPPED || type == UC_MEM_WRITE_PROT ? "write to"
                                                                                    : "read from";
    c->error_ = std::string(what) + " unmapped address " + hex(address) + " (" + std::to_string(size) + " bytes)";
    return false;
  }

  static uint64_t mmio_read_cb(uc_engine*, uint64_t offset, unsigned size, void* bus) {
    auto* b = static_cast<Bus*>(bus);
    return b->mmio_read(uint32_t(offset), size);
  }
  static void mmio_write_cb(uc_engine*, uint64_t offset, unsigned size, uint64_t value, void* bus) {
    static_cast<Bus*>(bus)->mmio_write(uint32_t(offset), size, uint32_t(value));
  }

  uc_engine* uc_ = nullptr;
  uc_hook code_hook_ = 0;
  uint64_t counter_ = 0, limit_ = 0;
  bool trap_pending_ = false;
  Trap trap_;
  std::string error_;
  std::function<bool(uint32_t)> breakpoint_;
  uint32_t skip_breakpoint_at_ = 0xFFFFFFFFu;
  std::vector<uint32_t> profile_;
};

}  // namespace

std::unique_ptr<Rv32Iss> make_unicorn_rv32() { return std::make_unique<UnicornRv32>(); }

}  // namespace ssdvp
