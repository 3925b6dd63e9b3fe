#include "model/platform_test_support.h"

#include <gtest/gtest.h>

#include "models/common/config.h"

namespace ssdvp::test {

std::vector<std::string> small_platform() {
  return {"nand.channels=4",      "nand.ways=2",           "nand.planes=2", "nand.blocks_per_plane=64",
          "nand.mlc.pages_per_block=64", "dram.size_mib=256", "sim.progress=false",
          "sim.output_dir=" + std::string(::testing::TempDir()) + "ssdvp-test-out"};
}

Run run_platform(std::vector<std::string> sets, const std::string& workload, bool precondition) {
  sets.push_back("sim.progress=false");
  Config cfg = Config::load("", sets);
  RunOptions opt;
  opt.workload_spec = workload;
  opt.precondition = precondition;
  Run r;
  r.platform = std::make_unique<SsdPlatform>(cfg, opt);
  r.results = r.platform->run();
  return r;
}

void expect_clean(const nlohmann::json& r) {
  EXPECT_TRUE(r["completed"].get<bool>()) << r["errors"].dump();
  EXPECT_TRUE(r["errors"].empty()) << r["errors"].dump();
  ASSERT_TRUE(r.contains("integrity"));
  EXPECT_EQ(r["integrity"]["mismatches"].get<uint64_t>(), 0u) << r["integrity"]["first_errors"].dump();
}

double ns(const sc_core::sc_time& t) { return t.to_seconds() * 1e9; }

}  // namespace ssdvp::test
