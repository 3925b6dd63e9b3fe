// Uniform random overwrite at steady state must give the write amplification of the
// analytic model for that cleaning policy and over-provisioning (Desnoyers, "Analytic
// modeling of SSD write performance", SYSTOR 2012): with alpha = physical/logical space,
// the fraction of still-valid pages in a cleaned block X0 solves X0 = exp(-alpha (1 - X0)),
// i.e. X0 = -W0(-alpha e^-alpha) / alpha, and WA = 1 / (1 - X0).  That is exact for FIFO
// cleaning and, for uniform traffic and large blocks, the limit greedy approaches.  The
// physical space the model sees is what can hold data: the free superblocks GC keeps
// (between gc_low and gc_high, about their mean) and the open ones do not.
#include <gtest/gtest.h>

#include <cmath>

#include "model/platform_test_support.h"

using namespace ssdvp;

namespace {

// Principal branch of Lambert W on [-1/e, 0), by Newton's method.
double lambert_w0(double x) {
  double w = -0.5;
  for (int i = 0; i < 100; i++) {
    const double e = std::exp(w);
    const double f = w * e - x;
    w -= f / (e * (w + 1));
  }
  return w;
}

double model_waf(double alpha) {
  const double x0 = -lambert_w0(-alpha * std::exp(-alpha)) / alpha;
  return 1.0 / (1.0 - x0);
}

void check_waf(const std::string& policy, double op, double tolerance) {
  auto run = test::run_platform({"nand.channels=4", "nand.ways=1", "nand.planes=2", "nand.blocks_per_plane=1024",
                                 "nand.mlc.pages_per_block=64", "dram.size_mib=256", "ftl.op=" + std::to_string(op),
                                 "ftl.gc_policy=" + policy, "precondition.fill=1", "precondition.overwrite=2",
                                 "nand.mlc.t_prog_us=[100]", "nand.mlc.t_read_us=[10]", "nand.mlc.t_erase_us=300"},
                                "fio:rw=randwrite,bs=4k,iodepth=32,io=300000");
  const auto& r = run.results;
  test::expect_clean(r);
  const PlatformParams& p = run.platform->params();
  const double sb = double(p.nand.planes) * p.nand.mlc.pages_per_block;
  const double physical = double(p.nand.physical_bytes() / 4096);
  const double pool = p.nand.dies() * ((p.ftl.gc_low_blocks + p.ftl.gc_high_blocks) / 2.0 + 1.0) * sb;
  const double logical = r["ftl"]["logical_sectors"].get<double>();
  const double expected = model_waf((physical - pool) / logical);
  const double got = r["waf"].get<double>();
  ::testing::Test::RecordProperty("waf", std::to_string(got));
  ::testing::Test::RecordProperty("model", std::to_string(expected));
  EXPECT_NEAR(got, expected, expected * tolerance) << policy << " op " << op;
}

}  // namespace

TEST(WriteAmplification, LambertModelItself) {
  // Known values: alpha = 1.3 gives 2.36 (Xiang & Kurkoski's check of the same expression).
  EXPECT_NEAR(model_waf(1.3), 2.36, 0.01);
  EXPECT_NEAR(model_waf(2.0), 1.255, 0.01);
}

TEST(WriteAmplification, GreedyMatchesModelAt10PercentOp) { check_waf("greedy", 0.10, 0.10); }
TEST(WriteAmplification, GreedyMatchesModelAt25PercentOp) { check_waf("greedy", 0.25, 0.10); }
TEST(WriteAmplification, FifoMatchesModelAt25PercentOp) { check_waf("fifo", 0.25, 0.10); }
