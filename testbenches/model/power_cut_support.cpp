// Helpers of the power-cut tests: see power_cut_support.h.
#include "model/power_cut_support.h"

#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "model/platform_test_support.h"

namespace ssdvp::test {

std::string after_recovery(unsigned requests) {
  return " --after-recovery 'fio:rw=randrw,rwmixread=30,bsrange=4k-32k,iodepth=16,io=" + std::to_string(requests) +
         ",trim_percent=5,fsync=64,seed=9'";
}

Cut cut_run(const std::string& name, const std::string& at, std::vector<std::string> extra, const std::string& workload) {
  const std::string dir = std::string(::testing::TempDir()) + "power-cut-" + name;
  std::filesystem::remove_all(dir);
  std::string cmd = std::string(SSDVP_BINARY) +  " run -q --test-aids --out '" + dir + "' --power-cut " + at + " --workload '" + workload + "'";
  for (const auto& s : small_platform()) cmd += " --set '" + s + "'";
  for (const auto& s : extra) cmd += " --set '" + s + "'";
  cmd += " 2> '" + dir + ".err'";
  Cut c;
  c.after_recovery = at.find("--after-recovery") != std::string::npos;
  const int rc = std::system(cmd.c_str());
  c.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  std::ifstream err(dir + ".err");
  c.err.assign(std::istreambuf_iterator<char>(err), std::istreambuf_iterator<char>());
  if (std::filesystem::exists(dir + "/before-cut/run.json")) c.before = nlohmann::json::parse(std::ifstream(dir + "/before-cut/run.json"));
  if (std::filesystem::exists(dir + "/run.json")) c.after = nlohmann::json::parse(std::ifstream(dir + "/run.json"));
  return c;
}

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
  if (!c.after_recovery) return;
  // The after-recovery workload ran: it wrote, and read back more than the check did.
  EXPECT_EQ(c.after["integrity"]["mismatches"].get<uint64_t>(), 0u) << c.after["integrity"].dump();
  EXPECT_GT(c.after["integrity"]["sectors_checked"].get<uint64_t>(), chk["sectors_checked"].get<uint64_t>());
  EXPECT_GT(c.after["ops"]["write"]["requests"].get<uint64_t>(), 0u);
}

}  // namespace ssdvp::test
