// The DRAM data path: a transfer takes the first idle stretch long enough for it at or after
// its start, so transfers booked ahead (a flash channel's program data) do not hold back an
// earlier one that fits before them; overlapping ones queue.
#include <gtest/gtest.h>

#include "models/dram/dram.h"

using namespace ssdvp;
using sc_core::sc_time;
using sc_core::SC_NS;

namespace {

Dram make() {
  DramParams p;
  p.size_bytes = 1 << 20;
  p.bandwidth_mbps = 1000;                     // 4096 bytes: 4096 ns
  p.latency = sc_time(10, SC_NS);
  return Dram(p);
}

double ns(const sc_time& t) { return t.to_seconds() * 1e9; }

}  // namespace

TEST(Dram, AnEarlierTransferFitsBeforeOneBookedAhead) {
  Dram d = make();
  EXPECT_DOUBLE_EQ(ns(d.transfer(sc_time(100000, SC_NS), 4096)), 100000 + 4096 + 10);   // booked ahead
  EXPECT_DOUBLE_EQ(ns(d.transfer(sc_time(0, SC_NS), 4096)), 4096 + 10);                 // not behind it
  // One that would overlap the booked stretch goes after it.
  EXPECT_DOUBLE_EQ(ns(d.transfer(sc_time(97000, SC_NS), 4096)), 104096 + 4096 + 10);
  EXPECT_EQ(d.busy_ps(), 3u * 4096000u);
}

TEST(Dram, OverlappingTransfersQueueAndGapsAreFilledInOrder) {
  Dram d = make();
  EXPECT_DOUBLE_EQ(ns(d.transfer(sc_time(0, SC_NS), 4096)), 4096 + 10);
  EXPECT_DOUBLE_EQ(ns(d.transfer(sc_time(0, SC_NS), 4096)), 8192 + 10);                 // queues
  EXPECT_DOUBLE_EQ(ns(d.transfer(sc_time(20000, SC_NS), 4096)), 24096 + 10);
  // A gap of 11,808 ns between 8,192 and 20,000: two fit, the third goes after 24,096.
  EXPECT_DOUBLE_EQ(ns(d.transfer(sc_time(0, SC_NS), 4096)), 12288 + 10);
  EXPECT_DOUBLE_EQ(ns(d.transfer(sc_time(0, SC_NS), 4096)), 16384 + 10);
  EXPECT_DOUBLE_EQ(ns(d.transfer(sc_time(0, SC_NS), 4096)), 28192 + 10);
}
