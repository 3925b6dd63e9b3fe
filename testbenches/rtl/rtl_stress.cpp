// A constrained-random stress run of the Verilated channel controller on its own (4 ways, the
// RTL's default parameters), with simple dies answering R/B# per plane, used for the bug list
// (testbenches/rtl/mutants/: each plausible bug applied to the RTL as a patch, built with this
// driver, must be caught) and as a plain regression on the correct RTL.
//
// What it drives: seeded random descriptors (reads of random plane sets, programs and erases,
// ways skewed towards way 0, start cycles up to 300 cycles ahead, bursts and gaps), completions
// taken with random back-pressure (long stretches of cpl_ready low, so that the completion
// queue fills), the timing registers and FEATURES written at random between halves (first half
// without, second with independent plane reads).
//
// What catches a bug, each naming itself on stdout ("caught by ..."):
//   * the assertions bound into the model (rtl/nand_channel_ctrl_checks.sv): Verilator prints
//     which one failed, with the cycle and signals;
//   * the protocol monitor on the pins (models/flash/nand_protocol_monitor.h), told each
//     descriptor accepted and each completion handed out: its first violation, [rule] first;
//   * the driver's phase checks: every phase granted is exactly as long as the operation and
//     the timing registers say (command CMD_ADDR per plane, plus DATA_SETUP and the data for a
//     program; data out DATA_SETUP plus the data per plane; status STATUS once), ALE high for
//     exactly CMD_ADDR - 2 cycles per plane of a command phase, CLE in its first cycle;
//   * the driver's scoreboard: every descriptor accepted completes once, on its way, after its
//     array time; nothing completes that was not asked for; everything completes (no hang).
// Exit status 0 when nothing was caught ("clean"), 1 when something was.
//
//   build/testbenches/rtl_stress [operations] [seed] [--reads P] [--programs P] [--way-skew P]
//       [--planes N] [--masks single|multi|any] [--burst N] [--hold P] [--ahead P]
//       [--indep off|on|both] [--coverage FILE]
// Knobs (the constraints): percent of reads and programs (erases the rest), percent sent to
// way 0 regardless, planes per die, plane masks, descriptors between idle gaps, percent of
// completion stretches held, percent of start cycles ahead, independent plane reads.  The
// coverage build (rtl_stress_cov, with rtl/nand_channel_ctrl_coverage.sv) writes Verilator's
// coverage data to FILE (scripts/rtl_regression.py runs and merges many).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "Vnand_channel_ctrl.h"
#include "models/flash/nand_protocol_monitor.h"
#include "verilated.h"

namespace {

constexpr int kWays = 4, kPlanes = 8;

// The constraints, as knobs (--name value).
struct Knobs {
  int operations = 4000;
  uint32_t seed = 1;
  int reads = 70, programs = 22;   // percent of descriptors; erases the rest
  int way_skew = 33;               // percent sent to way 0 whatever the draw
  int planes = 4;                  // planes of each die (1..8)
  std::string masks = "any";       // plane masks: single, multi or any
  int burst = 0;                   // descriptors between idle gaps (0: a gap after one in eight, at random)
  int hold = 17;                   // percent of completion stretches with cpl_ready held low
  int ahead = 25;                  // percent of descriptors whose start cycle is ahead
  std::string indep = "both";      // independent plane reads: off, on, or both (the second half)
  std::string coverage;            // coverage build: where to write the coverage data
};

struct Op {
  int op = 0, way = 0, mask = 0, xfer = 0, tag = 0;
  uint64_t array_start = 0, array_cycles = 0;
};

class Stress {
 public:
  explicit Stress(const Knobs& k)
      : k_(k), rng_(k.seed), m_(std::make_unique<Vnand_channel_ctrl>(&ctx_)), monitor_(kWays, kPlanes, 1), ready_(kWays * kPlanes, true) {
    ctx_.fatalOnError(false);
    m_->rst_n = 0;
    m_->cpl_ready = 1;
    m_->plane_ready = ~0u;
    m_->clk = 0;
    m_->eval();
    m_->clk = 1;
    m_->eval();
    m_->rst_n = 1;
  }

