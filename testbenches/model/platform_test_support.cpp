#include "model/platform_test_support.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <random>

#include "models/common/config.h"
#include "platforms/run_report.h"

namespace ssdvp::test {

std::vector<std::string> small_platform() {
  return {"nand.channels=4",      "nand.ways=2",           "nand.planes=2", "nand.blocks_per_plane=64",
          "nand.mlc.pages_per_block=64", "dram.size_mib=256", "sim.progress=false",
          "ftl.gc_check_victims=true", "ftl.check_pool_walk=true",
          "sim.output_dir=" + std::string(::testing::TempDir()) + "ssdvp-test-out"};
}

Run run_platform(std::vector<std::string> sets, const std::string& workload, bool precondition) {
  sets.push_back("sim.progress=false");
  Config cfg = Config::load("", sets);
  RunOptions opt;
  opt.workload_spec = workload;
  opt.precondition = precondition;
  opt.test_aids = true;   // small_platform() checks the firmware's internals
  Run r;
  r.platform = std::make_unique<SsdPlatform>(cfg, opt);
  r.results = r.platform->run();
  return r;
}

void expect_clean(const nlohmann::json& r, const ExpectedErrors& expected) {
  EXPECT_TRUE(r["completed"].get<bool>()) << r["errors"].dump();
  EXPECT_TRUE(r["errors"].empty()) << r["errors"].dump();
  EXPECT_EQ(exit_status(r), 0);
  ASSERT_TRUE(r.contains("integrity"));
  const auto& i = r["integrity"];
  EXPECT_EQ(i["mismatches"].get<uint64_t>(), 0u) << i["first_errors"].dump();
  EXPECT_EQ(i["unexplained_errors"].get<uint64_t>(), 0u) << i["first_unexplained"].dump();
  const uint64_t failed = i["reads_failed_media_error"].get<uint64_t>();
  const uint64_t rejected = i["requests_rejected_out_of_range"].get<uint64_t>();
  if (!expected.media_errors) {
    EXPECT_EQ(failed, 0u);
  }
  if (!expected.rejections) {
    EXPECT_EQ(rejected, 0u);
  }
  const uint64_t refused = i["requests_refused_write_protected"].get<uint64_t>();
  if (!expected.write_protected) {
    EXPECT_EQ(refused, 0u);
  }
  EXPECT_LE(failed, i["uncorrectable_sectors_injected"].get<uint64_t>());
  // The firmware's program count is the dies' own, but for programs in flight when the
  // measured phase starts and ends (per die at most die_program_queue host/GC programs plus
  // one of each other kind: GC, translation page).
  const auto& c = r["config"];
  const double dies = std::stod(c["nand.channels"].get<std::string>()) * std::stod(c["nand.ways"].get<std::string>());
  double in_flight = 2 * dies * (std::stod(c["ftl.die_program_queue"].get<std::string>()) + 2) *
                     r["program_unit_sectors"].get<double>();
  if (c["device.interface"].get<std::string>() == "zns") {
    // A zoned device under a host FTL acknowledges a write once it is in the zone's window in
    // DRAM (power-loss protected) and programs it after: the windows' contents at each end too
    // (an active zone's window: the largest command and two units per die, docs/zns.md).
    double active = std::stod(c["device.zns.max_active"].get<std::string>());
    if (active == 0) active = 3 * dies;   // no limit: a host FTL's open zones
    in_flight += 2 * active * (SSD_MDTS_SECTORS + 2 * dies * r["program_unit_sectors"].get<double>());
  }
  EXPECT_NEAR(r["nand"]["programmed_sectors"].get<double>(), r["ftl"]["flash_program_sectors"].get<double>(), in_flight);
  // Every request with an error status is one of the outcomes above.
  uint64_t op_errors = 0, statuses = 0, reads = 0;
  for (const auto& [name, o] : r["ops"].items()) {
    op_errors += o["errors"].get<uint64_t>();
    if (name == "read") reads = o["requests"].get<uint64_t>();
  }
  EXPECT_EQ(op_errors, failed + rejected + refused);
  for (const auto& [status, n] : r["host"]["error_statuses"].items()) {
    statuses += n.get<uint64_t>();
    const uint16_t st = uint16_t(std::stoul(status));
    EXPECT_TRUE((st == SSD_ST_MEDIA_ERROR && expected.media_errors) || (st == SSD_ST_LBA_RANGE && expected.rejections) ||
                (st == SSD_ST_WRITE_PROTECTED && expected.write_protected))
        << "unexpected error status " << status;
  }
  if (!expected.media_errors && !expected.rejections && !expected.write_protected) {
    EXPECT_EQ(statuses, 0u);
  }
  // Every read is verified or failed (reads past the end are rejected, in `rejected`).
  if (!expected.rejections) {
    EXPECT_EQ(i["reads_checked"].get<uint64_t>() + failed, reads);
  } else {
    EXPECT_LE(i["reads_checked"].get<uint64_t>() + failed, reads);
  }
}

nlohmann::json run_child(const std::vector<std::string>& sets, const std::string& workload, const std::string& name,
                         const std::string& platform_file) {
  const std::string dir = std::string(::testing::TempDir()) + name;
  std::string cmd = std::string(SSDVP_BINARY) +  " run --quiet --test-aids --out '" + dir + "' --workload '" + workload + "'";
  if (!platform_file.empty()) cmd += " --platform '" + platform_file + "'";
  for (const auto& s : sets) cmd += " --set '" + s + "'";
  cmd += " --set sim.progress=false > '" + dir + ".log' 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::ifstream in(dir + "/run.json");
  return nlohmann::json::parse(in);
}

void drop_machine_figures(nlohmann::json& j) {
  if (!j.is_object() && !j.is_array()) return;
  if (j.is_object())
    for (auto it = j.begin(); it != j.end();) {
      const std::string k = it.key();
      if (k.find("wall") != std::string::npos || k == "host_peak_rss_mib" || k == "drive_state" ||
          k == "host_seconds_executing" || k == "mips_while_executing" || k == "output_dir") {
        it = j.erase(it);
      } else {
        drop_machine_figures(*it);
        ++it;
      }
    }
  else
    for (auto& e : j) drop_machine_figures(e);
}

std::unique_ptr<SsdPlatform> lapt_platform(const std::vector<std::string>& sets, const std::string& workload,
                                           bool precondition) {
  Config cfg = Config::load(std::string(SSDVP_SOURCE_DIR) + "/platforms/lapt-slc-mlc.toml", sets);
  RunOptions opt;
  opt.workload_spec = workload;
  opt.precondition = precondition;
  opt.test_aids = true;
  return std::make_unique<SsdPlatform>(cfg, opt);
}

std::string write_burst_trace(const std::string& name, unsigned bursts, unsigned writes, uint64_t spacing_ns,
                              uint64_t gap_ns, uint32_t span_pages) {
  const std::string path = std::string(::testing::TempDir()) + name;
  std::ofstream out(path);
  std::mt19937_64 rng(7);
  uint64_t t = 0;
  for (unsigned b = 0; b < bursts; b++) {
    for (unsigned i = 0; i < writes; i++) {
      t += spacing_ns;
      out << t << " 0 " << (rng() % span_pages) * 8 << " 8 0\n";
    }
    t += gap_ns;
  }
  return path;
}

double ns(const sc_core::sc_time& t) { return t.to_seconds() * 1e9; }

}  // namespace ssdvp::test
