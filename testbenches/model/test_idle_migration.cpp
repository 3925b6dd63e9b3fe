// Idle-time migration (ftl.idle_migration_us, place/idle_migration.h) on the LAPT paper's
// mixed device: SLC cleaned ahead of need while the host is idle, natively and on the ISS
// (the firmware sleeps and the timer wakes it), lower latency for the next burst, and no
// further migration once a host command arrives.  Each TEST builds a platform and runs in its
// own process.
#include <gtest/gtest.h>

#include <fstream>

#include "model/platform_test_support.h"

using namespace ssdvp;

namespace {

const std::string kPlatform = std::string(SSDVP_SOURCE_DIR) + "/platforms/lapt-slc-mlc.toml";
// Sectors one idle period of 5 ms can migrate: the SLC die keeps at most two 4-sector
// superpages in programming (one per GC buffer half) and an MLC program takes 1.35 ms, so
// about 4 programs complete in 5 ms, plus the two in flight when it stops: 6 x 4 = 24 sectors.
// A migration that went on for the whole 25 ms period would move about 4 times as many.
constexpr uint64_t kMaxSectorsPerShortPeriod = 24;

// Bursts of 3,000 4 KiB random writes (12 MiB, 10 us apart: faster than the drive) with 1 s of
// idle time after each, on the shipped device (16 MiB of SLC) with a 4 MiB write buffer.
std::vector<std::string> burst_sets(const std::string& policy, uint32_t idle_us) {
  return {"ftl.placement=" + policy, "ftl.write_buffer_mib=4", "ftl.idle_migration_us=" + std::to_string(idle_us)};
}

void check_idle_bursts(const std::string& mode) {
  const std::string trace = test::write_burst_trace("idle-bursts-" + mode + ".trace", 4, 3000, 10000, 1000000000, 100000);
  auto sets = burst_sets("slc-only", 20000);
  sets.push_back("firmware.mode=" + mode);
  sets.push_back("sim.progress=false");
  sets.push_back("sim.output_dir=" + std::string(::testing::TempDir()) + "idle-bursts-" + mode);
  auto platform = test::lapt_platform(sets, "trace:" + trace);
  const auto r = platform->run();
  test::expect_clean(r);
  const auto& p = r["placement"];
  EXPECT_GE(p["idle_migration_runs"].get<uint64_t>(), 3u);   // after each of the first 3 bursts
  EXPECT_GT(p["idle_migrated_sectors"].get<uint64_t>(), 0u);
  EXPECT_LE(p["idle_migrated_sectors"].get<uint64_t>(), p["migrated_sectors"].get<uint64_t>());
  // The same bursts without idle migration: nothing migrated while idle, and each burst after
  // the first meets a full SLC region and waits for migration.
  const auto off = test::run_child(burst_sets("slc-only", 0), "trace:" + trace, "idle-bursts-off-" + mode, kPlatform);
  EXPECT_EQ(off["placement"]["idle_migrated_sectors"].get<uint64_t>(), 0u);
  EXPECT_EQ(off["placement"]["idle_migration_runs"].get<uint64_t>(), 0u);
  const double on_mean = r["ops"]["write"]["latency_us"]["mean"].get<double>();
  const double off_mean = off["ops"]["write"]["latency_us"]["mean"].get<double>();
  EXPECT_LT(on_mean, off_mean * 0.9) << "idle migration did not shorten the bursts' write latency";
}

}  // namespace

TEST(IdleMigration, CleansSlcBetweenBurstsNative) { check_idle_bursts("native"); }
TEST(IdleMigration, CleansSlcBetweenBurstsOnTheIss) { check_idle_bursts("iss"); }

// One burst fills SLC (the drive takes about a second to absorb it); from the burst's end the
// host reads one sector every 25 ms for 3 s, with idle migration after 20 ms: once the drive
// is quiet every read arrives while a migration runs (the SLC region needs thousands of
// sectors moved to reach its target, 5 ms of migration moves a few dozen) and stops it.  After a stop GC issues nothing for the paused die (counted at every GC flash
// operation), and each period moves what 5 ms allow plus what was in flight, not the 25 ms a
// migration that did not stop would have had.
TEST(IdleMigration, StopsWhenAHostCommandArrives) {
  const std::string trace = std::string(::testing::TempDir()) + "idle-stop.trace";
  {
    std::ofstream out(trace);   // time_ns device lba_512 size_512 type (1 = read)
    uint64_t t = 0;
    for (unsigned i = 0; i < 6000; i++) out << (t += 10000) << " 0 " << (i * 7919u % 100000u) * 8 << " 8 0\n";
    for (unsigned i = 0; i < 120; i++) out << (t += 25000000) << " 0 " << (i * 104729u % 200000u) * 8 << " 8 1\n";
  }
  auto sets = burst_sets("slc-only", 20000);
  sets.push_back("sim.progress=false");
  sets.push_back("sim.output_dir=" + std::string(::testing::TempDir()) + "idle-stop");
  auto platform = test::lapt_platform(sets, "trace:" + trace);
  const auto r = platform->run();
  test::expect_clean(r);
  const auto& p = r["placement"];
  const uint64_t runs = p["idle_migration_runs"].get<uint64_t>(), stops = p["idle_migration_stops"].get<uint64_t>();
  EXPECT_GE(stops, 40u);
  EXPECT_GE(runs, stops);
  EXPECT_EQ(p["idle_ops_while_stopped"].get<uint64_t>(), 0u);
  EXPECT_GT(p["idle_migrated_sectors"].get<uint64_t>(), 0u);
  EXPECT_LE(p["idle_migrated_sectors"].get<uint64_t>(), runs * kMaxSectorsPerShortPeriod);
}