  int run() {
    const int operations = k_.operations;
    for (int half = 0; half < 2 && !caught_; half++) {
      drain();
      if (caught_) break;
      // Timing registers and FEATURES between halves (nothing in flight).
      cfg_[0] = 3 + int(rng_() % 12);
      cfg_[1] = 3 + int(rng_() % 10);
      cfg_[2] = 2 + int(rng_() % 8);
      indep_ = k_.indep == "on" || (k_.indep == "both" && half == 1);
      monitor_.set_timing(uint32_t(cfg_[0]), uint32_t(cfg_[1]), uint32_t(cfg_[2]));
      monitor_.set_independent_reads(indep_);
      write_reg(0, cfg_[0]);
      write_reg(1, cfg_[1]);
      write_reg(2, cfg_[2]);
      write_reg(8, indep_);
      write_reg(6, int(rng_() & 0xFFFF));   // COMPLETED is read-only: the write is ignored
      for (int i = 0; i < operations / 2 && !caught_; i++) submit(random_op());
    }
    if (!caught_) drain();
    if (!caught_ && pending_.size()) fail("the scoreboard", std::to_string(pending_.size()) + " operations never completed");
    if (!caught_)
      std::printf("clean: %llu operations, %llu cycles, %llu cycles in which a completion waited for cpl_ready; the monitor "
                  "decoded %llu operations\n",
                  (unsigned long long)completed_, (unsigned long long)cycle_, (unsigned long long)full_cycles_,
                  (unsigned long long)monitor_.operations_decoded());
#ifdef SSDVP_RTL_COVERAGE
    if (!k_.coverage.empty()) ctx_.coveragep()->write(k_.coverage.c_str());
#endif
    return caught_ ? 1 : 0;
  }

 private:
  Op random_op() {
    Op o;
    const int r = int(rng_() % 100);
    o.op = r < k_.reads ? 1 : r < k_.reads + k_.programs ? 2 : 3;
    o.way = int(rng_() % 100) < k_.way_skew ? 0 : int(rng_() % kWays);
    const int all = (1 << k_.planes) - 1;
    const bool single = k_.masks == "single" || (k_.masks == "any" && rng_() % 2);
    if (single || k_.planes == 1) {
      o.mask = 1 << (rng_() % k_.planes);
    } else if (o.op == 1) {
      do o.mask = int(rng_() % all) + 1;
      while (__builtin_popcount(unsigned(o.mask)) < 2);
    } else {
      o.mask = all;
    }
    o.xfer = o.op == 1 ? 16 * (1 + int(rng_() % 16)) : o.op == 2 ? 64 * (1 + int(rng_() % 4)) : 0;
    o.tag = next_tag_++ & 0xFFFF;
    o.array_cycles = o.op == 1 ? 100 + rng_() % 400 : o.op == 2 ? 800 + rng_() % 400 : 1500 + rng_() % 1000;
    return o;
  }
  int occupied(const Op& o) const { return indep_ && o.op == 1 ? o.mask : 0xFF; }

  void write_reg(int a, int v) {
    m_->reg_we = 1;
    m_->reg_addr = a;
    m_->reg_wdata = v;
    tick();
    m_->reg_we = 0;
  }

  // Offers the descriptor until it is taken; random gaps between descriptors.
  void submit(const Op& o) {
    const uint64_t start = cycle_ + (int(rng_() % 100) < k_.ahead ? rng_() % 300 : 0);
    m_->desc_valid = 1;
    m_->desc_op = o.op;
    m_->desc_way = o.way;
    m_->desc_mask = o.mask;
    m_->desc_xfer = o.xfer;
    m_->desc_tag = o.tag;
    m_->desc_start = start;
    for (uint64_t waited = 0; !caught_; waited++) {
      present();
      if (m_->desc_ready) break;
      if (waited > 2'000'000) return fail("the scoreboard", "a way's queue never took a descriptor (hang)");
      clock_edge();
    }
    if (caught_) return;
    monitor_.expect(unsigned(o.way), o.op, uint32_t(o.mask), uint32_t(o.xfer), uint32_t(o.tag));
    clock_edge();
    queued_[o.way].push_back(o);
    pending_[o.tag] = o;
    m_->desc_valid = 0;
    if (k_.burst > 0 ? ++in_burst_ % k_.burst == 0 : rng_() % 8 == 0) idle(rng_() % 200);
  }
  void idle(uint64_t n) {
    for (uint64_t i = 0; i < n && !caught_; i++) tick();
  }
  void drain() {
    for (uint64_t i = 0; !pending_.empty() && !caught_ && i < 5'000'000; i++) tick();
  }
  void tick() {
    present();
    clock_edge();
  }

