// Unit testbench of the Verilated channel controller (rtl/nand_channel_ctrl.sv) with simple
// die models answering ready/busy per plane: phase timing follows every timing register and
// array time exactly (the cycle contract in the RTL's header: no sequencing cycles of its own),
// operations on different ways interleave, the bus goes to the way ready first, independent
// plane reads overlap on one die (and a read of a busy plane, a program and the reads after it
// wait), both queues push back, reset in the middle of traffic, the register block, and
// protocol checks on every cycle (one bus owner, one CE# low, never CLE and ALE together, never
// an array start or a command on a busy plane it occupies, never data out or status before its
// planes are ready, every phase exactly as long as its timing registers and transfer say).
// The model is built with its assertions (rtl/nand_channel_ctrl_checks.sv): one that fails
// fails the test; so does a violation the protocol monitor finds on the pins.
#include <gtest/gtest.h>

#include <deque>
#include <memory>
#include <vector>

#include "Vnand_channel_ctrl.h"
#include "Vnand_channel_ctrl_x16.h"
#include "models/flash/nand_protocol_monitor.h"
#include "verilated.h"

namespace {

constexpr int kWays = 4;
constexpr int kPlanes = 8;   // the RTL's PLANES: R/B# inputs per way

struct Op {
  int op, way, mask, xfer, tag;   // mask: planes (same block and page on each)
};

struct Die {
  uint64_t busy_left[kPlanes] = {};
  int array_starts = 0;
  bool ready(int mask) const {
    for (int p = 0; p < kPlanes; p++)
      if ((mask >> p & 1) && busy_left[p]) return false;
    return true;
  }
};

template <class Model, unsigned kBusBytes>
class BenchOf {
 public:
  BenchOf() : m(std::make_unique<Model>(&ctx)), monitor(kWays, kPlanes, kBusBytes), ready_bits(kWays * kPlanes, true) {
    ctx.fatalOnError(false);   // a failed assertion (rtl/nand_channel_ctrl_checks.sv) fails the test, below
    m->rst_n = 0;
    m->cpl_ready = 1;
    m->plane_ready = ~0u;
    tick();
    m->rst_n = 1;
    tick();
  }
  // The protocol monitor on the pins (models/flash/nand_protocol_monitor.h): its violations
  // fail the test.
  ~BenchOf() {
    for (const auto& v : monitor.violations()) ADD_FAILURE() << "protocol monitor: " << v;
  }
  void config(int cmd_addr, int setup, int status) {
    cfg[0] = cmd_addr;
    cfg[1] = setup;
    cfg[2] = status;
    monitor.set_timing(uint32_t(cmd_addr), uint32_t(setup), uint32_t(status));
    for (auto [a, v] : {std::pair<int, int>{0, cmd_addr}, {1, setup}, {2, status}}) {
      m->reg_we = 1;
      m->reg_addr = a;
      m->reg_wdata = v;
      tick();
    }
    m->reg_we = 0;
  }
  // Independent plane reads on or off (FEATURES bit 0).
  void independent_reads(bool on) {
    indep = on;
    monitor.set_independent_reads(on);
    m->reg_we = 1;
    m->reg_addr = 8;
    m->reg_wdata = on;
    tick();
    m->reg_we = 0;
  }
  // The planes an operation occupies: a read's own with independent plane reads, else all.
  int occupied(const Op& o) const { return indep && o.op == 1 ? o.mask : 0xFF; }
  uint32_t read_reg(int a) {
    m->reg_addr = a;
    m->eval();
    return m->reg_rdata;
  }
  // Array times in cycles by operation (1 read, 2 program, 3 erase).
  uint64_t t_array[4] = {0, 2400, 54000, 120000};

