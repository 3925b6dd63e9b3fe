// The Verilated channel inside the platform (channel.model = "rtl"): every read verified on a
// sample trace; a QD1 read workload, a mixed random workload and reads of independent planes
// give the same results as the TLM channel (the whole run.json but wall-clock figures:
// simulated time, every latency percentile, the FTL's and NAND's counters); waveforms; the protocol monitor on the pins.  Each
// TEST builds its own platform, in its own process (the TLM twin runs in a child ssdvp).
#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "model/platform_test_support.h"
#include "models/host/host_driver.h"

using namespace ssdvp;

// Every shipped sample trace on the RTL channel, every read verified.
struct SampleTrace {
  std::string file;
  uint64_t min_requests;
};
// Test names show the file, not a pointer (ctest names stay the same from build to build).
void PrintTo(const SampleTrace& t, std::ostream* os) { *os << t.file; }
class RtlSampleTrace : public ::testing::TestWithParam<SampleTrace> {};

namespace {
// The RTL channel really ran: its Verilated model was clocked, its bus cycles counted.
void expect_rtl_clocked(const nlohmann::json& r) {
  ASSERT_TRUE(r.contains("rtl"));
  EXPECT_GT(r["rtl"]["cycles_clocked"].get<uint64_t>(), 1000u);
  EXPECT_GE(r["rtl"]["bus_cycles_simulated"].get<uint64_t>(), r["rtl"]["cycles_clocked"].get<uint64_t>());
}
}  // namespace

