#include "models/cpu/iss_core.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <cstring>
#include <sstream>

#include "models/bus/register_access.h"
#include "models/common/fatal.h"
#include "models/common/sim_time.h"
#include "models/cpu/sysctl.h"
#include "models/dram/dram.h"

extern "C" {
#include "ftl-sw/hal/regs.h"
}

namespace ssdvp {

namespace {

constexpr uint32_t kPeriphSize = 0x7000;            // HIF .. NOR windows
constexpr uint32_t kMstatusMie = 1u << 3, kMstatusMpie = 1u << 7, kMstatusMpp = 3u << 11;
constexpr uint32_t kMieMeie = 1u << 11;
constexpr uint32_t kCauseMachineExternal = 0x8000000Bu;

std::string hex(uint64_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
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
      iss_(make_unicorn_rv32()),
      code_(kCodeSize, 0),
      sram_(SSD_SRAM_PER_CORE, 0),
      instr_ps_(p.cpi * 1e6 / p.clock_mhz) {
  const uint32_t sram_base = SSD_SRAM_BASE + core_id * SSD_SRAM_PER_CORE;
  iss_->map_memory(kCodeBase, kCodeSize, code_.data(), true);
  iss_->map_memory(sram_base, SSD_SRAM_PER_CORE, sram_.data(), false);
  iss_->map_memory(SSD_DRAM_BASE, uint32_t(dram.size()), dram.base(), false);
  iss_->map_mmio(SSD_PERIPH_BASE, kPeriphSize, *this);
  for (const ElfSegment& s : image.segments) {
    uint8_t* dst = s.vaddr >= sram_base ? &sram_[s.vaddr - sram_base] : &code_[s.vaddr - kCodeBase];
    std::memcpy(dst, s.bytes.data(), s.bytes.size());
    std::memset(dst + s.bytes.size(), 0, s.memsz - s.bytes.size());
  }
  if (p.profile) {
    iss_->enable_profile(kCodeSize);
    for (const auto& [fname, addr] : image.symbols)
      if (addr < kCodeSize) functions_.emplace_back(addr, fname);
    std::sort(functions_.begin(), functions_.end());
  }
  iss_->set_exact(p.exact_quanta);
  run_on_ = [this](uint64_t retired) { return run_on(retired); };
  iss_->set_pc(image.entry);
  sysctl_.on_sleep.at(core_id) = [this](bool clear) {
    sleep_requested_ = true;
    clear_on_wake_ = clear;
    iss_->end_after_current();
  };
  tlm_utils::tlm_quantumkeeper::set_global_quantum(
      sc_core::sc_time(double(p.quantum_instructions) * instr_ps_, sc_core::SC_PS));
  SC_HAS_PROCESS(IssCore);
  SC_THREAD(run);
}

IssCore::~IssCore() = default;

uint32_t IssCore::pc() const { return iss_->pc(); }

std::vector<std::pair<std::string, uint64_t>> IssCore::profile() const {
  std::map<std::string, uint64_t> by_function;
  const std::vector<uint32_t>& counts = iss_->profile_counts();
  for (size_t i = 0; i < counts.size(); i++) {
    if (!counts[i]) continue;
    const uint32_t pc = uint32_t(i << 1);
    auto it = std::upper_bound(functions_.begin(), functions_.end(), std::make_pair(pc, std::string("\xff")));
    by_function[it == functions_.begin() ? "?" : std::prev(it)->second] += counts[i];
  }
  std::vector<std::pair<std::string, uint64_t>> out(by_function.begin(), by_function.end());
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return out;
}

bool IssCore::trace_functions(FunctionSpan on_function) {
  if (!p_.profile || functions_.empty()) return false;
  on_function_ = std::move(on_function);
  iss_->set_pc_observer([this](uint32_t pc, uint64_t retired) { function_at(pc, retired); });
  return true;
}

// Before the instruction at `pc`: a new span when it is outside the function running.
void IssCore::function_at(uint32_t pc, uint64_t retired) {
  if (pc >= fn_lo_ && pc < fn_hi_) return;
  const sc_core::sc_time now = chunk_t0_ + sc_core::sc_time(double(retired - chunk_start_) * instr_ps_, sc_core::SC_PS);
  end_function_span(now);
  auto it = std::upper_bound(functions_.begin(), functions_.end(), std::make_pair(pc, std::string("\xff")));
  if (it == functions_.begin()) {   // below the first symbol
    fn_lo_ = 0;
    fn_hi_ = functions_.front().first;
    fn_index_ = SIZE_MAX;
    return;
  }
  fn_index_ = size_t(std::prev(it) - functions_.begin());
  fn_lo_ = std::prev(it)->first;
  fn_hi_ = it == functions_.end() ? UINT32_MAX : it->first;
  fn_since_ = now;
}

void IssCore::end_function_span(const sc_core::sc_time& at) {
  if (fn_index_ != SIZE_MAX && on_function_ && at > fn_since_) on_function_(functions_[fn_index_].second.c_str(), fn_since_, at);
  fn_index_ = SIZE_MAX;
  fn_lo_ = 1;
  fn_hi_ = 0;
}

// Ends the quantum once the accessing instruction has retired.
void IssCore::end_quantum_after_this_instruction() { iss_->end_after_current(); }

bool IssCore::access(tlm::tlm_command cmd, uint32_t addr, uint32_t* data) {
  sysctl_.set_current_core(id_);
  prepare_register_access(trans_, cmd, addr, data);
  // Local time: the keeper's, plus the instructions since the ISS was started, this one included.
  sc_core::sc_time delay =
      qk_.get_local_time() + sc_core::sc_time(double(iss_->retired() - chunk_start_) * instr_ps_, sc_core::SC_PS);
  socket->b_transport(trans_, delay);
  mmio_++;
  if (trans_.is_response_error()) {
    stop_error_ = true;
    error_ = "firmware core " + std::to_string(id_) + ": bus error at register " + hex(addr) + " (pc " +
             hex(iss_->access_pc()) + ")";
    end_quantum_after_this_instruction();
    return false;
  }
  if (!fatal_errors().empty()) end_quantum_after_this_instruction();
  return true;
}

uint32_t IssCore::mmio_read(uint32_t offset, unsigned size) {
  const uint32_t addr = SSD_PERIPH_BASE + offset;
  if (size != 4 || (addr & 3u)) {
    stop_error_ = true;
    error_ = "firmware core " + std::to_string(id_) + ": " + std::to_string(size) + "-byte read of register " +
             hex(addr) + " at pc " + hex(iss_->access_pc()) + " (registers are 32-bit)";
    end_quantum_after_this_instruction();
    return 0;
  }
  uint32_t v = 0;
  access(tlm::TLM_READ_COMMAND, addr, &v);
  return v;
}

void IssCore::mmio_write(uint32_t offset, unsigned size, uint32_t value) {
  const uint32_t addr = SSD_PERIPH_BASE + offset;
  if (size != 4 || (addr & 3u)) {
    stop_error_ = true;
    error_ = "firmware core " + std::to_string(id_) + ": " + std::to_string(size) + "-byte write of register " +
             hex(addr) + " at pc " + hex(iss_->access_pc()) + " (registers are 32-bit)";
    end_quantum_after_this_instruction();
    return;
  }
  uint32_t v = value;
  access(tlm::TLM_WRITE_COMMAND, addr, &v);
}

// Enters the trap handler as the hardware would: mepc, mcause, mstatus (MPIE <- MIE, MIE <- 0,
// MPP <- M), PC <- mtvec (direct mode; vectored mode for interrupts).
void IssCore::enter_trap(uint32_t cause, uint32_t epc) {
  using Csr = Rv32Iss::Csr;
  uint32_t mstatus = iss_->csr(Csr::Mstatus);
  const uint32_t mtvec = iss_->csr(Csr::Mtvec);
  mstatus = (mstatus & ~(kMstatusMpie | kMstatusMie)) | ((mstatus & kMstatusMie) ? kMstatusMpie : 0) | kMstatusMpp;
  iss_->set_csr(Csr::Mstatus, mstatus);
  iss_->set_csr(Csr::Mepc, epc);
  iss_->set_csr(Csr::Mcause, cause);
  uint32_t pc = mtvec & ~3u;
  if ((mtvec & 3u) == 1u && (cause & 0x80000000u)) pc += 4 * (cause & 0x7FFFFFFFu);
  iss_->set_pc(pc);
  traps_++;
}

// A pending, enabled interrupt line is taken between quanta when the core allows it.
bool IssCore::take_interrupt() {
  if (!sysctl_.irq_ready(id_)) return false;
  if (!(iss_->csr(Rv32Iss::Csr::Mstatus) & kMstatusMie) || !(iss_->csr(Rv32Iss::Csr::Mie) & kMieMeie)) return false;
  enter_trap(kCauseMachineExternal, pc());
  return true;
}

uint32_t IssCore::read_reg(unsigned n) { return n == 32 ? iss_->pc() : iss_->reg(n); }

void IssCore::write_reg(unsigned n, uint32_t v) {
  if (n == 32) iss_->set_pc(v);
  else if (n < 32) iss_->set_reg(n, v);
}

// Debugger memory accesses reach memory only, never the peripherals.
bool IssCore::read_mem(uint32_t addr, uint8_t* out, uint32_t len) {
  if (uint64_t(addr) + len > SSD_PERIPH_BASE && addr < SSD_PERIPH_BASE + kPeriphSize) return false;
  return iss_->read_mem(addr, out, len);
}

bool IssCore::write_mem(uint32_t addr, const uint8_t* in, uint32_t len) {
  if (uint64_t(addr) + len > SSD_PERIPH_BASE && addr < SSD_PERIPH_BASE + kPeriphSize) return false;
  return iss_->write_mem(addr, in, len);
}

void IssCore::attach_debugger(GdbServer* gdb) {
  gdb_ = gdb;
  debug_halt_ = true;
  iss_->set_breakpoint_filter([gdb](uint32_t pc) { return gdb->has_breakpoints() && gdb->breakpoint_at(pc); });
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
  if (r == GdbServer::Resume::Detach) {
    gdb_ = nullptr;
    iss_->set_breakpoint_filter(nullptr);
  }
  return true;
}

// The ISS has run to a sync point (`retired`): a sync there would let every other process
// run up to the time reached, then take a pending interrupt.  When no process has activity up
// to that time and no interrupt line is pending, the sync would change nothing: grant the
// instructions to the next sync point instead, exactly as the keeper would have set it after
// the sync (a multiple of the global quantum past the time reached).  Activity the core
// itself causes (a doorbell, a mailbox message) is pending activity by the next sync point,
// so the run ends there.  0: end the run and sync.
uint64_t IssCore::run_on(uint64_t retired) {
  constexpr uint64_t kMaxSkipsPerRun = 1000;   // bounds a run's wall time when nothing is pending
  if (skips_this_run_ >= kMaxSkipsPerRun || sleep_requested_ || stop_error_ || !fatal_errors().empty() ||
      sysctl_.irq_ready(id_))
    return 0;
  const sc_core::sc_time reached =
      chunk_t0_ + sc_core::sc_time(double(retired - chunk_start_) * instr_ps_, sc_core::SC_PS);
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  if (now + sc_core::sc_time_to_pending_activity() <= reached) return 0;
  const uint64_t q = tlm::tlm_global_quantum::instance().get().value();
  const sc_core::sc_time next = time_ps(reached.value() - reached.value() % q + q);
  const uint64_t budget =
      std::max<uint64_t>(1, uint64_t(std::ceil((next - reached).to_seconds() * 1e12 / instr_ps_ - 1e-6)));
  skips_this_run_++;
  syncs_skipped_++;
  skipped_to_ = next;
  return retired + budget;
}

// The keeper's sync: the instructions so far take their time, then the core waits its turn
// among the cores resuming at that instant.
void IssCore::sync() {
  sysctl_.turns().resumes_at(id_, sc_core::sc_time_stamp() + qk_.get_local_time());
  qk_.sync();
  take_turn();
}

// Cores resuming at one instant run in the order of their ids (models/cpu/core_turns.h).
void IssCore::take_turn() {
  CoreTurns& turns = sysctl_.turns();
  while (turns.lower_core_due(id_, sc_core::sc_time_stamp())) {
    turns.resumes_at(id_, sc_core::sc_time_stamp());
    wait(sc_core::SC_ZERO_TIME);
  }
  turns.runs(id_);
}

void IssCore::halt_forever() {
  sysctl_.turns().stops(id_);
  sc_core::sc_event never;
  for (;;) wait(never);
}

void IssCore::run() {
  take_turn();
  qk_.reset();
  for (;;) {
    if (!fatal_errors().empty()) halt_forever();
    if (sleep_requested_) {
      sleep_requested_ = false;
      sync();   // the instructions before the sleep take their time first
      sleep_since_ = sc_core::sc_time_stamp();
      asleep_ = true;
      if (!sysctl_.irq_ready(id_)) {
        end_function_span(sleep_since_);
        note_asleep(sleep_since_);
        while (!sysctl_.irq_ready(id_)) {
          sysctl_.turns().sleeps(id_);
          wait(sysctl_.irq_event(id_));
        }
        take_turn();
        note_awake(sc_core::sc_time_stamp());
      }
      asleep_ = false;
      if (clear_on_wake_) sysctl_.clear_enabled(id_);
      idle_ += sc_core::sc_time_stamp() - sleep_since_;
      wakeups_++;
      qk_.reset();
    }
    take_interrupt();
    if (gdb_ && (debug_halt_ || gdb_->interrupt_requested()) && !debug_serve()) halt_forever();
    // The instructions left before the keeper's next sync point (at least one).
    const uint64_t budget =
        debug_step_ ? 1u : std::max<uint64_t>(1, uint64_t(std::ceil(qk_.left().to_seconds() * 1e12 / instr_ps_ - 1e-6)));
    if (debug_step_) {
      debug_step_ = false;
      debug_halt_ = true;   // back to the debugger after this one instruction
    }
    chunk_start_ = iss_->retired();
    chunk_t0_ = sc_core::sc_time_stamp() + qk_.get_local_time();
    skips_this_run_ = 0;
    const uint32_t start_pc = pc();
    const auto h0 = std::chrono::steady_clock::now();
    const bool may_skip = p_.skip_idle_syncs && !gdb_;   // a debugger steps and stops at will
    const uint64_t executed = may_skip ? iss_->simulate(budget, run_on_) : iss_->simulate(budget);
    quanta_++;
    // The keeper's next sync point is the one the run was extended to, as after the syncs.
    if (skips_this_run_) qk_.set_next_sync_point(skipped_to_);
    host_exec_s_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - h0).count();
    if (executed) {
      const sc_core::sc_time t(double(executed) * instr_ps_, sc_core::SC_PS);
      busy_ += t;
      qk_.inc(t);
    }
    if (stop_error_ || !iss_->error().empty() || qk_.need_sync()) sync();
    if (stop_error_) {
      report_fatal(error_);
      halt_forever();
    }
    Rv32Iss::Trap trap;
    if (iss_->take_trap(trap)) {
      enter_trap(trap.cause, trap.epc);
    } else if (!iss_->error().empty()) {
      report_fatal("firmware core " + std::to_string(id_) + ": " + iss_->error() + " (quantum from pc " + hex(start_pc) + ")");
      halt_forever();
    } else if (gdb_ && executed < budget && !sleep_requested_ && fatal_errors().empty()) {
      debug_halt_ = true;   // stopped before a breakpoint
    }
  }
}

}  // namespace ssdvp
