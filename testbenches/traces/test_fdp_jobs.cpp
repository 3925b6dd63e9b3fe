// FDP's placement identifiers in fio's generator (fdp=1, fdp_pli, fdp_pli_select) and jobs side
// by side ("A&B", traces/concurrent_workload.h): each write carries the identifier its selection
// gives (round robin, per job, hot or cold block), reads none; identifiers are the device's
// list's (the reclaim group in the upper bits); jobs keep their own streams, options and random
// streams; and what is wrong is refused naming the key.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "traces/concurrent_workload.h"
#include "trace_test_support.h"

namespace ssdvp::workload::test {
namespace {

constexpr uint64_t kMiB = 1ull << 20;

WorkloadContext fdp(uint32_t handles = 4, uint32_t groups = 1) {
  WorkloadContext c;
  c.capacity_bytes = 64 * kMiB;
  c.seed = 5;
  c.fdp_handles = handles;
  c.fdp_groups = groups;
  return c;
}

std::vector<Request> drain(Workload& w) {
  std::vector<Request> out;
  for (unsigned s = 0; s < w.streams(); s++)
    while (auto r = w.next(s)) out.push_back(*r);
  return out;
}

TEST(FdpJobs, RoundRobinOverTheListedIdentifiers) {
  auto w = make_workload("fio:rw=write,bs=4k,io=9,fdp=1,fdp_pli=3:1:2", fdp());
  std::vector<uint16_t> got;
  for (const auto& r : drain(*w)) got.push_back(r.placement);
  EXPECT_EQ(got, (std::vector<uint16_t>{3, 1, 2, 3, 1, 2, 3, 1, 2}));
}

TEST(FdpJobs, WithoutFdpWritesCarryNone) {
  for (const auto& r : drain(*make_workload("fio:rw=randwrite,bs=4k,io=50", fdp())))
    EXPECT_EQ(r.placement, kNoPlacement);
}

TEST(FdpJobs, ReadsCarryNoneAndDefaultListIsEveryIdentifier) {
  std::set<uint16_t> seen;
  for (const auto& r : drain(*make_workload("fio:rw=randrw,bs=4k,io=400,fdp=1,fdp_pli_select=random", fdp(2, 2)))) {
    if (r.op == Op::Read) EXPECT_EQ(r.placement, kNoPlacement);
    else seen.insert(r.placement);
  }
  // Two groups of two handles: group 1 in the top bit.
  EXPECT_EQ(seen, (std::set<uint16_t>{0x0000, 0x0001, 0x8000, 0x8001}));
}

TEST(FdpJobs, HotBlocksTakeTheFirstIdentifierColdTheSecond) {
  // Without scrambling the hot blocks are the first 20 % of the range.
  auto w = make_workload(
      "fio:rw=randwrite,bs=4k,io=5000,random_distribution=hotcold:20/80,scramble=0,fdp=1,fdp_pli=2:1,"
      "fdp_pli_select=hotcold",
      fdp());
  uint64_t hot = 0;
  for (const auto& r : drain(*w)) {
    const bool in_hot = r.offset < 64 * kMiB / 5;
    EXPECT_EQ(r.placement, in_hot ? 2 : 1) << "offset " << r.offset;
    hot += in_hot;
  }
  EXPECT_NEAR(double(hot) / 5000, 0.8, 0.03);
}

TEST(FdpJobs, SideBySideJobsKeepTheirStreamsOptionsAndSeeds) {
  auto w = make_workload(
      "fio:rw=randwrite,bs=4k,size=4%,numjobs=2,iodepth=4,io=100,fdp=1,fdp_pli=1&"
      "fio:rw=write,bs=64k,offset=4%,size=96%,iodepth=4,io=30,fdp=1,fdp_pli=2",
      fdp());
  ASSERT_EQ(w->streams(), 3u);
  EXPECT_EQ(w->queue_depth(), 4u);
  std::map<unsigned, uint64_t> count;
  uint64_t last_seq = 0;
  for (unsigned s = 0; s < 3; s++)
    while (auto r = w->next(s)) {
      EXPECT_EQ(r->stream, s);
      count[s]++;
      if (s < 2) {
        EXPECT_EQ(r->placement, 1);
        EXPECT_EQ(r->length, 4096u);
        EXPECT_LT(r->offset, 64 * kMiB * 4 / 100);
      } else {
        EXPECT_EQ(r->placement, 2);
        EXPECT_EQ(r->length, 65536u);
        if (count[s] > 1) {
          EXPECT_EQ(r->offset, last_seq + 65536);   // sequential
        }
        last_seq = r->offset;
      }
    }
  EXPECT_EQ(count[0], 100u);
  EXPECT_EQ(count[1], 100u);
  EXPECT_EQ(count[2], 30u);
  // Two identical random jobs side by side draw different offsets (each its own seed).
  auto twins = make_workload("fio:rw=randwrite,bs=4k,io=20&fio:rw=randwrite,bs=4k,io=20", fdp());
  std::vector<uint64_t> a, b;
  while (auto r = twins->next(0)) a.push_back(r->offset);
  while (auto r = twins->next(1)) b.push_back(r->offset);
  EXPECT_NE(a, b);
  // Phases bind looser than jobs side by side: A&B then C.
  auto phased = make_workload("fio:rw=write,bs=4k,io=2&fio:rw=write,bs=4k,io=3;fio:rw=read,bs=4k,io=1", fdp());
  EXPECT_EQ(phased->streams(), 2u);
}

TEST(FdpJobs, WhatIsWrongIsRefusedByName) {
  const std::pair<const char*, const char*> cases[] = {
      {"fio:rw=write,fdp=1", "the drive has no FDP configuration"},
      {"fio:rw=read,fdp=1", "needs a pattern with writes"},
      {"fio:rw=write,fdp_pli=1", "fdp_pli=1: is for fdp=1"},
      {"fio:rw=write,fdp=1,fdp_pli=4", "fdp_pli=4: must list placement ID indices (0..3"},
      {"fio:rw=write,fdp=1,fdp_pli=1:x", "must list placement ID indices"},
      {"fio:rw=write,fdp=1,fdp_pli_select=lru", "fdp_pli_select=lru: roundrobin, random, job or hotcold"},
      {"fio:rw=randwrite,fdp=1,fdp_pli=1:2,fdp_pli_select=hotcold", "hotcold needs a random pattern with random_distribution=hotcold"},
      {"fio:rw=write,iodepth=2&fio:rw=write,iodepth=4", "iodepth 4 differs from job 1's 2"},
      {"fio:rw=write&", "workload job 2 is empty"},
  };
  for (const auto& [spec, message] : cases) {
    const WorkloadContext ctx = std::string(spec) == "fio:rw=write,fdp=1" ? fdp(0) : fdp();
    try {
      make_workload(spec, ctx);
      ADD_FAILURE() << spec << ": accepted";
    } catch (const WorkloadError& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << spec << ": " << e.what();
    }
  }
}

}  // namespace
}  // namespace ssdvp::workload::test
