// GC pacing (ftl.gc_pacing, ftl-sw/gc/pacing.h) on the test platform at steady state (filled,
// overwritten once): at queue depth 32 host writes never stop for a whole 50 ms interval, as
// they do without pacing, and the write tail shrinks; with a slow writer, GC between the marks
// follows the writes instead of racing ahead; the RV32 firmware paces too.  The same run
// without pacing goes in a child ssdvp.  Each TEST builds a platform and runs in its own
// process.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <utility>

#include "model/platform_test_support.h"

using namespace ssdvp;

namespace {

std::vector<std::string> steady_sets(bool pacing, const std::string& name) {
  auto s = test::small_platform();
  s.back() = "sim.output_dir=" + std::string(::testing::TempDir()) + name;
  for (const char* k : {"precondition.fill=1", "precondition.overwrite=1", "sim.series_interval_ms=50"}) s.push_back(k);
  s.push_back(std::string("ftl.gc_pacing=") + (pacing ? "true" : "false"));
  return s;
}

// Write IOPS in each 50 ms interval, without the last (partial) one.
std::vector<double> write_series(const nlohmann::json& r) {
  auto v = r["series"]["ops"]["write"]["iops"].get<std::vector<double>>();
  if (!v.empty()) v.pop_back();
  return v;
}

size_t stopped_intervals(const std::vector<double>& v) {
  size_t n = 0;
  for (double x : v) n += x == 0.0;
  return n;
}

// `workload` on the steady drive paced (here: the run, checked clean) and unpaced (a child
// ssdvp); returns both run.json, paced first.
std::pair<nlohmann::json, nlohmann::json> paced_and_unpaced(const std::string& workload, const std::string& name) {
  auto paced = test::run_platform(steady_sets(true, name + "-on"), workload);
  test::expect_clean(paced.results);
  return {paced.results, test::run_child(steady_sets(false, name + "-off"), workload, name + "-off")};
}

// 3,000 4 KiB writes 1 ms apart over the first 200 MiB: slower than GC can clean.
std::string slow_writes_trace(const std::string& name) {
  const std::string path = std::string(::testing::TempDir()) + name + ".trace";
  std::ofstream t(path);
  std::mt19937 rng(1);
  for (unsigned i = 0; i < 3000; i++) t << uint64_t(i) * 1000000u << " 0 " << (rng() % 51200u) * 8u << " 8 0\n";
  return path;
}

}  // namespace

// Random writes (10 % reads) at QD32 on the steady drive.  Without pacing the pools run down to
// their host reserve together and host writes stop until an erase: 50 ms intervals with no
// write at all.  With pacing no interval stops, the write p99.9 is less than half (measured
// 24.5 against 185.6 ms), and the throughput pays a little for the superblock the host no
// longer drains (measured -3.9 % on these 64-block dies; docs/ftl-guide.md).
TEST(GcPacing, SteadyWritesNeverStopAndTheTailShrinks) {
  const auto [on, unpaced] = paced_and_unpaced("fio:rw=randrw,rwmixread=10,bs=4k,iodepth=32,io=30000", "pacing");
  EXPECT_GT(on["ftl"]["gc_pace_host_waits"].get<uint64_t>(), 0u);
  EXPECT_EQ(unpaced["ftl"]["gc_pace_host_waits"].get<uint64_t>(), 0u);
  const auto s_on = write_series(on), s_off = write_series(unpaced);
  ASSERT_GE(s_on.size(), 20u);
  EXPECT_EQ(stopped_intervals(s_on), 0u);
  EXPECT_GT(stopped_intervals(s_off), 0u) << "the baseline this is measured against stalls";
  const double p999_on = on["ops"]["write"]["latency_us"]["p99.9"].get<double>();
  const double p999_off = unpaced["ops"]["write"]["latency_us"]["p99.9"].get<double>();
  EXPECT_LT(p999_on, 0.5 * p999_off);
  const double iops_on = on["ops"]["write"]["iops"].get<double>(), iops_off = unpaced["ops"]["write"]["iops"].get<double>();
  EXPECT_GT(iops_on, 0.8 * iops_off);
  RecordProperty("write_p999_us_paced", std::to_string(p999_on));
  RecordProperty("write_p999_us_unpaced", std::to_string(p999_off));
  RecordProperty("write_iops_paced", std::to_string(iops_on));
  RecordProperty("write_iops_unpaced", std::to_string(iops_off));
}

// A writer slower than GC (a write per ms): once a pool is back at gc_low_blocks its GC
// follows the writes (copies held) instead of cleaning to gc_high_blocks at once, so fewer
// sectors are copied in the same window; the writes themselves see no difference.
TEST(GcPacing, BetweenTheMarksGcFollowsASlowWriter) {
  const auto [on, unpaced] = paced_and_unpaced("trace:" + slow_writes_trace("pacing-slow"), "pacing-slow");
  EXPECT_GT(on["ftl"]["gc_pace_holds"].get<uint64_t>(), 0u);
  EXPECT_EQ(unpaced["ftl"]["gc_pace_holds"].get<uint64_t>(), 0u);
  EXPECT_LT(on["ftl"]["gc_copied_sectors"].get<uint64_t>(), unpaced["ftl"]["gc_copied_sectors"].get<uint64_t>());
  EXPECT_LE(on["ops"]["write"]["latency_us"]["p99"].get<double>(),
            1.1 * unpaced["ops"]["write"]["latency_us"]["p99"].get<double>());
}

// The same firmware on the RV32 core: host data waits for GC at the reserve, GC waits for the
// writes between the marks, and every read is right.
TEST(GcPacing, PacesOnTheIss) {
  auto s = steady_sets(true, "pacing-iss");
  s.push_back("firmware.mode=iss");
  auto r = test::run_platform(s, "fio:rw=randrw,rwmixread=10,bs=4k,iodepth=32,io=6000");
  test::expect_clean(r.results);
  EXPECT_EQ(r.results["firmware"]["mode"], "iss");
  EXPECT_GT(r.results["ftl"]["gc_pace_host_waits"].get<uint64_t>(), 0u);
  EXPECT_GT(r.results["integrity"]["reads_checked"].get<uint64_t>(), 0u);
}