TEST_P(RtlSampleTrace, WithIntegrity) {
  auto sets = test::small_platform();
  sets.push_back("channel.model=rtl");
  auto run = test::run_platform(sets, std::string(SSDVP_SOURCE_DIR) + "/traces/samples/" + GetParam().file);
  test::expect_clean(run.results);
  expect_rtl_clocked(run.results);
  EXPECT_GE(run.results["host_requests"].get<uint64_t>(), GetParam().min_requests);
  EXPECT_EQ(run.results["rtl"]["late_starts"].get<uint64_t>(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Samples, RtlSampleTrace,
                         ::testing::Values(SampleTrace{"tpcc-small.trace", 6999},
                                           SampleTrace{"wsrch-small.trace", 24000},
                                           SampleTrace{"sqlitewal_update_blkparse.txt", 4000}),
                         [](const auto& info) {
                           std::string n = info.param.file;
                           n = n.substr(0, n.find('.'));
                           for (char& c : n)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

namespace {

// Runs the same configuration and workload with the TLM channel in a child ssdvp (one platform
// per process) and returns its run.json.
nlohmann::json tlm_twin(const std::vector<std::string>& sets, const std::string& workload, const std::string& name) {
  const std::string dir = std::string(::testing::TempDir()) + name;
  std::string cmd = std::string(SSDVP_BINARY) + " run --quiet --test-aids --out " + dir + " --workload " + workload;
  for (const auto& s : sets) cmd += " --set " + s;
  cmd += " --set channel.model=tlm --set sim.progress=false > /dev/null 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::ifstream in(dir + "/run.json");
  return nlohmann::json::parse(in);
}

// Where two run.json differ (paths), leaving out what is not a simulated figure.
void differences(const nlohmann::json& a, const nlohmann::json& b, const std::string& path, std::vector<std::string>& out) {
  // Wall-clock and host figures, the channel's own kind and section, and the SystemC kernel's
  // evaluation rounds (the RTL wrapper's thread adds its own): everything else must be equal.
  static const std::set<std::string> skip = {".wall_time_s", ".run_wall_time_s", ".precondition_wall_time_s",
                                             ".host_requests_per_wall_s", ".host_peak_rss_mib", ".config.channel.model",
                                             ".rtl", ".sim_kernel"};
  if (skip.count(path)) return;
  if (a.is_object() && b.is_object()) {
    for (const auto& [k, v] : a.items()) differences(v, b.contains(k) ? b[k] : nlohmann::json(), path + "." + k, out);
    for (const auto& [k, v] : b.items())
      if (!a.contains(k) && !skip.count(path + "." + k)) out.push_back(path + "." + k + " (only with " + "tlm)");
    return;
  }
  if (a != b) out.push_back(path + ": " + a.dump().substr(0, 80) + " against " + b.dump().substr(0, 80));
}

// The RTL run and its TLM twin agree on the whole run.json but wall-clock figures: simulated
// time, every latency figure, the FTL's and the NAND's counters, every utilisation.
void expect_same_as_tlm(const nlohmann::json& rtl, const nlohmann::json& tlm) {
  std::vector<std::string> diff;
  differences(rtl, tlm, "", diff);
  EXPECT_TRUE(diff.empty()) << diff.size() << " figures differ, the first: " << (diff.empty() ? "" : diff.front());
  EXPECT_EQ(rtl["sim_time_s"], tlm["sim_time_s"]);
  EXPECT_EQ(rtl["ops"], tlm["ops"]);
}

// Runs `sets` with the RTL channel (a clean run, the RTL clocked) and with the TLM channel in a
// child ssdvp, and expects the same run; returns both run.json, RTL first.
std::pair<nlohmann::json, nlohmann::json> rtl_and_tlm(const std::vector<std::string>& sets, const std::string& workload,
                                                      const std::string& name) {
  auto rtl_sets = sets;
  rtl_sets.push_back("channel.model=rtl");
  auto run = test::run_platform(rtl_sets, workload);
  test::expect_clean(run.results);
  expect_rtl_clocked(run.results);
  nlohmann::json tlm = tlm_twin(sets, workload, name);
  expect_same_as_tlm(run.results, tlm);
  return {run.results, tlm};
}

}  // namespace

// One die, queue depth 1: every read's latency is the TLM channel's, to the picosecond.
TEST(RtlPlatform, Qd1ReadIdenticalToTlm) {
  rtl_and_tlm({"nand.channels=1", "nand.ways=1", "nand.blocks_per_plane=64", "dram.size_mib=128",
               "precondition.fill=0.5", "precondition.overwrite=0"},
              "fio:rw=randread,bs=4k,iodepth=1,size=40%,io=300", "rtl-qd1");
}

// A mixed random workload at queue depth 8 over 8 channels x 4 ways: the whole run identical.
TEST(RtlPlatform, MixedWorkloadIdenticalToTlm) {
  const auto [rtl, tlm] = rtl_and_tlm(test::small_platform(), "fio:rw=randrw,bs=4k,iodepth=8,io=4000", "rtl-mixed");
  RecordProperty("rtl_sim_s", std::to_string(rtl["sim_time_s"].get<double>()));
  RecordProperty("tlm_sim_s", std::to_string(tlm["sim_time_s"].get<double>()));
}

// The default platform (small blocks) under a mixed load that ends with programs in flight:
// the NAND's figures agree too (a program whose command phase had begun when the run ended
// counted with the TLM channel and not with the RTL one, until the dies' figures were taken
// as of the run's end).
TEST(RtlPlatform, RunEndIdenticalToTlm) {
  rtl_and_tlm({"nand.blocks_per_plane=64"}, "fio:rw=randrw,bs=4k,iodepth=16,io=20000", "rtl-end");
}

// Independent plane reads at queue depth 32 over 4 planes: the RTL's slots and per-plane R/B#
// give the whole run as the TLM channel does, and the reads are faster than without them.
TEST(RtlPlatform, IndependentPlaneReadsIdenticalToTlm) {
  const std::string workload = "fio:rw=randread,bs=4k,iodepth=32,size=50%,io=6000";
  auto sets = test::small_platform();
  for (const char* s : {"nand.planes=4", "precondition.fill=0.5", "precondition.overwrite=0",
                        "nand.independent_plane_reads=true"})
    sets.push_back(s);
  const double independent = rtl_and_tlm(sets, workload, "rtl-indep").first["ops"]["read"]["iops"].get<double>();
  sets.back() = "nand.independent_plane_reads=false";
  const double one_at_a_time = tlm_twin(sets, workload, "rtl-indep-off")["ops"]["read"]["iops"].get<double>();
  RecordProperty("iops_independent", std::to_string(independent));
  RecordProperty("iops_one_at_a_time", std::to_string(one_at_a_time));
  EXPECT_GT(independent, 1.2 * one_at_a_time);
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
    expect_rtl_clocked(run.results);
  }   // the platform (and its trace files) closes here
  const std::string second = path.substr(0, path.size() - 4) + ".1.fst";
  for (const std::string& f : {path, second}) {
    std::ifstream in(f, std::ios::binary | std::ios::ate);
    ASSERT_TRUE(in.good()) << f;
    EXPECT_GT(in.tellg(), 1000) << f;
  }
}

// The protocol monitor on every channel's pins (channel.rtl_monitor): a mixed random workload
// with independent plane reads decodes every flash operation with no violation, and the run
// is the TLM channel's (the monitor only watches; bus phases are clocked cycle by cycle).
TEST(RtlPlatform, ProtocolMonitorOnThePins) {
  auto sets = test::small_platform();
  for (const char* s : {"nand.planes=4", "nand.independent_plane_reads=true", "precondition.overwrite=0",
                        "channel.rtl_monitor=true"})
    sets.push_back(s);
  const auto [rtl, tlm] = rtl_and_tlm(sets, "fio:rw=randrw,bs=4k,iodepth=16,io=600", "rtl-monitor");
  const auto& m = rtl["rtl"]["monitor"];
  EXPECT_EQ(m["violations"].get<uint64_t>(), 0u);
  EXPECT_GT(m["operations_decoded"].get<uint64_t>(), 300u);
  EXPECT_GE(m["cycles_seen"].get<uint64_t>(), rtl["rtl"]["cycles_clocked"].get<uint64_t>());
  RecordProperty("operations_decoded", std::to_string(m["operations_decoded"].get<uint64_t>()));
}
