// End-to-end runs: every shipped sample trace and a mixed generator workload, on a small
// preconditioned platform, with every read checked.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "model/platform_test_support.h"

using namespace ssdvp;

namespace {
std::string sample(const std::string& name) { return std::string(SSDVP_SOURCE_DIR) + "/traces/samples/" + name; }

nlohmann::json run_trace(const std::string& spec, uint64_t min_requests) {
  auto run = test::run_platform(test::small_platform(), spec);
  const auto& r = run.results;
  test::expect_clean(r);   // every read verified (reads checked = read requests)
  EXPECT_GE(r["host_requests"].get<uint64_t>(), min_requests);
  EXPECT_GT(r["integrity"]["reads_checked"].get<uint64_t>(), 0u);
  return r;
}

// Time from the first to the last request of a DiskSim/MQSim ASCII trace (ns in the first field).
double trace_span_s(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  double first = -1, last = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    last = std::stod(line) / 1e9;
    if (first < 0) first = last;
  }
  return last - first;
}
}  // namespace

TEST(SampleTraces, TpccSmall) { run_trace(sample("tpcc-small.trace"), 6999); }
TEST(SampleTraces, WebSearchSmall) { run_trace(sample("wsrch-small.trace"), 24000); }
TEST(SampleTraces, SqliteWalBlkparse) { run_trace(sample("sqlitewal_update_blkparse.txt"), 4000); }
// Open-loop replay with the trace's times scaled.  Slowed 100 times, the run lasts 100 times
// the trace's span (plus the last request's service time) and reads find the drive idle;
// sped up 100 times (a child process: one platform per process), everything arrives within
// 1.4 ms, the run is bound by the drive and reads queue far longer.  (Unscaled, this small
// drive is already the bottleneck: 1.85 s for a 0.137 s span.)
TEST(SampleTraces, TpccSmallTimeScaledSlowerAndFaster) {
  const double span = trace_span_s(sample("tpcc-small.trace"));
  ASSERT_GT(span, 0.1);
  const auto slow = run_trace("trace:" + sample("tpcc-small.trace") + ",scale=100", 6999);
  EXPECT_GE(slow["sim_time_s"].get<double>(), 100 * span);
  EXPECT_LT(slow["sim_time_s"].get<double>(), 100 * span + 0.1);
  const auto fast = test::run_child(test::small_platform(), "trace:" + sample("tpcc-small.trace") + ",scale=0.01", "tpcc-fast");
  EXPECT_LT(fast["sim_time_s"].get<double>(), slow["sim_time_s"].get<double>() / 5);
  EXPECT_GE(fast["sim_time_s"].get<double>(), 0.01 * span);
  const double slow_p50 = slow["ops"]["read"]["latency_us"]["p50"].get<double>();
  EXPECT_GT(fast["ops"]["read"]["latency_us"]["p50"].get<double>(), 10 * slow_p50);
}

// Closed-loop replay (replay=closed): the trace's requests as fast as the drive takes them at
// the given queue depth, every read verified; a deeper queue finishes the same trace sooner.
TEST(SampleTraces, TpccSmallClosedLoopReplay) {
  const auto deep = run_trace("trace:" + sample("tpcc-small.trace") + ",replay=closed,iodepth=32", 6999);
  const auto shallow =
      test::run_child(test::small_platform(), "trace:" + sample("tpcc-small.trace") + ",replay=closed,iodepth=1", "tpcc-qd1");
  EXPECT_EQ(shallow["host_requests"], deep["host_requests"]);
  EXPECT_LT(deep["sim_time_s"].get<double>(), shallow["sim_time_s"].get<double>() / 2);
  EXPECT_NE(deep["workload"].get<std::string>().find("replay=closed iodepth=32"), std::string::npos);
  RecordProperty("qd1_s", std::to_string(shallow["sim_time_s"].get<double>()));
  RecordProperty("qd32_s", std::to_string(deep["sim_time_s"].get<double>()));
}

TEST(SampleTraces, MixedGeneratorWithPayloads) {
  auto sets = test::small_platform();
  sets.push_back("sim.payload=true");
  auto run = test::run_platform(sets, "fio:rw=randrw,rwmixread=50,bs=16k,iodepth=16,numjobs=2,io=3000");
  test::expect_clean(run.results);
  EXPECT_GT(run.results["ftl"]["gc_runs"].get<uint64_t>(), 0u);
}