  // Inputs of the cycle: R/B# from the dies, back-pressure on completions.
  void present() {
    uint32_t ready = 0;
    for (int w = 0; w < kWays; w++)
      for (int p = 0; p < kPlanes; p++) {
        ready_[w * kPlanes + p] = busy_until_[w][p] <= cycle_;
        ready |= uint32_t(busy_until_[w][p] <= cycle_) << (w * kPlanes + p);
      }
    m_->plane_ready = ready;
    if (hold_left_ == 0) {
      cpl_hold_ = int(rng_() % 100) < k_.hold;   // now and then a long stretch without taking completions
      hold_left_ = cpl_hold_ ? 200 + rng_() % 3000 : 50 + rng_() % 500;
    }
    hold_left_--;
    m_->cpl_ready = !cpl_hold_;
    m_->now = cycle_;
    m_->clk = 0;
    // A register read each cycle (they are combinational): ID must read as the RTL's.
    if (!m_->reg_we) m_->reg_addr = rng_() % 16;
    m_->eval();
    if (m_->reg_addr == 3 && (m_->reg_rdata >> 16 != 0x4E43 || (m_->reg_rdata & 0xFF) != kWays))
      fail("the register checks", "ID reads " + std::to_string(m_->reg_rdata));
  }

  // This cycle's outputs checked and acted on, then the edge.
  void clock_edge() {
    check_phase();
    monitor_.cycle(cycle_, ssdvp::pins_of(*m_), ready_);
    if (m_->cpl_valid && m_->cpl_ready) {
      monitor_.completed(cycle_, m_->cpl_way, m_->cpl_tag);
      complete(m_->cpl_tag, m_->cpl_way);
    }
    if (!monitor_.violations().empty()) fail("the protocol monitor", monitor_.violations().front());
    if (m_->array_go) {
      for (int w = 0; w < kWays; w++)
        if (m_->array_go >> w & 1) {
          Op& o = slot_[w][m_->bus_slot];
          o.array_start = cycle_ + 1;
          pending_[o.tag].array_start = o.array_start;
          for (int p = 0; p < kPlanes; p++)
            if (occupied(o) >> p & 1) busy_until_[w][p] = cycle_ + 1 + o.array_cycles;
        }
    }
    m_->clk = 1;
    m_->eval();
    if (ctx_.gotError()) {
      ctx_.gotError(false);
      fail("an assertion", "(Verilator's line above names it)");
    }
    if (m_->cpl_valid && !m_->cpl_ready) full_cycles_++;
    cycle_++;
  }

  void check_phase() {
    if (m_->bus_grant) {
      const int w = m_->bus_way, s = m_->bus_slot, ph = m_->bus_phase;
      if (ph == 0) {
        if (queued_[w].empty()) return fail("the phase checks", "a command phase granted to a way with nothing queued");
        slot_[w][s] = queued_[w].front();
        queued_[w].pop_front();
      }
      const Op& o = slot_[w][s];
      const int planes = __builtin_popcount(unsigned(o.mask));
      const uint64_t want = ph == 0 ? uint64_t(planes) * (cfg_[0] + (o.op == 2 ? cfg_[1] + o.xfer : 0))
                            : ph == 1 ? uint64_t(planes) * (cfg_[1] + o.xfer)
                                      : uint64_t(cfg_[2]);
      if (m_->bus_remaining != want)
        return fail("the phase checks", "way " + std::to_string(w) + " phase " + std::to_string(ph) + " of tag " +
                                            std::to_string(o.tag) + " is " + std::to_string(m_->bus_remaining) +
                                            " cycles, should be " + std::to_string(want));
      if (ph == 1 && o.op != 1) return fail("the phase checks", "a data-out phase for a program or erase");
      if (ph == 2 && o.op == 1) return fail("the phase checks", "a status phase for a read");
      if (ph != 0 && cycle_ < o.array_start + o.array_cycles)
        return fail("the phase checks", "tag " + std::to_string(o.tag) + "'s " + (ph == 1 ? "data out" : "status") +
                                            " before its array finished");
      phase_left_ = m_->bus_remaining;
      phase_pos_ = 0;
      phase_cmd_ = ph == 0;
      phase_planes_ = planes;
      ale_ = 0;
      if (ph == 0 && !m_->onfi_cle) return fail("the phase checks", "a command phase without CLE in its first cycle");
    }
    if (phase_left_ > 0) {
      if (phase_cmd_ && m_->onfi_ale) ale_++;
      phase_pos_++;
      if (--phase_left_ == 0 && phase_cmd_ && ale_ != phase_planes_ * (cfg_[0] - 2))
        return fail("the phase checks", "ALE high for " + std::to_string(ale_) + " cycles of a command phase of " +
                                            std::to_string(phase_planes_) + " plane(s), (CMD_ADDR - 2) per plane = " +
                                            std::to_string(phase_planes_ * (cfg_[0] - 2)));
    }
  }

