#include "models/cpu/iss_core.h"

#include <unicorn/unicorn.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <cstring>
#include <sstream>

#include "models/bus/register_access.h"
#include "models/common/fatal.h"
#include "models/cpu/sysctl.h"
#include "models/dram/dram.h"

extern "C" {
#include "ftl-sw/hal/regs.h"
}

namespace ssdvp {

namespace {

constexpr uint32_t kPeriphSize = 0x6000;            // HIF .. SYSCTL windows
constexpr uint32_t kMstatusMie = 1u << 3, kMstatusMpie = 1u << 7, kMstatusMpp = 3u << 11;
constexpr uint32_t kMieMeie = 1u << 11;
constexpr uint32_t kCauseMachineExternal = 0x8000000Bu;
constexpr uint32_t kCauseEcallU = 8, kCauseEcallM = 11, kCauseBreakpoint = 3;

std::string hex(uint64_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}

void check(uc_err e, const std::string& what) {
  if (e != UC_ERR_OK) throw std::runtime_error("ISS: " + what + ": " + uc_strerror(e));
}

}  // namespace

std::vector<MemoryRegion> IssCore::loadable_regions(uint32_t core_id) {
  return {{kCodeBase, kCodeSize, "code"}, {SSD_SRAM_BASE + core_id * SSD_SRAM_PER_CORE, SSD_SRAM_PER_CORE, "SRAM"}};
}

IssCore::IssCore(sc_core::sc_module_name name, uint32_t core_id, const IssParams& p, Dram& dram, SysCtl& sysctl,
                 const ElfImage& image)
    : sc_core::sc_module(name),
      socket("socket"),
      id_(core_id),
      p_(p),
      dram_(dram),
      sysctl_(sysctl),
      code_(kCodeSize, 0),
      sram_(SSD_SRAM_PER_CORE, 0),
      instr_ps_(p.cpi * 1e6 / p.clock_mhz) {
  check(uc_open(UC_ARCH_RISCV, UC_MODE_RISCV32, &uc_), "cannot open a RISC-V 32 engine");
  const uint32_t sram_base = SSD_SRAM_BASE + core_id * SSD_SRAM_PER_CORE;
  check(uc_mem_map_ptr(uc_, kCodeBase, kCodeSize, UC_PROT_ALL, code_.data()), "map code");
  check(uc_mem_map_ptr(uc_, sram_base, SSD_SRAM_PER_CORE, UC_PROT_READ | UC_PROT_WRITE, sram_.data()), "map SRAM");
  check(uc_mem_map_ptr(uc_, SSD_DRAM_BASE, dram.size(), UC_PROT_READ | UC_PROT_WRITE, dram.base()), "map DRAM");
  check(uc_mmio_map(uc_, SSD_PERIPH_BASE, kPeriphSize, &IssCore::mmio_read_cb, this, &IssCore::mmio_write_cb, this),
        "map peripherals");
  for (const ElfSegment& s : image.segments) {
    uint8_t* dst = s.vaddr >= sram_base ? &sram_[s.vaddr - sram_base] : &code_[s.vaddr - kCodeBase];
    std::memcpy(dst, s.bytes.data(), s.bytes.size());
    std::memset(dst + s.bytes.size(), 0, s.memsz - s.bytes.size());
  }
  if (p.profile) {
    pc_counts_.assign(kCodeSize / 2, 0);
    for (const auto& [name, addr] : image.symbols)
      if (addr < kCodeSize) functions_.emplace_back(addr, name);
    std::sort(functions_.begin(), functions_.end());
  }
  uint32_t pc = image.entry;
  check(uc_reg_write(uc_, UC_RISCV_REG_PC, &pc), "set PC");
  uc_hook h;
  check(uc_hook_add(uc_, &h, UC_HOOK_CODE, reinterpret_cast<void*>(&IssCore::hook_code), this, 1, 0), "code hook");
  check(uc_hook_add(uc_, &h, UC_HOOK_INTR, reinterpret_cast<void*>(&IssCore::hook_intr), this, 1, 0), "trap hook");
  check(uc_hook_add(uc_, &h, UC_HOOK_MEM_INVALID, reinterpret_cast<void*>(&IssCore::hook_invalid), this, 1, 0),
        "invalid-access hook");
  sysctl_.on_sleep.at(core_id) = [this](bool clear) {
    sleep_requested_ = true;
    clear_on_wake_ = clear;
    end_quantum_after_this_instruction();
  };
  SC_HAS_PROCESS(IssCore);
  SC_THREAD(run);
}

IssCore::~IssCore() {
  if (uc_) uc_close(uc_);
}

uint32_t IssCore::pc() const {
  uint32_t pc = 0;
  uc_reg_read(uc_, UC_RISCV_REG_PC, &pc);
  return pc;
}

// Runs before every instruction: counts it, or ends the quantum before it executes.
void IssCore::hook_code(uc_struct* uc, uint64_t address, uint32_t, void* self) {
  auto* c = static_cast<IssCore*>(self);
  if (c->counter_ >= c->limit_) {
    uc_emu_stop(uc);
    return;
  }
  if (c->gdb_ && c->gdb_->has_breakpoints() && uint32_t(address) != c->resume_pc_ && c->gdb_->breakpoint_at(uint32_t(address))) {
    c->debug_halt_ = true;   // stop before the instruction at the breakpoint
    uc_emu_stop(uc);
    return;
  }
  c->resume_pc_ = 0xFFFFFFFFu;
  c->counter_++;
  if (!c->pc_counts_.empty() && address < kCodeSize) c->pc_counts_[address >> 1]++;
}

std::vector<std::pair<std::string, uint64_t>> IssCore::profile() const {
  std::map<std::string, uint64_t> by_function;
  for (size_t i = 0; i < pc_counts_.size(); i++) {
    if (!pc_counts_[i]) continue;
    const uint32_t pc = uint32_t(i << 1);
    auto it = std::upper_bound(functions_.begin(), functions_.end(), std::make_pair(pc, std::string("\xff")));
    by_function[it == functions_.begin() ? "?" : std::prev(it)->second] += pc_counts_[i];
  }
  std::vector<std::pair<std::string, uint64_t>> out(by_function.begin(), by_function.end());
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return out;
}

void IssCore::hook_intr(uc_struct* uc, uint32_t intno, void* self) {
  auto* c = static_cast<IssCore*>(self);
  uint32_t pc = 0;
  uc_reg_read(uc, UC_RISCV_REG_PC, &pc);
  uint32_t cause = intno, epc = pc;
  // Unicorn reports ecall as the U-mode code (8) whatever the privilege (the core runs in
  // M-mode: 11), and ecall/ebreak with the PC already past the instruction.
  if (intno == kCauseEcallU || intno == kCauseEcallM) {
    cause = kCauseEcallM;
    epc = pc - 4;
  } else if (intno == kCauseBreakpoint) {
    const uint8_t* code = c->code_.data();
    const bool compressed = pc >= 2 && pc - 2 < kCodeSize && code[pc - 2] == 0x02 && code[pc - 1] == 0x90;
    epc = pc - (compressed ? 2 : 4);
  }
  c->trap_pending_ = true;
  c->trap_cause_ = cause;
  c->trap_epc_ = epc;
  uc_emu_stop(uc);
}

bool IssCore::hook_invalid(uc_struct*, int type, uint64_t address, int size, int64_t, void* self) {
  auto* c = static_cast<IssCore*>(self);
  const char* what = type == UC_MEM_FETCH_UNMAPPED || type == UC_MEM_FETCH_PROT ? "fetch from"
                     : type == UC_MEM_WRITE_UNMAPPED || type == UC_MEM_WRITE_PROT ? "write to"
                                                                                   : "read from";
  c->stop_error_ = true;
  c->error_ = std::string("firmware core ") + std::to_string(c->id_) + ": " + what + " unmapped address " +
              hex(address) + " (" + std::to_string(size) + " bytes)";
  return false;
}

uint64_t IssCore::mmio_read_cb(uc_struct*, uint64_t offset, unsigned size, void* self) {
  return static_cast<IssCore*>(self)->mmio_read(offset, size);
}

void IssCore::mmio_write_cb(uc_struct*, uint64_t offset, unsigned size, uint64_t value, void* self) {
  static_cast<IssCore*>(self)->mmio_write(offset, size, value);
}

// Stopping the engine from inside an MMIO callback would restart the accessing instruction
// (Unicorn rolls the PC back), repeating its side effect; instead the code hook ends the
// quantum before the next instruction.
void IssCore::end_quantum_after_this_instruction() { limit_ = counter_; }

bool IssCore::access(tlm::tlm_command cmd, uint32_t addr, uint32_t* data) {
  sysctl_.set_current_core(id_);
  prepare_register_access(trans_, cmd, addr, data);
  // Local time: the instructions already executed in this quantum.
  sc_core::sc_time delay(double(counter_ - quantum_start_) * instr_ps_, sc_core::SC_PS);
  socket->b_transport(trans_, delay);
  mmio_++;
  if (trans_.is_response_error()) {
    stop_error_ = true;
    error_ = "firmware core " + std::to_string(id_) + ": bus error at register " + hex(addr) + " (pc " + hex(pc()) + ")";
    end_quantum_after_this_instruction();
    return false;
  }
  if (!fatal_errors().empty()) end_quantum_after_this_instruction();
  return true;
}

uint64_t IssCore::mmio_read(uint64_t offset, unsigned size) {
  const uint32_t addr = uint32_t(SSD_PERIPH_BASE + offset);
  if (size != 4 || (addr & 3u)) {
    stop_error_ = true;
    error_ = "firmware core " + std::to_string(id_) + ": " + std::to_string(size) + "-byte read of register " +
             hex(addr) + " (registers are 32-bit)";
    end_quantum_after_this_instruction();
    return 0;
  }
  uint32_t v = 0;
  access(tlm::TLM_READ_COMMAND, addr, &v);
  return v;
}

void IssCore::mmio_write(uint64_t offset, unsigned size, uint64_t value) {
  const uint32_t addr = uint32_t(SSD_PERIPH_BASE + offset);
  if (size != 4 || (addr & 3u)) {
    stop_error_ = true;
    error_ = "firmware core " + std::to_string(id_) + ": " + std::to_string(size) + "-byte write of register " +
             hex(addr) + " (registers are 32-bit)";
    end_quantum_after_this_instruction();
    return;
  }
  uint32_t v = uint32_t(value);
  access(tlm::TLM_WRITE_COMMAND, addr, &v);
}

// Enters the trap handler as the hardware would: mepc, mcause, mstatus (MPIE <- MIE, MIE <- 0,
// MPP <- M), PC <- mtvec (direct mode; vectored mode for interrupts).
void IssCore::enter_trap(uint32_t cause, uint32_t epc) {
  uint32_t mstatus = 0, mtvec = 0;
  uc_reg_read(uc_, UC_RISCV_REG_MSTATUS, &mstatus);
  uc_reg_read(uc_, UC_RISCV_REG_MTVEC, &mtvec);
  mstatus = (mstatus & ~(kMstatusMpie | kMstatusMie)) | ((mstatus & kMstatusMie) ? kMstatusMpie : 0) | kMstatusMpp;
  uc_reg_write(uc_, UC_RISCV_REG_MSTATUS, &mstatus);
  uc_reg_write(uc_, UC_RISCV_REG_MEPC, &epc);
  uc_reg_write(uc_, UC_RISCV_REG_MCAUSE, &cause);
  uint32_t pc = mtvec & ~3u;
  if ((mtvec & 3u) == 1u && (cause & 0x80000000u)) pc += 4 * (cause & 0x7FFFFFFFu);
  uc_reg_write(uc_, UC_RISCV_REG_PC, &pc);
  traps_++;
}

// A pending, enabled interrupt line is taken between quanta when the core allows it.
bool IssCore::take_interrupt() {
  if (!sysctl_.irq_ready(id_)) return false;
  uint32_t mstatus = 0, mie = 0;
  uc_reg_read(uc_, UC_RISCV_REG_MSTATUS, &mstatus);
  uc_reg_read(uc_, UC_RISCV_REG_MIE, &mie);
  if (!(mstatus & kMstatusMie) || !(mie & kMieMeie)) return false;
  enter_trap(kCauseMachineExternal, pc());
  return true;
}

uint32_t IssCore::read_reg(unsigned n) {
  uint32_t v = 0;
  if (n == 0) return 0;
  uc_reg_read(uc_, n == 32 ? UC_RISCV_REG_PC : int(UC_RISCV_REG_X0 + n), &v);
  return v;
}

void IssCore::write_reg(unsigned n, uint32_t v) {
  if (n == 0 || n > 32) return;
  uc_reg_write(uc_, n == 32 ? UC_RISCV_REG_PC : int(UC_RISCV_REG_X0 + n), &v);
}

// Debugger memory accesses reach memory only, never the peripherals.
bool IssCore::read_mem(uint32_t addr, uint8_t* out, uint32_t len) {
  if (uint64_t(addr) + len > SSD_PERIPH_BASE && addr < SSD_PERIPH_BASE + kPeriphSize) return false;
  return uc_mem_read(uc_, addr, out, len) == UC_ERR_OK;
}

bool IssCore::write_mem(uint32_t addr, const uint8_t* in, uint32_t len) {
  if (uint64_t(addr) + len > SSD_PERIPH_BASE && addr < SSD_PERIPH_BASE + kPeriphSize) return false;
  return uc_mem_write(uc_, addr, in, len) == UC_ERR_OK;
}

// Hands the halted core to the debugger until it resumes it.
bool IssCore::debug_serve() {
  const GdbServer::Resume r = gdb_->serve(*this, 5);
  debug_halt_ = false;
  debug_step_ = r == GdbServer::Resume::Step;
  if (r == GdbServer::Resume::Kill) {
    report_fatal("firmware core " + std::to_string(id_) + ": run killed from the debugger");
    return false;
  }
  if (r == GdbServer::Resume::Detach) gdb_ = nullptr;
  resume_pc_ = pc();
  return true;
}

void IssCore::halt_forever() {
  sc_core::sc_event never;
  for (;;) wait(never);
}

void IssCore::run() {
  for (;;) {
    if (!fatal_errors().empty()) halt_forever();
    if (sleep_requested_) {
      sleep_requested_ = false;
      const sc_core::sc_time t0 = sc_core::sc_time_stamp();
      while (!sysctl_.irq_ready(id_)) wait(sysctl_.irq_event(id_));
      if (clear_on_wake_) sysctl_.clear_enabled(id_);
      idle_ += sc_core::sc_time_stamp() - t0;
      wakeups_++;
    }
    take_interrupt();
    if (gdb_ && (debug_halt_ || gdb_->interrupt_requested()) && !debug_serve()) halt_forever();
    quantum_start_ = counter_;
    limit_ = counter_ + (debug_step_ ? 1u : p_.quantum_instructions);
    if (debug_step_) {
      debug_step_ = false;
      debug_halt_ = true;   // back to the debugger after this one instruction
    }
    const uint32_t start_pc = pc();
    const auto h0 = std::chrono::steady_clock::now();
    const uc_err err = uc_emu_start(uc_, start_pc, 0xFFFFFFFFull, 0, 0);
    host_exec_s_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - h0).count();
    const uint64_t executed = counter_ - quantum_start_;
    if (executed) {
      const sc_core::sc_time t(double(executed) * instr_ps_, sc_core::SC_PS);
      busy_ += t;
      wait(t);
    }
    if (stop_error_) {
      report_fatal(error_);
      halt_forever();
    }
    if (err != UC_ERR_OK && !trap_pending_) {
      report_fatal("firmware core " + std::to_string(id_) + ": " + uc_strerror(err) + " at pc " + hex(pc()));
      halt_forever();
    }
    if (trap_pending_) {
      trap_pending_ = false;
      enter_trap(trap_cause_, trap_epc_);
    }
  }
}

}  // namespace ssdvp
