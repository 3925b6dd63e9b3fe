// Unit testbench of the Verilated channel controller (rtl/nand_channel_ctrl.sv) with simple
// die models answering ready/busy: phase timing follows every timing register and array time
// exactly, operations on different ways interleave, the bus goes to the way ready first,
// both queues push back, reset in the middle of traffic, and protocol checks on every cycle
// (one bus owner, one CE# low, never CLE and ALE together, never an array start on a busy die).
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "Vnand_channel_ctrl.h"
#include "verilated.h"

namespace {

constexpr int kWays = 4;

struct Die {
  uint64_t busy_left = 0;
  int array_starts = 0;
};

struct Op {
  int op, way, planes, xfer, tag;
};

class Bench {
 public:
  Bench() : m(std::make_unique<Vnand_channel_ctrl>(&ctx)) {
    m->rst_n = 0;
    m->cpl_ready = 1;
    m->die_ready = 0xF;
    tick();
    m->rst_n = 1;
    tick();
  }
  void config(int cmd_addr, int setup, int status) {
    for (auto [a, v] : {std::pair<int, int>{0, cmd_addr}, {1, setup}, {2, status}}) {
      m->cfg_we = 1;
      m->cfg_addr = a;
      m->cfg_wdata = v;
      tick();
    }
    m->cfg_we = 0;
  }
  // Array times in cycles by operation (1 read, 2 program, 3 erase).
  uint64_t t_array[4] = {0, 2400, 54000, 120000};