  void complete(int tag, int way) {
    auto it = pending_.find(tag);
    if (it == pending_.end()) return fail("the scoreboard", "a completion of tag " + std::to_string(tag) + " nobody asked for (or twice)");
    if (it->second.way != way) return fail("the scoreboard", "tag " + std::to_string(tag) + " completed on the wrong way");
    if (it->second.array_start == 0 || cycle_ < it->second.array_start + it->second.array_cycles)
      return fail("the scoreboard", "tag " + std::to_string(tag) + " completed before its array finished");
    pending_.erase(it);
    completed_++;
  }

  void fail(const std::string& who, const std::string& what) {
    if (caught_) return;
    caught_ = true;
    std::printf("caught by %s in cycle %llu: %s\n", who.c_str(), (unsigned long long)cycle_, what.c_str());
  }

  Knobs k_;
  std::mt19937 rng_;
  int in_burst_ = 0;
  VerilatedContext ctx_;
  std::unique_ptr<Vnand_channel_ctrl> m_;
  ssdvp::NandProtocolMonitor monitor_;
  std::vector<bool> ready_;
  uint64_t cycle_ = 0, completed_ = 0, full_cycles_ = 0;
  int cfg_[3] = {40, 40, 20};
  bool indep_ = false, caught_ = false, cpl_hold_ = false;
  uint64_t hold_left_ = 0;
  int next_tag_ = 1;
  uint64_t busy_until_[kWays][kPlanes] = {};
  std::deque<Op> queued_[kWays];
  Op slot_[kWays][4];
  std::map<int, Op> pending_;
  uint64_t phase_left_ = 0, phase_pos_ = 0;
  bool phase_cmd_ = false;
  int ale_ = 0, phase_planes_ = 0;
};

}  // namespace

int main(int argc, char* argv[]) {
  Knobs k;
  int positional = 0;
  auto number = [&](const std::string& name, const char* v, int lo, int hi) {
    char* end = nullptr;
    const long n = std::strtol(v, &end, 10);
    if (!*v || *end || n < lo || n > hi) {
      std::fprintf(stderr, "rtl_stress: %s %s: a whole number from %d to %d\n", name.c_str(), v, lo, hi);
      std::exit(2);
    }
    return int(n);
  };
  for (int i = 1; i < argc; i++) {
    const std::string a = argv[i];
    if (a.rfind("--", 0) != 0) {
      if (positional == 0) k.operations = number("operations", argv[i], 1, 100'000'000);
      else if (positional == 1) k.seed = uint32_t(number("seed", argv[i], 0, 2'000'000'000));
      else {
        std::fprintf(stderr, "rtl_stress: unexpected argument %s\n", argv[i]);
        return 2;
      }
      positional++;
      continue;
    }
    if (i + 1 >= argc) {
      std::fprintf(stderr, "rtl_stress: %s needs a value\n", a.c_str());
      return 2;
    }
    const char* v = argv[++i];
    if (a == "--reads") k.reads = number(a, v, 0, 100);
    else if (a == "--programs") k.programs = number(a, v, 0, 100);
    else if (a == "--way-skew") k.way_skew = number(a, v, 0, 100);
    else if (a == "--planes") k.planes = number(a, v, 1, kPlanes);
    else if (a == "--burst") k.burst = number(a, v, 0, 1'000'000);
    else if (a == "--hold") k.hold = number(a, v, 0, 100);
    else if (a == "--ahead") k.ahead = number(a, v, 0, 100);
    else if (a == "--masks" && (std::string(v) == "single" || std::string(v) == "multi" || std::string(v) == "any")) k.masks = v;
    else if (a == "--indep" && (std::string(v) == "off" || std::string(v) == "on" || std::string(v) == "both")) k.indep = v;
    else if (a == "--coverage") k.coverage = v;
    else {
      std::fprintf(stderr, "rtl_stress: unknown option or value: %s %s (see the header of testbenches/rtl/rtl_stress.cpp)\n",
                   a.c_str(), v);
      return 2;
    }
  }
  if (k.reads + k.programs > 100) {
    std::fprintf(stderr, "rtl_stress: --reads %d and --programs %d add up to more than 100\n", k.reads, k.programs);
    return 2;
  }
#ifndef SSDVP_RTL_COVERAGE
  if (!k.coverage.empty()) {
    std::fprintf(stderr, "rtl_stress: --coverage needs the coverage build (rtl_stress_cov)\n");
    return 2;
  }
#endif
  return Stress(k).run();
}
