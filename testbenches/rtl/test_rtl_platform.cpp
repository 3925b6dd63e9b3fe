// The Verilated channel inside the platform (channel.model = "rtl"): every read verified on a
// sample trace, QD1 read latency equal to the TLM channel's closed form plus the RTL's fixed
// sequencing cycles, and a mixed random workload within 2% of the TLM channel.  Each TEST
// builds its own platform, in its own process.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "model/platform_test_support.h"
#include "models/host/host_driver.h"

using namespace ssdvp;

TEST(RtlPlatform, SampleTraceWithIntegrity) {
  auto sets = test::small_platform();
  sets.push_back("channel.model=rtl");
  auto run = test::run_platform(sets, std::string(SSDVP_SOURCE_DIR) + "/traces/samples/tpcc-small.trace");
  test::expect_clean(run.results);
  EXPECT_GE(run.results["host_requests"].get<uint64_t>(), 6999u);
}

TEST(RtlPlatform, Qd1ReadMatchesTheTlmClosedFormPlusFixedCycles) {
  auto run = test::run_platform({"channel.model=rtl", "nand.channels=1", "nand.ways=1", "nand.blocks_per_plane=64",
                                 "dram.size_mib=128", "precondition.fill=0.5", "precondition.overwrite=0"},
                                "fio:rw=randread,bs=4k,iodepth=1,size=40%,io=300");
  test::expect_clean(run.results);
  const auto& h = run.platform->driver().stats(workload::Op::Read).latency;
  // The TLM channel's value for this configuration (ClosedForm.Qd1RandomReadOnOneDieEqualsConfiguredPath).
  const double tlm_ns = 75725.8, cycle_ns = 2.5;
  const double extra = (double(h.max()) - tlm_ns) / cycle_ns;
  RecordProperty("rtl_extra_cycles", std::to_string(extra));
  EXPECT_LE(double(h.max() - h.min()), cycle_ns);   // the bus clock grid: within one cycle
  EXPECT_GE(extra, 0.0);
  EXPECT_LE(extra, 8.0);
}

TEST(RtlPlatform, MixedWorkloadWithinTwoPercentOfTlm) {
  const std::string dir = std::string(::testing::TempDir()) + "rtl-vs-tlm";
  auto run_mode = [&](const std::string& model) {
    auto sets = test::small_platform();
    sets.push_back("channel.model=" + model);
    auto run = test::run_platform(sets, "fio:rw=randrw,bs=4k,iodepth=8,io=4000");
    test::expect_clean(run.results);
    return run.results["sim_time_s"].get<double>();
  };
  // One platform per process: the TLM run happens in a child ssdvp.
  const double rtl = run_mode("rtl");
  std::string cmd = std::string(SSDVP_BINARY) + " run --quiet --out " + dir +
                    " --workload fio:rw=randrw,bs=4k,iodepth=8,io=4000";
  for (const auto& s : test::small_platform()) cmd += " --set " + s;
  cmd += " --set sim.progress=false > /dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  std::ifstream in(dir + "/run.json");
  const double tlm = nlohmann::json::parse(in)["sim_time_s"].get<double>();
  RecordProperty("rtl_sim_s", std::to_string(rtl));
  RecordProperty("tlm_sim_s", std::to_string(tlm));
  EXPECT_NEAR(rtl, tlm, tlm * 0.02);
}

TEST(RtlPlatform, WaveformsOnRequest) {
  const std::string path = std::string(::testing::TempDir()) + "channel.fst";
  std::remove(path.c_str());
  auto sets = test::small_platform();
  sets.push_back("channel.model=rtl");
  sets.push_back("channel.rtl_trace=" + path);
  sets.push_back("precondition.overwrite=0");
  {
    auto run = test::run_platform(sets, "fio:rw=randread,bs=4k,iodepth=4,io=50");
    test::expect_clean(run.results);
  }   // the platform (and its trace files) closes here
  const std::string second = path.substr(0, path.size() - 4) + ".1.fst";
  for (const std::string& f : {path, second}) {
    std::ifstream in(f, std::ios::binary | std::ios::ate);
    ASSERT_TRUE(in.good()) << f;
    EXPECT_GT(in.tellg(), 1000) << f;
  }
}