  // Clocks one cycle: inputs of the cycle, its outputs checked and acted on, the edge.  A die
  // told array_go in cycle c has the planes the operation occupies busy in cycles
  // c+1 .. c+t_array.
  void tick() {
    uint32_t ready = 0;
    for (int w = 0; w < kWays; w++)
      for (int p = 0; p < kPlanes; p++) ready |= uint32_t(dies[w].busy_left[p] == 0) << (w * kPlanes + p);
    m->plane_ready = ready;
    m->now = cycles;
    m->clk = 0;
    m->eval();
    if (!m->rst_n) monitor.reset();
    for (int b = 0; b < kWays * kPlanes; b++) ready_bits[b] = ready >> b & 1;
    monitor.cycle(cycles, ssdvp::pins_of(*m), ready_bits);
    if (m->cpl_valid && m->cpl_ready) monitor.completed(cycles, m->cpl_way, m->cpl_tag);
    // A command phase moves the way's next descriptor into the slot it names.
    if (m->bus_grant && m->bus_phase == 0 && !queued[m->bus_way].empty()) {
      slot_op[m->bus_way][m->bus_slot] = queued[m->bus_way].front();
      queued[m->bus_way].pop_front();
    }
    check_protocol();
    // The completion at the head leaves at this edge if it is valid and taken.
    const bool take = m->cpl_valid && m->cpl_ready;
    const int tag = m->cpl_tag, way = m->cpl_way;
    const uint32_t go = m->array_go;
    const int go_op = m->array_op;
    const Op go_desc = slot_op[m->bus_way][m->bus_slot];
    if (m->bus_grant) bus_log.push_back(m->bus_way), phase_log.push_back({m->bus_way, int(m->bus_phase), cycles});
    if (take) done.push_back({tag, way, cycles});
    m->clk = 1;
    m->eval();
    if (ctx.gotError()) {   // Verilator printed which assertion, the cycle and the signals
      ADD_FAILURE() << "cycle " << cycles << ": an assertion of the channel controller failed (its message is above)";
      ctx.gotError(false);
    }
    cycles++;
    for (int w = 0; w < kWays; w++) {
      for (int p = 0; p < kPlanes; p++) {
        if ((go >> w & 1) && (occupied(go_desc) >> p & 1)) dies[w].busy_left[p] = t_array[go_op];
        else if (dies[w].busy_left[p]) dies[w].busy_left[p]--;
      }
      if (go >> w & 1) dies[w].array_starts++;
    }
  }
  // Checks the outputs of the current cycle.
  void check_protocol() {
    int ce_low = 0, ce_way = -1;
    for (int w = 0; w < kWays; w++)
      if (!(m->onfi_ce_n >> w & 1)) ce_low++, ce_way = w;
    if (ce_low > 1) error("two CE# low");
    if (m->onfi_cle && m->onfi_ale) error("CLE and ALE together");
    for (int w = 0; w < kWays; w++)
      if ((m->array_go >> w & 1) && !dies[w].ready(occupied(slot_op[w][m->bus_slot])))
        error("array start on a busy plane");
    if (!m->bus_busy && ce_low) error("CE# low on an idle bus");
    if (m->bus_grant) {
      if (phase_left > 0) error("grant while a phase runs");
      if (!dies[m->bus_way].ready(occupied(slot_op[m->bus_way][m->bus_slot])))
        error("phase granted to an operation whose planes are busy");
      phase_left = m->bus_remaining;
      phase_way = m->bus_way;
      if (m->bus_phase == 2 && phase_left != cfg[2]) error("status phase length differs from the STATUS register");
      if (m->bus_phase == 1 && phase_left < uint32_t(cfg[1])) error("data-out phase shorter than DATA_SETUP");
    }
    if (phase_left > 0) {
      if (ce_way != phase_way) error("CE# not on the bus owner during its phase");
      phase_left--;
    } else if (ce_low) {
      error("CE# low after the phase's cycles");
    }
  }
  void error(const char* what) {
    if (protocol_errors++ == 0) ADD_FAILURE() << "cycle " << cycles << ": " << what;
  }
  // Offers the descriptor until accepted; returns the cycle it went in.
  uint64_t submit(const Op& o) {
    m->desc_valid = 1;
    m->desc_op = o.op;
    m->desc_way = o.way;
    m->desc_mask = o.mask;
    m->desc_xfer = o.xfer;
    m->desc_tag = o.tag;
    m->desc_start = cycles + 1;   // the first cycle it is in the queue
    m->eval();
    while (!m->desc_ready) {
      tick();
      m->desc_start = cycles + 1;
      m->eval();
    }
    queued[o.way].push_back(o);
    monitor.expect(unsigned(o.way), o.op, uint32_t(o.mask), uint32_t(o.xfer), uint32_t(o.tag));
    tick();
    m->desc_valid = 0;
    return cycles;
  }
  void run_until_done(size_t n, uint64_t limit = 10'000'000) {
    for (uint64_t i = 0; done.size() < n && i < limit; i++) tick();
  }
  struct Done {
    int tag, way;
    uint64_t cycle;
  };
  struct Phase {
    int way, phase;
    uint64_t cycle;
  };

