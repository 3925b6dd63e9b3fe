// The after-power-cut checker (models/host/power_cut_check.h) fed known states: every answer it
// must accept, and each kind of loss it must name (an older version, zeros or a media error
// where data was durable, another sector's data, garbage, preconditioned data older than a
// durable write).  Every power-cut test and the campaign rest on this verdict; a checker that
// always said "no loss" would fail here.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "models/host/power_cut_check.h"

namespace ssdvp {
namespace {

constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

// 8 sectors; 0-3 preconditioned.  Writes (seq = index + 1):
//   #1 LBA 4-5, acknowledged before #2 was sent; durable for LBA 5
//   #2 LBA 4, durable
//   #3 LBA 5, sent after #1 was acknowledged, never acknowledged
//   #4 LBA 6, durable; #5 LBA 6, sent while #4 was in flight, never acknowledged
//   #6 LBA 1, durable over preconditioned data
//   #7 LBA 7, durable, then trimmed: zeros allowed
DurableState state() {
  DurableState s;
  s.precond_below = 4;
  s.cut_ns = 100;
  s.writes = {
      {4, 2, 10, 20},       // #1
      {4, 1, 30, 40},       // #2
      {5, 1, 45, kNever},   // #3
      {6, 1, 50, 60},       // #4
      {6, 1, 55, kNever},   // #5: sent before #4 was acknowledged
      {1, 1, 61, 62},       // #6
      {7, 1, 63, 64},       // #7
  };
  s.durable = {0, 6, 0, 0, 2, 1, 4, 7};
  s.zeros_ok = {0, 0, 0, 0, 0, 0, 0, 1};
  return s;
}

ssd_sector_tag tag(uint32_t lba, uint32_t seq) { return ssd_sector_tag{lba, seq}; }

TEST(PowerCutCheck, AcceptsWhatTheHostMayReadBack) {
  const DurableState s = state();
  EXPECT_EQ(s.check(4, tag(4, 2), false), "");   // the durable write
  EXPECT_EQ(s.check(5, tag(5, 3), false), "");   // a newer, unacknowledged write
  EXPECT_EQ(s.check(5, tag(5, 1), false), "");   // the durable one itself
  EXPECT_EQ(s.check(6, tag(6, 5), false), "");   // newer, in flight
  EXPECT_EQ(s.check(3, tag(3, 0), false), "");   // preconditioned data never overwritten
  EXPECT_EQ(s.check(7, tag(0, 0), false), "");   // zeros after a trim
  EXPECT_EQ(s.check(7, tag(7, 0), true), "");    // unreadable where zeros are allowed
}

TEST(PowerCutCheck, AnOlderInFlightVersionMayWin) {
  // #4 and #5 overlapped in flight: NVMe does not order them, so #4 durable and #5 read back, or
  // the other way round, are both fine.  Make #5 the durable one: #4 may still come back.
  DurableState s = state();
  s.writes[4].complete_ns = 70;
  s.durable[6] = 5;
  EXPECT_EQ(s.check(6, tag(6, 4), false), "");
}

TEST(PowerCutCheck, NamesAnOlderVersion) {
  const DurableState s = state();
  EXPECT_EQ(s.check(4, tag(4, 1), false), "LBA 4: older version #1 (durable: #2)");
}

TEST(PowerCutCheck, NamesZerosWhereDataWasDurable) {
  const DurableState s = state();
  EXPECT_EQ(s.check(4, tag(0, 0), false), "LBA 4: zeros where write #2 was durable");
  EXPECT_EQ(s.check(2, tag(0, 0), false), "LBA 2: zeros where preconditioned data was durable");
}

TEST(PowerCutCheck, NamesAMediaErrorWhereDataWasDurable) {
  const DurableState s = state();
  EXPECT_EQ(s.check(6, tag(6, 4), true), "LBA 6: unreadable (media error) where write #4 was durable");
}

TEST(PowerCutCheck, NamesPreconditionedDataOlderThanADurableWrite) {
  const DurableState s = state();
  EXPECT_EQ(s.check(1, tag(1, 0), false), "LBA 1: preconditioned data, older than durable write #6");
}

TEST(PowerCutCheck, NamesAnotherSectorsData) {
  const DurableState s = state();
  EXPECT_EQ(s.check(4, tag(5, 3), false), "LBA 4: another sector's data (tag 5, #3)");
  EXPECT_EQ(s.check(2, tag(3, 0), false), "LBA 2: another sector's data (tag 3, 0)");
}

TEST(PowerCutCheck, NamesGarbage) {
  const DurableState s = state();
  EXPECT_EQ(s.check(4, tag(4, 99), false), "LBA 4: garbage: write #99 was never submitted");
  EXPECT_EQ(s.check(6, tag(6, 2), false), "LBA 6: garbage: write #2 did not cover it");
}

TEST(PowerCutCheck, NamesASectorBeyondTheNamespace) {
  const DurableState s = state();
  EXPECT_EQ(s.check(8, tag(8, 1), false), "LBA 8 beyond the namespace the host knew");
}

TEST(PowerCutCheck, SavedAndLoadedStateGivesTheSameVerdicts) {
  const DurableState s = state();
  const std::string path = ::testing::TempDir() + "durable.bin";
  s.save(path);
  const DurableState t = DurableState::load(path);
  EXPECT_EQ(t.check(4, tag(4, 1), false), "LBA 4: older version #1 (durable: #2)");
  EXPECT_EQ(t.check(7, tag(0, 0), false), "");
  EXPECT_EQ(t.cut_ns, 100u);
  EXPECT_EQ(t.precond_below, 4u);
}

}  // namespace
}  // namespace ssdvp
