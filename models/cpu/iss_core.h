// Instruction-set-simulated firmware core: an RV32IMAC hart run by an instruction-set
// simulator behind the Rv32Iss interface (Unicorn 2 today), wrapped as a SystemC module with
// a TLM-2.0 initiator socket.
//
// Models: the firmware image (ELF32) in the core's 1 MiB code region, its SRAM window and the
// controller DRAM mapped without copies (host pointers); temporal decoupling with a
// tlm_quantumkeeper whose global quantum is firmware.quantum_instructions instructions: the
// ISS is handed the instructions left to the keeper's next sync point and runs them per basic
// block (to the first block end at or past them) or exactly (firmware.exact_quanta), and on
// through a sync point where the sync would change nothing (no other process has activity
// up to it, no interrupt pending: firmware.skip_idle_syncs), in the same ISS call; time =
// instructions x CPI / clock; peripheral registers reached through MMIO callbacks that
// become b_transport calls carrying the core's local time up to the accessing instruction; "sleep until interrupt" (a write to SYSCTL_SLEEP) stops the core until an
// enabled interrupt line is pending, costing no host time; synchronous traps (ecall,
// ebreak) entered through mtvec with mepc/mcause/mstatus set as on silicon (Unicorn 2.0 does
// not do it by itself), and machine external interrupts when mstatus.MIE and mie.MEIE allow.
// Leaves out: pipeline and cache timing (one CPI for every instruction), the PMP, S/U modes,
// mcycle/minstret (Unicorn returns host time there: firmware uses the modelled timer).
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "models/common/params.h"
#include "models/cpu/elf_image.h"
#include "models/cpu/firmware_core.h"
#include "models/cpu/gdb_server.h"

#include "models/cpu/rv32_iss.h"

namespace ssdvp {

class Dram;
class SysCtl;

struct IssParams {
  double clock_mhz = 800;
  double cpi = 1.0;
  uint32_t quantum_instructions = 1000;
  bool exact_quanta = false;       // quanta of exactly quantum_instructions (else: to a block end)
  bool skip_idle_syncs = true;     // run on through a sync point that would change nothing
  bool profile = false;            // count instructions per code address (firmware.profile)
};

class IssCore : public sc_core::sc_module, public FirmwareCore, public DebugTarget, private Rv32Iss::Bus {
 public:
  tlm_utils::simple_initiator_socket<IssCore> socket;

  static constexpr uint32_t kCodeBase = 0x00000000u;
  static constexpr uint32_t kCodeSize = 0x00100000u;   // 1 MiB

  IssCore(sc_core::sc_module_name name, uint32_t core_id, const IssParams& p, Dram& dram, SysCtl& sysctl,
          const ElfImage& image);
  ~IssCore() override;

  // The regions an image for this core may load into (for ElfImage::load).
  static std::vector<MemoryRegion> loadable_regions(uint32_t core_id);

  uint64_t instructions() const override { return iss_->retired(); }
  sc_core::sc_time busy_time() const override { return busy_; }
  // With the sleep under way: a snapshot of the figures mid-sleep counts it so far.
  sc_core::sc_time idle_time() const override {
    return asleep_ ? idle_ + (sc_core::sc_time_stamp() - sleep_since_) : idle_;
  }
  uint64_t wakeups() const override { return wakeups_; }
  uint64_t mmio_accesses() const override { return mmio_; }
  double host_seconds_executing() const override { return host_exec_s_; }
  uint64_t traps() const { return traps_; }
  uint64_t unlocated_accesses() const { return iss_->unlocated_accesses(); }
  uint64_t quanta() const override { return quanta_; }
  uint64_t syncs_skipped() const override { return syncs_skipped_; }
  bool asleep() const override { return asleep_; }
  std::string engine() const { return iss_->engine(); }
  bool exact_quanta() const { return iss_->exact(); }