  VerilatedContext ctx;
  std::unique_ptr<Model> m;
  Die dies[kWays];
  std::vector<Done> done;
  std::vector<int> bus_log;
  std::vector<Phase> phase_log;
  std::deque<Op> queued[kWays];          // descriptors given to the RTL, not yet started
  Op slot_op[kWays][4] = {};             // the operation each slot started last
  bool indep = false;
  uint64_t cycles = 0;
  int protocol_errors = 0;
  int cfg[3] = {40, 40, 20};   // the timing registers as written
  uint32_t phase_left = 0;     // cycles of the current phase still to come
  int phase_way = -1;
  ssdvp::NandProtocolMonitor monitor;
  std::vector<bool> ready_bits;
};

using Bench = BenchOf<Vnand_channel_ctrl, 1>;            // x8 bus: one byte a cycle
using BenchX16 = BenchOf<Vnand_channel_ctrl_x16, 2>;     // x16 bus: two bytes a cycle

// Cycles from the first cycle one operation is in the queue of an idle channel to the cycle its
// completion is visible.
template <class B = Bench>
uint64_t latency(const Op& o, int cmd, int setup, int status, uint64_t t_array) {
  B b;
  b.config(cmd, setup, status);
  b.t_array[o.op] = t_array;
  const uint64_t t0 = b.submit(o);
  b.run_until_done(1);
  EXPECT_EQ(b.protocol_errors, 0);
  EXPECT_EQ(b.done.size(), 1u);
  return b.done.empty() ? 0 : b.done[0].cycle - t0;
}

}  // namespace

// No cycles of the sequencer's own: a read takes its command phase, tR and its data-out phase,
// and each timing register and the array time add exactly their cycles per plane.
TEST(ChannelRtl, ReadTimingFollowsEveryRegister) {
  const Op rd{1, 0, 1, 1638, 7};
  const uint64_t base = latency(rd, 40, 40, 20, 2400);
  EXPECT_EQ(base, 40u + 2400 + 40 + 1638);
  EXPECT_EQ(latency(rd, 41, 40, 20, 2400), base + 1);            // command/address
  EXPECT_EQ(latency(rd, 40, 45, 20, 2400), base + 5);            // data setup
  EXPECT_EQ(latency(rd, 40, 40, 99, 2400), base);                // no status read in a read
  EXPECT_EQ(latency(rd, 40, 40, 20, 3000), base + 600);          // tR
  EXPECT_EQ(latency(Op{1, 0, 1, 1000, 7}, 40, 40, 20, 2400), base - 638);   // transfer
  EXPECT_EQ(latency(Op{1, 0, 3, 1638, 7}, 40, 40, 20, 2400), base + 40 + 40 + 1638);   // two planes
}

// The bus-width parameter: data phases take half the cycles on an x16 bus (odd bytes round
// up); command, status and array times do not change.
TEST(ChannelRtl, BusWidthParameterHalvesDataCycles) {
  EXPECT_EQ(latency<BenchX16>(Op{1, 0, 1, 1638, 7}, 40, 40, 20, 2400), 40u + 2400 + 40 + 819);
  EXPECT_EQ(latency<BenchX16>(Op{1, 0, 1, 1637, 7}, 40, 40, 20, 2400), 40u + 2400 + 40 + 819);
  EXPECT_EQ(latency<BenchX16>(Op{2, 1, 3, 1638, 2}, 40, 40, 20, 54000), 2u * (40 + 40 + 819) + 54000 + 20);
  EXPECT_EQ(latency<BenchX16>(Op{3, 2, 3, 0, 3}, 40, 40, 20, 120000), 2u * 40 + 120000 + 20);
}

TEST(ChannelRtl, ProgramAndEraseTiming) {
  const uint64_t prog = latency(Op{2, 1, 3, 1638, 2}, 40, 40, 20, 54000);
  EXPECT_EQ(prog, 2u * (40 + 40 + 1638) + 54000 + 20);   // data in per plane, tPROG, status
  const uint64_t erase = latency(Op{3, 2, 3, 0, 3}, 40, 40, 20, 120000);
  EXPECT_EQ(erase, 2u * 40 + 120000 + 20);                // command per plane, tBERS, status
}

