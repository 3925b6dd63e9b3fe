// Power loss and recovery, as `ssdvp run --power-cut AT` does it (docs/reliability.md): the
// run stops at the cut with what the dies were doing left unreadable, the platform powers on
// over the saved NAND image, the firmware rebuilds its map from the OOB, and the host reads
// every sector back: each must hold its last durable write or a newer one, or zeros where a
// trim allows.  Each case runs whole ssdvp processes (two per cut).
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "model/platform_test_support.h"

namespace {

constexpr const char* kMix = "fio:rw=randwrite,bsrange=4k-32k,iodepth=16,io=40000,fua_percent=10,fsync=64,trim_percent=5";

struct Cut {
  int status = -1;
  nlohmann::json before, after;
  std::string err;
};

Cut cut_run(const std::string& name, const std::string& at, std::vector<std::string> extra = {},
            const std::string& workload = kMix) {
  const std::string dir = std::string(::testing::TempDir()) + "power-cut-" + name;
  std::filesystem::remove_all(dir);
  std::string cmd = std::string(SSDVP_BINARY) + " run -q --out '" + dir + "' --power-cut " + at + " --workload '" + workload + "'";
  for (const auto& s : ssdvp::test::small_platform()) cmd += " --set '" + s + "'";
  for (const auto& s : extra) cmd += " --set '" + s + "'";
  cmd += " 2> '" + dir + ".err'";
  Cut c;
  const int rc = std::system(cmd.c_str());
  c.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  std::ifstream err(dir + ".err");
  c.err.assign(std::istreambuf_iterator<char>(err), std::istreambuf_iterator<char>());
  if (std::filesystem::exists(dir + "/before-cut/run.json")) c.before = nlohmann::json::parse(std::ifstream(dir + "/before-cut/run.json"));
  if (std::filesystem::exists(dir + "/run.json")) c.after = nlohmann::json::parse(std::ifstream(dir + "/run.json"));
  return c;
}

// The cut happened part-way, something was interrupted, recovery read the whole namespace back
// and nothing durable was lost.
void expect_recovered(const Cut& c) {
  ASSERT_EQ(c.status, 0) << c.err;
  ASSERT_TRUE(c.before.contains("power_cut")) << c.before.dump();
  EXPECT_GT(c.before["power_cut"]["host_requests_done"].get<uint64_t>(), 0u);
  ASSERT_TRUE(c.after.contains("recovery")) << c.after.dump();
  const auto& chk = c.after["recovery"]["check"];
  EXPECT_EQ(chk["lost"].get<uint64_t>(), 0u) << chk["first_lost"].dump();
  EXPECT_EQ(chk["sectors_checked"].get<uint64_t>(), c.after["ftl"]["logical_sectors"].get<uint64_t>());
  EXPECT_GT(c.after["recovery"]["used_superblocks"].get<uint64_t>(), 0u);
  EXPECT_TRUE(c.after["errors"].empty()) << c.after["errors"].dump();
}

}  // namespace

TEST(PowerCut, MidProgramsEarlyInTheWorkload) {
  const Cut c = cut_run("early", "7ms");
  expect_recovered(c);
  EXPECT_FALSE(c.before["power_cut"]["interrupted"].empty());   // programs were under way
}

TEST(PowerCut, DeepInGarbageCollection) {
  const Cut c = cut_run("gc", "ops:25000");
  expect_recovered(c);
  EXPECT_GT(c.before["ftl"]["gc_runs"].get<uint64_t>(), 50u);
}

TEST(PowerCut, PairedPageLossOnTheRingBuffer) {
  expect_recovered(cut_run("ring", "ops:9000", {"nand.paired_page_loss=true", "ftl.write_buffer=ring"}));
}

TEST(PowerCut, WriteCacheOffEveryCompletedWriteSurvives) {
  const Cut c = cut_run("wt", "ops:6000", {"device.volatile_write_cache=false"},
                        "fio:rw=randwrite,bs=4k,iodepth=8,io=20000,trim_percent=5");
  expect_recovered(c);
  // With the cache off every acknowledged write was durable: none may read back older.
  EXPECT_GT(c.before["ftl"]["durable_writes"].get<uint64_t>(), 100u);
}

TEST(PowerCut, TwoCoresOnTheIss) {
  expect_recovered(cut_run("iss", "ops:4000", {"firmware.mode=iss", "firmware.cores=2", "host.queues=2"},
                           "fio:rw=randwrite,bsrange=4k-16k,iodepth=8,numjobs=2,io=3000,fua_percent=10,fsync=32,trim_percent=5"));
}

TEST(PowerCut, RecoveryOfADemandBasedMapIsRefusedNamingTheKey) {
  const Cut c = cut_run("dftl", "1ms", {"ftl.mapping=dftl"});
  EXPECT_EQ(c.status, 2);
  EXPECT_NE(c.err.find("ftl.mapping"), std::string::npos) << c.err;
}

TEST(PowerCut, BadCutPointIsNamed) {
  const Cut c = cut_run("bad", "soon");
  EXPECT_EQ(c.status, 2);
  EXPECT_NE(c.err.find("--power-cut soon"), std::string::npos) << c.err;
}
