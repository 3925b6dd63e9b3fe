// End-to-end runs: every shipped sample trace and a mixed generator workload, on a small
// preconditioned platform, with every read checked.
#include <gtest/gtest.h>

#include "model/platform_test_support.h"

using namespace ssdvp;

namespace {
std::string sample(const std::string& name) { return std::string(SSDVP_SOURCE_DIR) + "/traces/samples/" + name; }

void run_trace(const std::string& spec, uint64_t min_requests) {
  auto run = test::run_platform(test::small_platform(), spec);
  const auto& r = run.results;
  test::expect_clean(r);
  EXPECT_GE(r["host_requests"].get<uint64_t>(), min_requests);
  EXPECT_GT(r["integrity"]["sectors_checked"].get<uint64_t>(), 0u);
}
}  // namespace

TEST(SampleTraces, TpccSmall) { run_trace(sample("tpcc-small.trace"), 6999); }
TEST(SampleTraces, WebSearchSmall) { run_trace(sample("wsrch-small.trace"), 24000); }
TEST(SampleTraces, SqliteWalBlkparse) { run_trace(sample("sqlitewal_update_blkparse.txt"), 4000); }
TEST(SampleTraces, TpccSmallTimeScaledAndFast) { run_trace("trace:" + sample("tpcc-small.trace") + ",scale=0.01", 6999); }

TEST(SampleTraces, MixedGeneratorWithPayloads) {
  auto sets = test::small_platform();
  sets.push_back("sim.payload=true");
  auto run = test::run_platform(sets, "fio:rw=randrw,rwmixread=50,bs=16k,iodepth=16,numjobs=2,io=3000");
  test::expect_clean(run.results);
  EXPECT_GT(run.results["ftl"]["gc_runs"].get<uint64_t>(), 0u);
}