TEST(ChannelRtl, WaysInterleaveAndTheBusGoesToTheFirstReady) {
  Bench b;
  b.config(40, 40, 20);
  const uint64_t t0 = b.cycles;
  for (int w = 0; w < kWays; w++) b.submit(Op{1, w, 1, 1638, w});
  b.run_until_done(kWays);
  ASSERT_EQ(b.done.size(), size_t(kWays));
  // The arrays overlap; the bus is the limit: four commands, one tR, four data transfers.
  // Way 0 starts one cycle after t0 (its feed cycle), the others wait for the bus; the data
  // phases follow one another from way 0's array end.
  const uint64_t total = b.done.back().cycle - t0;
  EXPECT_EQ(total, 1u + 40 + 2400 + 4 * (40 + 1638));
  for (int w = 0; w < kWays; w++) {
    EXPECT_EQ(b.done[w].way, w);                      // first ready, first served
    EXPECT_EQ(b.dies[w].array_starts, 1);
  }
  EXPECT_EQ(b.protocol_errors, 0);
  // Bus order: four command phases in arrival order, then four data phases in the same order.
  ASSERT_GE(b.bus_log.size(), 8u);
  for (int i = 0; i < 4; i++) {
    EXPECT_EQ(b.bus_log[i], i);
    EXPECT_EQ(b.bus_log[4 + i], i);
  }
}

// Independent plane reads: reads of two planes of one die overlap as reads of two dies do
// (commands back to back, one tR, the data phases back to back); without the feature, or to
// the same plane, they run one after the other.
TEST(ChannelRtl, IndependentPlaneReadsOverlapOnOneDie) {
  const uint64_t one = 40 + 2400 + 40 + 1638;            // a read on an idle channel
  for (int indep = 0; indep < 2; indep++)
    for (int second_mask : {1, 2}) {
      Bench b;
      b.config(40, 40, 20);
      b.independent_reads(indep);
      const uint64_t t0 = b.cycles;
      b.submit(Op{1, 0, 1, 1638, 1});
      b.submit(Op{1, 0, second_mask, 1638, 2});
      b.run_until_done(2);
      ASSERT_EQ(b.done.size(), 2u);
      EXPECT_EQ(b.done[0].tag, 1);
      const uint64_t total = b.done[1].cycle - t0;
      if (indep && second_mask == 2)
        EXPECT_EQ(total, 1u + 40 + 2400 + 2 * (40 + 1638));   // as two dies
      else
        EXPECT_EQ(total, 1u + 2 * one) << "independent " << indep << ", mask " << second_mask;
      EXPECT_EQ(b.protocol_errors, 0);
    }
}

// A program waits for the reads of its die in flight, and a later read of another plane waits
// for the program (the way starts its operations in order).
TEST(ChannelRtl, IndependentPlaneReadsStayInOrderAroundAProgram) {
  Bench b;
  b.config(40, 40, 20);
  b.independent_reads(true);
  b.t_array[2] = 5000;
  b.submit(Op{1, 0, 1, 1638, 1});
  b.submit(Op{2, 0, 3, 1638, 2});
  b.submit(Op{1, 0, 2, 1638, 3});
  b.run_until_done(3);
  ASSERT_EQ(b.done.size(), 3u);
  for (int i = 0; i < 3; i++) EXPECT_EQ(b.done[i].tag, i + 1);
  // Phases: read command, its data out, the program's command (data in), its status, then the
  // second read's command and data out.
  std::vector<int> phases;
  for (const auto& ph : b.phase_log) phases.push_back(ph.phase);
  EXPECT_EQ(phases, (std::vector<int>{0, 1, 0, 2, 0, 1}));
  ASSERT_EQ(b.phase_log.size(), 6u);
  EXPECT_EQ(b.phase_log[2].cycle, b.done[0].cycle);   // the program starts as the read's slot frees
  EXPECT_EQ(b.phase_log[4].cycle, b.done[1].cycle);
  EXPECT_EQ(b.protocol_errors, 0);
}

TEST(ChannelRtl, BackPressureOnBothQueues) {
  Bench b;
  b.config(4, 4, 2);
  b.t_array[1] = 50;
  b.m->cpl_ready = 0;
  int accepted = 0;
  // Way 0's queue takes QDEPTH (4) descriptors, then pushes back.
  for (int i = 0; i < 7; i++) {
    b.m->desc_valid = 1;
    b.m->desc_op = 1;
    b.m->desc_way = 0;
    b.m->desc_mask = 1;
    b.m->desc_xfer = 10;
    b.m->desc_tag = i;
    b.m->desc_start = b.cycles + 1;
    if (b.m->desc_ready) accepted++, b.queued[0].push_back(Op{1, 0, 1, 10, i}), b.monitor.expect(0, 1, 1, 10, uint32_t(i));
    b.tick();
  }
  b.m->desc_valid = 0;
  EXPECT_EQ(accepted, 5);                             // one started, QDEPTH (4) queued
  for (int i = 0; i < 20000; i++) b.tick();
  EXPECT_TRUE(b.m->cpl_valid);
  EXPECT_TRUE(b.done.empty());                        // nothing leaves while cpl_ready is low
  b.m->cpl_ready = 1;
  b.run_until_done(4);
  ASSERT_EQ(b.done.size(), 4u);
  for (int i = 0; i < 4; i++) EXPECT_EQ(b.done[i].tag, i);
  EXPECT_EQ(b.protocol_errors, 0);
}