  void tick() {
    m->now = uint32_t(cycles);
    m->clk = 0;
    m->eval();
    // The completion at the head leaves at this edge if it is valid and taken.
    const bool take = m->cpl_valid && m->cpl_ready;
    const int tag = m->cpl_tag, way = m->cpl_way;
    m->clk = 1;
    m->eval();
    cycles++;
    check_protocol();
    for (int w = 0; w < kWays; w++) {
      if (m->array_go >> w & 1) {
        dies[w].busy_left = t_array[m->array_op];
        dies[w].array_starts++;
      } else if (dies[w].busy_left) {
        dies[w].busy_left--;
      }
    }
    uint8_t ready = 0;
    for (int w = 0; w < kWays; w++) ready |= (dies[w].busy_left == 0) << w;
    m->die_ready = ready;
    if (take) done.push_back({tag, way, cycles});
    if (m->bus_busy && (bus_log.empty() || bus_log.back() != m->bus_way || !last_busy)) bus_log.push_back(m->bus_way);
    last_busy = m->bus_busy;
  }
  void check_protocol() {
    int ce_low = 0;
    for (int w = 0; w < kWays; w++) ce_low += !(m->onfi_ce_n >> w & 1);
    if (ce_low > 1) protocol_errors++;
    if (m->onfi_cle && m->onfi_ale) protocol_errors++;
    for (int w = 0; w < kWays; w++)
      if ((m->array_go >> w & 1) && dies[w].busy_left) protocol_errors++;
    if (!m->bus_busy && ce_low) protocol_errors++;
  }
  // Offers the descriptor until accepted; returns the cycle it went in.
  uint64_t submit(const Op& o) {
    m->desc_valid = 1;
    m->desc_op = o.op;
    m->desc_way = o.way;
    m->desc_planes = o.planes;
    m->desc_xfer = o.xfer;
    m->desc_tag = o.tag;
    m->desc_arrival = uint32_t(cycles);
    while (!m->desc_ready) tick();
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

  VerilatedContext ctx;
  std::unique_ptr<Vnand_channel_ctrl> m;
  Die dies[kWays];
  std::vector<Done> done;
  std::vector<int> bus_log;
  bool last_busy = false;
  uint64_t cycles = 0;
  int protocol_errors = 0;
};

// Cycles from accepting one operation on an idle channel to its completion.
uint64_t latency(const Op& o, int cmd, int setup, int status, uint64_t t_array) {
  Bench b;
  b.config(cmd, setup, status);
  b.t_array[o.op] = t_array;
  const uint64_t t0 = b.submit(o);
  b.run_until_done(1);
  EXPECT_EQ(b.protocol_errors, 0);
  EXPECT_EQ(b.done.size(), 1u);
  return b.done.empty() ? 0 : b.done[0].cycle - t0;
}

}  // namespace

// The fixed cycles of the sequencer (queue to bus, bus to array start, array end to bus,
// completion) are the same for every operation; each timing register and the array time add
// exactly their cycles per plane.
TEST(ChannelRtl, ReadTimingFollowsEveryRegister) {
  const Op rd{1, 0, 1, 1638, 7};
  const uint64_t base = latency(rd, 40, 40, 20, 2400);
  const uint64_t fixed = base - (40 + 2400 + 40 + 1638);
  EXPECT_LE(fixed, 8u);
  EXPECT_EQ(latency(rd, 41, 40, 20, 2400), base + 1);            // command/address
  EXPECT_EQ(latency(rd, 40, 45, 20, 2400), base + 5);            // data setup
  EXPECT_EQ(latency(rd, 40, 40, 99, 2400), base);                // no status read in a read
  EXPECT_EQ(latency(rd, 40, 40, 20, 3000), base + 600);          // tR
  EXPECT_EQ(latency(Op{1, 0, 1, 1000, 7}, 40, 40, 20, 2400), base - 638);   // transfer
  EXPECT_EQ(latency(Op{1, 0, 2, 1638, 7}, 40, 40, 20, 2400), base + 40 + 40 + 1638);   // two planes
}

TEST(ChannelRtl, ProgramAndEraseTiming) {
  const uint64_t rd_fixed = latency(Op{1, 0, 1, 1638, 1}, 40, 40, 20, 2400) - (40 + 2400 + 40 + 1638);
  const uint64_t prog = latency(Op{2, 1, 2, 1638, 2}, 40, 40, 20, 54000);
  EXPECT_EQ(prog, rd_fixed + 2 * (40 + 40 + 1638) + 54000 + 20);  // data in per plane, tPROG, status
  const uint64_t erase = latency(Op{3, 2, 2, 0, 3}, 40, 40, 20, 120000);
  EXPECT_EQ(erase, rd_fixed + 2 * 40 + 120000 + 20);               // command per plane, tBERS, status
}

TEST(ChannelRtl, WaysInterleaveAndTheBusGoesToTheFirstReady) {
  Bench b;
  b.config(40, 40, 20);
  const uint64_t t0 = b.cycles;
  for (int w = 0; w < kWays; w++) b.submit(Op{1, w, 1, 1638, w});
  b.run_until_done(kWays);
  ASSERT_EQ(b.done.size(), size_t(kWays));
  // The arrays overlap; the bus is the limit: four commands, one tR, four data transfers.
  const uint64_t single = 40 + 2400 + 40 + 1638;
  const uint64_t total = b.done.back().cycle - t0;
  EXPECT_LE(total, 4 * 40 + 2400 + 4 * (40 + 1638) + 4 * 8 + 8);
  EXPECT_LT(total, 4 * single * 6 / 10);
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

TEST(ChannelRtl, BackPressureOnBothQueues) {
  Bench b;
  b.config(4, 4, 2);
  b.t_array[1] = 50;
  b.m->cpl_ready = 0;
  int accepted = 0;
  // Way 0's queue takes QDEPTH (4) descriptors, then pushes back.
  for (int i = 0; i < 6; i++) {
    b.m->desc_valid = 1;
    b.m->desc_op = 1;
    b.m->desc_way = 0;
    b.m->desc_planes = 1;
    b.m->desc_xfer = 10;
    b.m->desc_tag = i;
    b.m->desc_arrival = uint32_t(b.cycles);
    if (b.m->desc_ready) accepted++;
    b.tick();
  }
  b.m->desc_valid = 0;
  EXPECT_EQ(accepted, 4);
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
  b.tick();
  b.m->rst_n = 1;
  for (auto& d : b.dies) d.busy_left = 0;             // the dies are reset with the channel
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
