// The FTL on the host over a zoned device (host.ftl over device.interface = zns;
// models/host/zns_flash_backend.h, docs/host-ftl.md): a log-structured host FTL keeping its own
// map and doing its GC between zones (a zone reset for each victim), every read checked through
// GC, the device's own programs those of the host FTL (no GC in the device: its write
// amplification 1), the zones' resets the FTL's erases; and the zoned configurations it cannot
// run named.  Flushes are not held to durability on the NAND: the zoned device acknowledges a
// write in its power-loss-protected window (the dump at a power cut: test_zns_power_cut.cpp),
// which that check does not look at (docs/zns.md).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/platform_test_support.h"
#include "models/common/config.h"
#include "models/common/params.h"

using namespace ssdvp;

namespace {

// A small zoned device: 2 channels x 2 ways, 2 planes, 32 blocks of 64 pages of 4 KiB: 128
// zones of 128 sectors, one block of one die each; pblk on the host with a 4 MiB ring.
std::vector<std::string> zns_host_ftl_sets(std::vector<std::string> extra = {}) {
  std::vector<std::string> s = {"device.interface=zns", "device.zns.dies_per_zone=1", "device.zns.zasl_kib=256", "host.ftl=pblk",
                                "nand.channels=2", "nand.ways=2", "nand.planes=2", "nand.blocks_per_plane=32",
                                "nand.mlc.pages_per_block=64", "ftl.write_buffer=ring", "ftl.write_buffer_mib=4",
                                "dram.size_mib=256", "precondition.mode=timed", "precondition.fill=1",
                                "precondition.overwrite=0", "ftl.gc_check_victims=true"};
  s.insert(s.end(), extra.begin(), extra.end());
  return s;
}

}  // namespace

// Every read is checked; the flushes (fsync=64) complete, but their durability is not checked
// here: sim.check_flush_durability looks at the NAND only, and a zoned device holds what it
// acknowledged in its power-loss-protected windows in DRAM (docs/zns.md, "Flush durability under
// a host FTL"), so the check would call that data lost.  (Named ...ReadAndFlush... until
// 2026-12, which claimed a flush check it did not make.)
TEST(HostFtlZns, PblkOverZonesChecksEveryReadThroughHostGc) {
  auto run = test::run_platform(zns_host_ftl_sets(), "fio:rw=randrw,rwmixread=30,bs=4k,iodepth=16,io=40000,fsync=64");
  const auto& r = run.results;
  test::expect_clean(r);
  EXPECT_GT(r["integrity"]["reads_checked"].get<uint64_t>(), 10000u);
  EXPECT_GT(r["ops"]["flush"]["requests"].get<uint64_t>(), 400u) << "fsync=64 over about 28,000 writes";
  EXPECT_EQ(r["ops"]["flush"]["errors"].get<uint64_t>(), 0u);
  EXPECT_EQ(r["integrity"]["flushes_checked"].get<uint64_t>(), 0u) << "no flush check runs over zones";
  // Host GC between zones: victims collected, each one's zone reset on the device.
  EXPECT_GT(r["ftl"]["gc_runs"].get<uint64_t>(), 100u);
  EXPECT_GT(r["waf"].get<double>(), 1.5) << "a full drive's random writes make the host's GC copy";
  const auto& dev = r["host_ftl"]["device_commands"];
  EXPECT_EQ(dev["resets"].get<uint64_t>(), r["ftl"]["erases"].get<uint64_t>());
  // The device programs what the host FTL writes, nothing more (no GC of its own): its NAND's
  // programmed sectors equal the sectors the host FTL sent in the measured window, but for
  // what its zones' windows held at the window's ends (expect_clean's bound).
  const double sent = dev["lbas_written"].get<double>();
  EXPECT_NEAR(r["nand"]["programmed_sectors"].get<double>(), sent, 0.05 * sent);
  EXPECT_GT(sent, 1.5 * r["ftl"]["host_write_sectors"].get<double>()) << "the host GC's copies go to the device too";
}

TEST(HostFtlZns, ZonedConfigurationsItCannotRunAreNamed) {
  auto refused = [](std::vector<std::string> extra, const std::string& key) {
    try {
      Config cfg = Config::load("", zns_host_ftl_sets(std::move(extra)));
      PlatformParams::from(cfg);
      ADD_FAILURE() << "accepted; expected a refusal naming " << key;
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
    }
  };
  refused({"device.zns.dies_per_zone=2"}, "device.zns.dies_per_zone");
  refused({"device.zns.stripes_per_zone=2"}, "device.zns.stripes_per_zone");
  refused({"device.zns.spare_stripes=1"}, "device.zns.spare_stripes");
  refused({"device.zns.max_active=8", "device.zns.max_open=8"}, "device.zns.max_active");
  refused({"precondition.mode=functional"}, "precondition.mode");
}

// A trace says nothing of zones: on a zoned drive it replays through the host FTL, whose block
// device it addresses (docs/zns.md, Workloads).
TEST(HostFtlZns, ATraceReplaysThroughTheHostFtl) {
  auto run = test::run_platform(zns_host_ftl_sets({"precondition.fill=0.5"}),
                                std::string(SSDVP_SOURCE_DIR) + "/traces/samples/tpcc-small.trace");
  const auto& r = run.results;
  test::expect_clean(r);
  EXPECT_GT(r["integrity"]["reads_checked"].get<uint64_t>(), 1000u);
  EXPECT_GT(r["host_ftl"]["device_commands"]["writes"].get<uint64_t>(), 0u);
}