TEST(ChannelRtl, ResetInTheMiddleOfTraffic) {
  Bench b;
  b.config(40, 40, 20);
  for (int w = 0; w < kWays; w++) b.submit(Op{2, w, 1, 1638, 100 + w});
  for (int i = 0; i < 3000; i++) b.tick();            // programs on the bus and in the arrays
  b.m->rst_n = 0;
  b.phase_left = 0;                                   // the phase in progress is cut
  b.tick();
  b.m->rst_n = 1;
  for (auto& d : b.dies)                              // the dies are reset with the channel
    for (auto& left : d.busy_left) left = 0;
  for (auto& q : b.queued) q.clear();
  b.phase_left = 0;
  b.done.clear();
  for (int i = 0; i < 200000; i++) b.tick();
  EXPECT_TRUE(b.done.empty());                        // the queued work is gone
  EXPECT_FALSE(b.m->bus_busy);
  b.config(40, 40, 20);
  b.submit(Op{1, 3, 1, 1638, 9});
  b.run_until_done(1);
  ASSERT_EQ(b.done.size(), 1u);
  EXPECT_EQ(b.done[0].tag, 9);
  EXPECT_EQ(b.protocol_errors, 0);
}

TEST(ChannelRtl, RegisterBlock) {
  Bench b;
  EXPECT_EQ(b.read_reg(3), 0x4E430300u | kWays);      // ID: "NC", version 3, ways
  EXPECT_EQ(b.read_reg(8), 0x080400u);                // FEATURES: 8 planes, 4 slots, off
  for (int a = 0; a < 3; a++) EXPECT_EQ(b.read_reg(a), uint32_t(b.cfg[a])) << a;   // reset values
  b.config(12, 34, 5);
  EXPECT_EQ(b.read_reg(0), 12u);
  EXPECT_EQ(b.read_reg(1), 34u);
  EXPECT_EQ(b.read_reg(2), 5u);
  b.m->reg_we = 1;                                    // ID is read-only
  b.m->reg_addr = 3;
  b.m->reg_wdata = 0;
  b.tick();
  b.m->reg_we = 0;
  EXPECT_EQ(b.read_reg(3), 0x4E430300u | kWays);
  b.independent_reads(true);
  EXPECT_EQ(b.read_reg(8), 0x080401u);
  b.independent_reads(false);
  EXPECT_EQ(b.read_reg(6), 0u);
  b.submit(Op{1, 1, 1, 100, 1});
  b.submit(Op{3, 2, 3, 0, 2});
  EXPECT_EQ(b.read_reg(5), 1u);                       // the read started, the erase queued
  EXPECT_EQ(b.read_reg(9), 1u);                       // in flight
  b.tick();
  EXPECT_EQ(b.read_reg(4), 0b0010u);                  // the erase waits for the bus
  for (int i = 0; i < 40; i++) b.tick();              // the read's command phase
  EXPECT_EQ(b.read_reg(4), 0b0110u);                  // ways 1 and 2 busy
  EXPECT_EQ(b.read_reg(5), 0u);
  EXPECT_EQ(b.read_reg(9), 2u);
  b.run_until_done(2);
  ASSERT_EQ(b.done.size(), 2u);
  b.tick();
  EXPECT_EQ(b.read_reg(6), 2u);                       // completed
  EXPECT_EQ(b.read_reg(5), 0u);
  EXPECT_EQ(b.read_reg(4), 0u);
  EXPECT_EQ(b.read_reg(9), 0u);
  // Read: command 12 + data out 34 + 100; erase: 2 x 12 commands + status 5.
  EXPECT_EQ(b.read_reg(7), 12u + 34 + 100 + 2 * 12 + 5);
  EXPECT_EQ(b.protocol_errors, 0);
}
