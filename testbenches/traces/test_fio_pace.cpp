// fio's time and pace: runtime and time_based, rate_iops and rate per direction, thinktime with
// thinktime_blocks, on a clock the test moves (the driver's side: testbenches/cli/test_fio_pace.py).
#include <gtest/gtest.h>

#include "trace_test_support.h"

namespace ssdvp::workload::test {
namespace {

constexpr uint64_t kGiB = 1ull << 30;

struct Clock {
  uint64_t ns = 0;
};

WorkloadContext with_clock(Clock& clock) {
  WorkloadContext ctx{kGiB, 1};
  ctx.now_ns = [&clock] { return clock.ns; };
  return ctx;
}

TEST(FioPace, BadValuesAreNamed) {
  Clock clock;
  const WorkloadContext ctx = with_clock(clock);
  const std::pair<const char*, const char*> cases[] = {
      {"fio:rw=randread,time_based", "time_based=1: needs runtime= (how long the jobs run)"},
      {"fio:rw=randread,runtime=1s,time_based,io=10",
       "time_based=1: runs as long as runtime= and repeats its I/O: give io= or time_based, not both"},
      {"fio:rw=randread,runtime=0", "runtime=0: must be greater than 0"},
      {"fio:rw=randread,runtime=5parsecs", "runtime=5parsecs: not a duration (a number with an optional unit ns, us, ms, s, m or h)"},
      {"fio:rw=randread,rate_iops=fast", "rate_iops=fast: must be request rates (per second), read:write:trim"},
      {"fio:rw=randread,rate_iops=1:2:3:4", "rate_iops=1:2:3:4: at most three values, read:write:trim"},
      {"fio:rw=randread,rate_iops=0", "rate_iops=0: every rate is 0 (no limit): leave the key out"},
      {"fio:rw=randread,rate=1x", "rate=1x: must be byte rates (bytes per second, k/m/g suffixes), read:write:trim"},
      {"fio:rw=randread,thinktime_blocks=4", "thinktime_blocks=4: is for thinktime="},
      {"fio:rw=randread,thinktime=1ms,thinktime_blocks=0", "thinktime_blocks=0: must be in 1..1000000"},
  };
  for (const auto& [spec, message] : cases)
    EXPECT_EQ(workload_error([&] { make_workload(spec, ctx); }), std::string("workload '") + spec + "': " + message);
  WorkloadContext zoned = ctx;
  zoned.zones = 64;
  zoned.zone_size_bytes = zoned.zone_capacity_bytes = kGiB / 64;
  EXPECT_EQ(workload_error([&] { make_workload("fio:rw=write,zonemode=zbd,runtime=1s", zoned); }),
            "workload 'fio:rw=write,zonemode=zbd,runtime=1s': runtime=1s: not with zonemode=zbd (time and pace are for "
            "the block generator only)");
}

// runtime ends each job's requests on its own clock; without time_based, io= still ends it first.
TEST(FioPace, RuntimeEndsTheJobAndTimeBasedRepeatsItsIo) {
  Clock clock;
  auto w = make_workload("fio:rw=read,bs=4k,size=64k,runtime=1.5ms,time_based", with_clock(clock));
  clock.ns = 1000;   // the job's clock starts at its first request
  unsigned n = 0;
  while (auto r = w->next(0)) {
    EXPECT_EQ(r->offset, (n % 16) * 4096u) << "time_based wraps and repeats the range";
    if (++n % 10 == 0) clock.ns += 100000;
    ASSERT_LT(n, 1000u);
  }
  EXPECT_EQ(n, 150u) << "15 steps of 100 us: 1.5 ms from its first request at 1 us";
  EXPECT_FALSE(w->next(0)) << "and it stays ended";
  auto capped = make_workload("fio:rw=read,bs=4k,size=64k,io=5,runtime=1s", with_clock(clock));
  EXPECT_EQ(drain(*capped).size(), 5u) << "io= ends it before runtime";
}

// The n-th request of a direction is not before start + n / rate (fio's linear rate_process);
// rate (bytes) and rate_iops together: the later of the two.
TEST(FioPace, RatesGiveEachDirectionItsSlots) {
  Clock clock;
  clock.ns = 5000;
  auto w = make_workload("fio:rw=randrw,rwmixread=50,bs=8k,io=400,rate_iops=1000:500", with_clock(clock));
  uint64_t reads = 0, writes = 0;
  while (auto r = w->next(0)) {
    if (r->op == Op::Read) EXPECT_EQ(r->not_before_ns, 5000 + reads++ * 1000000);
    else EXPECT_EQ(r->not_before_ns, 5000 + writes++ * 2000000);
  }
  EXPECT_EQ(reads + writes, 400u);
  auto bytes = make_workload("fio:rw=write,bs=8k,io=10,rate_iops=1000,rate=4MiB", with_clock(clock));
  uint64_t n = 0;
  while (auto r = bytes->next(0)) {
    const uint64_t by_iops = 5000 + n * 1000000, by_bytes = 5000 + n * 8192 * 1000000000ull / (4 << 20);
    EXPECT_EQ(r->not_before_ns, std::max(by_iops, by_bytes)) << "request " << n;
    n++;
  }
  auto reads_only = make_workload("fio:rw=randrw,bs=4k,io=50,rate_iops=1000:0", with_clock(clock));
  for (auto r = reads_only->next(0); r; r = reads_only->next(0)) {
    if (r->op == Op::Write) {
      EXPECT_EQ(r->not_before_ns, 0u) << "a rate of 0 leaves the direction unpaced";
    }
  }
}

// After every thinktime_blocks requests the next one waits for the job's outstanding requests
// (a barrier) and then thinks.
TEST(FioPace, ThinktimeEveryBlocksRequests) {
  Clock clock;
  auto w = make_workload("fio:rw=randread,bs=4k,io=12,iodepth=8,thinktime=250,thinktime_blocks=4", with_clock(clock));
  std::vector<unsigned> thinking;
  unsigned i = 0;
  while (auto r = w->next(0)) {
    if (r->barrier) {
      EXPECT_EQ(r->think_ns, 250000u) << "thinktime without a unit is in microseconds, as fio's";
      thinking.push_back(i);
    } else {
      EXPECT_EQ(r->think_ns, 0u);
    }
    i++;
  }
  EXPECT_EQ(thinking, (std::vector<unsigned>{4, 8}));
}

TEST(FioPace, WithoutAClockItSaysSo) {
  auto w = make_workload("fio:rw=randread,rate_iops=10", WorkloadContext{kGiB, 1});
  EXPECT_EQ(workload_error([&] { w->next(0); }),
            "workload 'fio:rw=randread,rate_iops=10': runtime, rate and thinktime need the simulation's clock, which this "
            "source of requests does not give");
}

TEST(FioPace, DurationsTakeFiosUnits) {
  Clock clock;
  for (const auto& [text, ns] : std::vector<std::pair<std::string, uint64_t>>{
           {"2", 2000000000}, {"1.5s", 1500000000}, {"250ms", 250000000}, {"10us", 10000}, {"1m", 60000000000},
           {"100ns", 100}, {"2sec", 2000000000}}) {
    auto w = make_workload("fio:rw=read,bs=4k,size=64k,time_based,runtime=" + text, with_clock(clock));
    clock.ns = 0;
    ASSERT_TRUE(w->next(0));
    clock.ns = ns - 1;
    EXPECT_TRUE(w->next(0)) << text;
    clock.ns = ns;
    EXPECT_FALSE(w->next(0)) << text << " ends at " << ns << " ns";
  }
}

// What a workload will issue, for progress lines: requests, or a time-based run's duration, or
// nothing when its parts mix the two.
TEST(WorkloadExtent, RequestsOrDurationOrNotKnown) {
  Clock clock;
  const WorkloadContext ctx = with_clock(clock);
  auto extent = [&](const std::string& spec) { return make_workload(spec, ctx)->extent(); };
  EXPECT_EQ(extent("fio:rw=randread,io=10,numjobs=2").requests, 20u);
  EXPECT_EQ(extent("fio:rw=randwrite,io=10,fsync=5").requests, 12u) << "its flushes too";
  EXPECT_EQ(extent("fio:rw=randread,runtime=2ms,time_based").duration_ns, 2000000u);
  EXPECT_EQ(extent("fio:rw=randread,io=10;fio:rw=randwrite,io=5").requests, 15u);
  EXPECT_EQ(extent("fio:rw=randread,runtime=2ms,time_based;fio:rw=read,runtime=3ms,time_based").duration_ns, 5000000u);
  EXPECT_EQ(extent("fio:rw=randread,runtime=2ms,time_based&fio:rw=read,runtime=3ms,time_based").duration_ns, 3000000u);
  const WorkloadExtent mixed = extent("fio:rw=randread,io=10;fio:rw=read,runtime=3ms,time_based");
  EXPECT_EQ(mixed.requests + mixed.duration_ns, 0u) << "requests then a time: not known";
  TempTrace trace("0 0 8 8 1\n1 0 16 8 0\n2 0 24 8 1\n");
  EXPECT_EQ(check_workload(trace.path(), ctx).requests, 3u) << "a trace's, once checked";
}

}  // namespace
}  // namespace ssdvp::workload::test