  // Debugging: the core starts halted and serves `gdb` (which outlives the simulation).
  void attach_debugger(GdbServer* gdb);
  uint32_t read_reg(unsigned n) override;
  void write_reg(unsigned n, uint32_t v) override;
  bool read_mem(uint32_t addr, uint8_t* out, uint32_t len) override;
  bool write_mem(uint32_t addr, const uint8_t* in, uint32_t len) override;
  // With IssParams::profile: instructions executed per function of the image, most first.
  std::vector<std::pair<std::string, uint64_t>> profile() const;
  void reset_profile() { iss_->reset_profile(); }
  // Timelines, with IssParams::profile: each stretch of simulated time the core ran one function
  // of the image, ended by a call into another function, a return or the core going to sleep.
  // The name lives as long as the core.  Returns false (and sets nothing) without profiling.
  using FunctionSpan = std::function<void(const char* function, sc_core::sc_time from, sc_core::sc_time to)>;
  bool trace_functions(FunctionSpan on_function);
  // Ends the span of the function running now (the timeline stops).
  void end_function_span() { end_function_span(sc_core::sc_time_stamp()); }
  uint32_t pc() const;

 private:
  void run();
  uint32_t mmio_read(uint32_t offset, unsigned size) override;
  void mmio_write(uint32_t offset, unsigned size, uint32_t value) override;
  bool access(tlm::tlm_command cmd, uint32_t addr, uint32_t* data);
  void end_quantum_after_this_instruction();
  void enter_trap(uint32_t cause, uint32_t epc);
  bool take_interrupt();
  uint64_t run_on(uint64_t retired);
  [[noreturn]] void halt_forever();
  void sync();
  void take_turn();

  uint32_t id_;
  IssParams p_;
  Dram& dram_;
  SysCtl& sysctl_;
  std::unique_ptr<Rv32Iss> iss_;
  std::vector<uint8_t> code_, sram_;
  std::vector<std::pair<uint32_t, std::string>> functions_;   // profile: sorted by address
  // trace_functions: the function running (its index and address range) and since when.
  FunctionSpan on_function_;
  size_t fn_index_ = SIZE_MAX;
  uint32_t fn_lo_ = 1, fn_hi_ = 0;
  sc_core::sc_time fn_since_;
  void function_at(uint32_t pc, uint64_t retired);
  void end_function_span(const sc_core::sc_time& at);
  double instr_ps_;
  tlm::tlm_generic_payload trans_;

  // The keeper, able to say how much of its quantum is left.
  class QuantumKeeper : public tlm_utils::tlm_quantumkeeper {
   public:
    sc_core::sc_time left() const {
      const sc_core::sc_time at = sc_core::sc_time_stamp() + m_local_time;
      return m_next_sync_point > at ? m_next_sync_point - at : sc_core::SC_ZERO_TIME;
    }
    void set_next_sync_point(const sc_core::sc_time& t) { m_next_sync_point = t; }
  };
  QuantumKeeper qk_;
  uint64_t chunk_start_ = 0;   // retired when the ISS was last started
  sc_core::sc_time chunk_t0_;  // the core's time then (kernel time + local time)
  // Skipping sync points (skip_idle_syncs): run_on as the ISS's `more`, the sync points
  // skipped in this run and in all, and the last one the run was extended to.
  std::function<uint64_t(uint64_t)> run_on_;
  uint64_t skips_this_run_ = 0, syncs_skipped_ = 0;
  sc_core::sc_time skipped_to_;
  bool sleep_requested_ = false, clear_on_wake_ = false, stop_error_ = false, asleep_ = false;
  sc_core::sc_time sleep_since_;
  std::string error_;
  sc_core::sc_time busy_ = sc_core::SC_ZERO_TIME, idle_ = sc_core::SC_ZERO_TIME;
  uint64_t wakeups_ = 0, mmio_ = 0, traps_ = 0, quanta_ = 0;
  GdbServer* gdb_ = nullptr;
  bool debug_halt_ = false, debug_step_ = false;
  bool debug_serve();                  // false: the debugger killed the run
  double host_exec_s_ = 0;
};

}  // namespace ssdvp
