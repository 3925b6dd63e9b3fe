// fio's zonemode=zbd (traces/zoned_fio_workload.h), checked against a model of a zoned device
// the test keeps from the requests themselves: every write lands at its zone's write pointer
// and within the zone's capacity, a full zone is reset (with a barrier) before it is written
// again, no more zones are open than allowed, each job writes zones of its own, reads stay on
// written data (a read phase finds what the write phase wrote), mixed jobs write first; and
// what cannot be zoned is refused by name.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "trace_test_support.h"

namespace ssdvp::workload::test {
namespace {

constexpr uint64_t kMiB = 1ull << 20;

// 16 zones of 1 MiB, capacity 768 KiB (a gap, as a zone size rounded up to a power of two),
// 4 open at most.
WorkloadContext zoned() {
  WorkloadContext c;
  c.capacity_bytes = 16 * kMiB;
  c.seed = 3;
  c.zone_size_bytes = kMiB;
  c.zone_capacity_bytes = 768 * 1024;
  c.zones = 16;
  c.max_open_zones = 4;
  return c;
}

// A zoned device as the requests leave it: write pointers, and the checks each request passes.
struct ZoneModel {
  std::map<uint64_t, uint64_t> wp;   // zone -> bytes written
  uint64_t resets = 0, writes = 0, reads = 0;
  size_t most_open = 0;
  void apply(const Request& r) {
    const uint64_t z = r.offset / kMiB, in = r.offset % kMiB;
    switch (r.op) {
      case Op::Write:
        ASSERT_EQ(in, wp[z]) << "a write at " << r.offset << " not at zone " << z << "'s write pointer";
        ASSERT_LE(in + r.length, 768 * 1024u) << "a write past zone " << z << "'s capacity";
        ASSERT_EQ(r.length % 4096, 0u);
        wp[z] += r.length;
        writes++;
        break;
      case Op::ZoneReset:
        ASSERT_EQ(in, 0u);
        ASSERT_TRUE(r.barrier);
        ASSERT_EQ(r.length, 768 * 1024u);
        wp[z] = 0;
        resets++;
        break;
      case Op::Read:
        ASSERT_LE(in + r.length, wp[z]) << "a read past zone " << z << "'s written data";
        reads++;
        break;
      default: break;
    }
    size_t open = 0;
    for (const auto& [zone, w] : wp) open += w > 0 && w < 768 * 1024u;
    most_open = std::max(most_open, open);
  }
};

}  // namespace

TEST(ZonedFio, RandomWritesGoToWritePointersAndFullZonesAreResetFirst) {
  const auto w = make_workload("fio:rw=randwrite,zonemode=zbd,bs=64k,io=2000", zoned());
  EXPECT_TRUE(w->zoned());
  ZoneModel m;
  for (const Request& r : drain(*w)) {
    m.apply(r);
    if (::testing::Test::HasFatalFailure()) return;
  }
  EXPECT_EQ(m.writes, 2000u);
  EXPECT_GT(m.resets, 100u);     // 2,000 x 64 KiB is 10 times the zones' 12 MiB
  EXPECT_LE(m.most_open, 4u);    // max_open_zones: the device's
  EXPECT_GE(m.most_open, 3u);
}

TEST(ZonedFio, MaxOpenZonesLimitsTheZonesWrittenAtOnce) {
  const auto w = make_workload("fio:rw=randwrite,zonemode=zbd,bs=4k,io=3000,max_open_zones=2", zoned());
  ZoneModel m;
  for (const Request& r : drain(*w)) m.apply(r);
  EXPECT_LE(m.most_open, 2u);
  EXPECT_THROW(make_workload("fio:rw=randwrite,zonemode=zbd,max_open_zones=5", zoned()), WorkloadError);
}

TEST(ZonedFio, SequentialWritesFillTheZonesInOrderThenWrapWithAReset) {
  const auto w = make_workload("fio:rw=write,zonemode=zbd,bs=256k,io=52", zoned());
  const auto requests = drain(*w);
  ZoneModel m;
  for (const Request& r : requests) m.apply(r);
  // 16 zones x 3 writes fill the drive; the 49th write resets zone 0 first, the 52nd zone 1.
  ASSERT_EQ(requests.size(), 52u + 2u);
  EXPECT_EQ(requests[0].offset, 0u);
  EXPECT_EQ(requests[3].offset, kMiB);
  EXPECT_EQ(requests[48].op, Op::ZoneReset);
  EXPECT_EQ(requests[48].offset, 0u);
  EXPECT_EQ(requests[49].offset, 0u);
  EXPECT_EQ(requests[49].op, Op::Write);
  EXPECT_EQ(requests[52].op, Op::ZoneReset);
  EXPECT_EQ(requests[52].offset, kMiB);
  EXPECT_EQ(m.resets, 2u);
}

TEST(ZonedFio, EachJobWritesZonesOfItsOwn) {
  const auto w = make_workload("fio:rw=randwrite,zonemode=zbd,bs=16k,io=500,numjobs=2", zoned());
  ZoneModel m;
  for (unsigned job = 0; job < 2; job++) {
    std::set<uint64_t> zones;
    for (const Request& r : drain(*w, job)) {
      m.apply(r);
      zones.insert(r.offset / kMiB);
    }
    for (uint64_t z : zones) EXPECT_EQ(z / 8, job) << "job " << job << " wrote zone " << z;
  }
  EXPECT_LE(m.most_open, 4u);
}

TEST(ZonedFio, AReadPhaseReadsWhatTheWritePhaseWrote) {
  const auto w = make_workload(
      "fio:rw=randwrite,zonemode=zbd,bs=64k,io=100;fio:rw=randread,zonemode=zbd,bs=16k,io=300", zoned());
  EXPECT_TRUE(w->zoned());
  ZoneModel m;
  for (const Request& r : drain(*w)) m.apply(r);
  EXPECT_EQ(m.writes, 100u);
  EXPECT_EQ(m.reads, 300u);
  // Nothing written: a read job has nothing to read; a mixed one writes first.
  EXPECT_TRUE(drain(*make_workload("fio:rw=randread,zonemode=zbd,io=10", zoned())).empty());
  const auto mixed = drain(*make_workload("fio:rw=randrw,zonemode=zbd,io=50", zoned()));
  ASSERT_FALSE(mixed.empty());
  EXPECT_EQ(mixed[0].op, Op::Write);
  ZoneModel m2;
  for (const Request& r : mixed) m2.apply(r);
}

TEST(ZonedFio, WhatCannotBeZonedIsRefusedByName) {
  const auto error = [](const std::string& spec, const WorkloadContext& c) -> std::string {
    try {
      make_workload(spec, c);
    } catch (const WorkloadError& e) {
      return e.what();
    }
    return "";
  };
  WorkloadContext plain;
  plain.capacity_bytes = 16 * kMiB;
  EXPECT_NE(error("fio:rw=randwrite,zonemode=zbd", plain).find("zbd needs a zoned device"), std::string::npos);
  EXPECT_NE(error("fio:rw=randwrite", zoned()).find("zonemode=zbd"), std::string::npos);
  EXPECT_NE(error("rr:ratio=50", zoned()).find("write pointers only"), std::string::npos);
  EXPECT_NE(error("fio:rw=randtrim,zonemode=zbd", zoned()).find("rw="), std::string::npos);
  EXPECT_NE(error("fio:rw=write,zonemode=zbd,numjobs=17", zoned()).find("numjobs"), std::string::npos);
  EXPECT_NE(error("fio:rw=write,zonemode=zbd,size=512k", zoned()).find("size"), std::string::npos);
  EXPECT_NE(error("fio:rw=write,zonemode=zbd,bs=1m", zoned()).find("bs"), std::string::npos);
  EXPECT_NE(error("fio:rw=write,zonemode=hm", zoned()).find("zonemode"), std::string::npos);
  EXPECT_NE(error("fio:rw=write,max_open_zones=2", plain).find("max_open_zones"), std::string::npos);
}

}  // namespace ssdvp::workload::test
