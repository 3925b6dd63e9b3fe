// The instruction-set simulator interface an ISS core drives: an RV32 hart that executes a
// counted number of instructions, ends early when asked, reports synchronous traps without
// entering them, and exposes registers, the machine CSRs the core needs, and memory.
// UnicornRv32 implements it; another ISS can replace it behind the same calls.
//
// Two ways to end a run (set_exact):
//  * exact: simulate(n) retires exactly n instructions (a check before every instruction);
//  * per block (the default, several times faster): the run ends at the first basic-block
//    boundary at or after n instructions, so it may retire up to one block more.
// In both, the count of retired instructions is exact at every moment, including inside a
// Bus callback, where it includes the accessing instruction.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ssdvp {

class Rv32Iss {
 public:
  // Peripheral accesses the ISS forwards (the core turns them into TLM transactions);
  // `offset` is from the base given to map_mmio.
  class Bus {
   public:
    virtual ~Bus() = default;
    virtual uint32_t mmio_read(uint32_t offset, unsigned size) = 0;
    virtual void mmio_write(uint32_t offset, unsigned size, uint32_t value) = 0;
  };
  enum class Csr { Mstatus, Mtvec, Mepc, Mcause, Mie };
  struct Trap {
    uint32_t cause = 0, epc = 0;   // as the hardware would write mcause and mepc
  };

  virtual ~Rv32Iss() = default;

  // The simulator's name and version (for results), e.g. "Unicorn 2.0.1".
  virtual std::string engine() const = 0;

  virtual void map_memory(uint32_t base, uint32_t size, uint8_t* host, bool executable) = 0;
  virtual void map_mmio(uint32_t base, uint32_t size, Bus& bus) = 0;

  // Exact instruction counts per run, or runs that end at block boundaries (see above).
  virtual void set_exact(bool exact) = 0;
  virtual bool exact() const = 0;

  // Executes instructions from the PC until `count` have retired (exact) or the first block
  // boundary at or after that (per block); returns how many retired.  Ends sooner after
  // end_after_current(), before an instruction the breakpoint filter names, on a synchronous
  // trap (take_trap) or an error (error()).
  virtual uint64_t simulate(uint64_t count) = 0;
  // As simulate(count), but where that run would end at its budget, asks `more(retired)` for
  // a new budget, the total retired count to run to, and goes on if it is larger (0 or not
  // larger: end there as simulate(count) would).  Where the run ends early, `more` is not asked.
  virtual uint64_t simulate(uint64_t count, const std::function<uint64_t(uint64_t)>& more) = 0;
  // From a Bus callback: end simulate() once the instruction in progress has retired (per
  // block: at the end of its basic block; the instructions up to there retire too).
  virtual void end_after_current() = 0;
  // Instructions retired since the start, counted live (inside a Bus callback: up to and
  // including the accessing instruction).
  virtual uint64_t retired() const = 0;
  // Inside a Bus callback: the address of the accessing instruction.
  virtual uint32_t access_pc() const = 0;
  // Per block: accesses whose instruction could not be found in the block (their time is
  // then the block's start); 0 for code the decoder knows.
  virtual uint64_t unlocated_accesses() const = 0;
  // The synchronous trap (ecall, ebreak) that ended the last simulate(), if any; the core
  // enters it (mepc, mcause, mstatus, PC <- mtvec).
  virtual bool take_trap(Trap& out) = 0;
  // Why the last simulate() failed (unmapped access, ...); empty if it did not.
  virtual std::string error() const = 0;

  virtual uint32_t reg(unsigned n) const = 0;   // x0..x31
  virtual void set_reg(unsigned n, uint32_t v) = 0;
  virtual uint32_t pc() const = 0;
  virtual void set_pc(uint32_t pc) = 0;
  virtual uint32_t csr(Csr c) const = 0;
  virtual void set_csr(Csr c, uint32_t v) = 0;
  virtual bool read_mem(uint32_t addr, uint8_t* out, uint32_t len) = 0;
  virtual bool write_mem(uint32_t addr, const uint8_t* in, uint32_t len) = 0;

  // Debugging: simulate() stops before an instruction whose PC the filter accepts, except
  // the first instruction after set_pc()/a stop at that PC (so that a resume steps over it).
  // A filter makes the runs exact while it is set.
  virtual void set_breakpoint_filter(std::function<bool(uint32_t)> filter) = 0;
  // Profiling: instructions executed per 2-byte code address below `code_size` (exact runs).
  virtual void enable_profile(uint32_t code_size) = 0;
  virtual const std::vector<uint32_t>& profile_counts() const = 0;
  virtual void reset_profile() = 0;
  // While profiling: called before each instruction with its address and the instructions
  // retired before it (timelines follow the function running; nullptr: none).
  virtual void set_pc_observer(std::function<void(uint32_t pc, uint64_t retired)> observer) = 0;
};

// Unicorn 2 (RISCV32 mode) behind Rv32Iss.
std::unique_ptr<Rv32Iss> make_unicorn_rv32();

}  // namespace ssdvp
