// ComboFTL (ftl.placement = combo) on the LAPT paper's mixed device: small writes to SLC and
// large ones to MLC (checked through the map), SLC GC keeping data in SLC until it has
// survived ftl.combo.slc_survivals GCs, integrity natively and on the ISS; the unit-level MLC
// map, and a small drive aged by preconditioning (a pSLC cache).  Each TEST builds
// a platform and runs in its own process.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>

#include "model/platform_test_support.h"
#include "models/nand/die.h"

using namespace ssdvp;

namespace {

std::vector<std::string> combo_sets(const std::string& mode, const std::string& name) {
  return {"nand.slc.blocks_per_plane=64", "ftl.placement=combo", "firmware.mode=" + mode, "sim.progress=false",
          "sim.output_dir=" + std::string(::testing::TempDir()) + name};
}

// Hot small writes (zipf), then large ones, then small again: SLC fills and cleans, keeping
// data twice (the default survivals) before migrating it; every read verified.  The SLC die
// programmed the host's small-write superpages and SLC GC's copies back into SLC, nothing else.
void check_combo_run(const std::string& mode) {
  const std::string small = "fio:rw=randrw,rwmixread=30,bs=4k,iodepth=16,io=8000,random_distribution=zipf:1.1";
  auto platform = test::lapt_platform(combo_sets(mode, "combo-" + mode),
                                      small + ";fio:rw=randwrite,bs=64k,iodepth=16,io=1000;" + small);
  const auto r = platform->run();
  test::expect_clean(r);
  const auto& p = r["placement"];
  EXPECT_EQ(p["policy"], "combo");
  EXPECT_GT(p["host_slc_sectors"].get<uint64_t>(), 0u);
  // the 64 KiB writes (16,000 sectors; some overwritten in the buffer or still in it at the end)
  EXPECT_GT(p["host_mlc_sectors"].get<uint64_t>(), 8000u);
  EXPECT_GT(p["slc_gc_runs"].get<uint64_t>(), 0u);
  EXPECT_GT(p["slc_kept_sectors"].get<uint64_t>(), 0u);
  EXPECT_GT(p["migrated_sectors"].get<uint64_t>(), 0u);
  const ssd_fw_stats* fw = platform->firmware_stats();
  ASSERT_NE(fw, nullptr);
  // Whole run (preconditioning included): host superpages and kept copies, the latter padded
  // to whole superpages at most once per SLC GC run.
  const uint64_t slc = platform->die(0).programmed_sectors();
  EXPECT_GE(slc, fw->host_slc_sectors + fw->slc_kept_sectors);
  EXPECT_LE(slc, fw->host_slc_sectors + fw->slc_kept_sectors + fw->slc_gc_runs * 4u);
  EXPECT_EQ(r["firmware"]["mode"], mode);
  EXPECT_GT(p["units"].get<uint64_t>(), 0u);   // MLC unit-mapped by default
}

}  // namespace

TEST(Combo, NativeWithIntegrityKeepingDataInSlc) { check_combo_run("native"); }
TEST(Combo, OnTheIssWithIntegrityKeepingDataInSlc) { check_combo_run("iss"); }

// Through the map, on an empty drive: a 4 KiB write lands on the SLC die, a 64 KiB write (over
// the 16 KiB threshold) on MLC dies, whatever their logical blocks' history.
TEST(Combo, SmallWriteToSlcLargeWriteToMlc) {
  const std::string trace = std::string(::testing::TempDir()) + "combo-sizes.trace";
  {
    std::ofstream out(trace);   // time_ns device lba_512 size_512 type (0 = write)
    out << "0 0 " << 1000 * 8 << " 8 0\n";       // 4 KiB at page 1000
    out << "1 0 " << 5000 * 8 << " 128 0\n";     // 64 KiB at pages 5000..5015
    out << "2 0 " << 1000 * 8 << " 8 1\n";       // read both back
    out << "3 0 " << 5000 * 8 << " 128 1\n";
  }
  auto platform = test::lapt_platform(combo_sets("native", "combo-sizes"), "trace:" + trace + ",replay=closed,iodepth=1",
                                      /*precondition=*/false);
  const auto r = platform->run();
  test::expect_clean(r);
  const std::vector<uint32_t> map = platform->firmware_map();
  // Firmware addresses: superblock = ppa / (128 pages x 4 planes), die = superblock / 64.
  auto die_of = [](uint32_t ppa) { return ppa / (128u * 4u) / 64u; };
  ASSERT_NE(map.at(1000), 0xFFFFFFFFu);
  EXPECT_EQ(die_of(map[1000]), 0u) << "the 4 KiB write is not on the SLC die";
  for (uint32_t i = 0; i < 16; i++) {
    ASSERT_NE(map.at(5000 + i), 0xFFFFFFFFu);
    EXPECT_NE(die_of(map[5000 + i]), 0u) << "sector " << i << " of the 64 KiB write is on the SLC die";
  }
  EXPECT_EQ(r["integrity"]["reads_checked"].get<uint64_t>(), 2u);
}

// With ftl.combo.slc_survivals = 0 every SLC GC migrates (nothing copied back into SLC), as
// LAPT's does; with the default 2 the same workload keeps data in SLC.
TEST(Combo, NoSurvivalsMigratesAtEverySlcGc) {
  const std::string workload = "fio:rw=randwrite,bs=4k,iodepth=16,io=12000,random_distribution=zipf:1.1";
  auto sets = combo_sets("native", "combo-survivals-0");
  sets.push_back("ftl.combo.slc_survivals=0");
  auto platform = test::lapt_platform(sets, workload);
  const auto r = platform->run();
  test::expect_clean(r);
  EXPECT_GT(r["placement"]["slc_gc_runs"].get<uint64_t>(), 0u);
  EXPECT_EQ(r["placement"]["slc_kept_sectors"].get<uint64_t>(), 0u);
  EXPECT_GT(r["placement"]["migrated_sectors"].get<uint64_t>(), 0u);
  const auto kept = test::run_child({"nand.slc.blocks_per_plane=64", "ftl.placement=combo"}, workload, "combo-survivals-2",
                                    std::string(SSDVP_SOURCE_DIR) + "/platforms/lapt-slc-mlc.toml");
  EXPECT_GT(kept["placement"]["slc_kept_sectors"].get<uint64_t>(), 0u);
}

namespace {

// The logical units whose data each MLC superblock of the final map holds (the SLC die 0 is
// left out).  Firmware addresses: superblock = ppa / (128 pages x 4 planes), 64 per die.
std::map<uint32_t, std::set<uint32_t>> units_per_mlc_superblock(const std::vector<uint32_t>& map,
                                                                uint32_t unit_sectors) {
  std::map<uint32_t, std::set<uint32_t>> units;
  for (uint32_t lpa = 0; lpa < map.size(); lpa++) {
    if (map[lpa] == 0xFFFFFFFFu) continue;
    const uint32_t sb = map[lpa] / (128u * 4u);
    if (sb / 64u == 0) continue;
    units[sb].insert(lpa / unit_sectors);
  }
  return units;
}

// On a drive 40% full: 64 KiB writes over 64 MiB (four units of four MLC superblocks, 2048
// sectors each, that overrun their quota of five), random 4 KiB writes (to SLC: SLC GC
// migrates them into their units, ftl.combo.slc_survivals = 0), then mixed 64 KiB I/O.
std::unique_ptr<SsdPlatform> unit_map_platform(const std::string& name, uint32_t unit_blocks) {
  auto sets = combo_sets("native", name);
  for (std::string s : {"ftl.combo.unit_extra_blocks=1", "ftl.combo.slc_survivals=0", "precondition.fill=0.4",
                        "precondition.overwrite=0"})
    sets.push_back(s);
  sets.push_back("ftl.combo.unit_blocks=" + std::to_string(unit_blocks));
  return test::lapt_platform(sets, "fio:rw=randwrite,bs=64k,iodepth=16,io=3000,size=64m;"
                                   "fio:rw=randwrite,bs=4k,iodepth=16,io=24000;fio:rw=randrw,bs=64k,iodepth=16,io=1000");
}

}  // namespace

// ComboFTL's unit-level MLC map: every MLC superblock holds one unit's data (host writes,
// data migrated from SLC and GC copies alike), units at their quota clean themselves (unit
// GCs) where a page map has free superblocks to spare, and every read is verified.
TEST(Combo, UnitMapKeepsEachMlcSuperblockToOneUnit) {
  auto platform = unit_map_platform("combo-units", 4);
  const auto r = platform->run();
  test::expect_clean(r);
  const auto& p = r["placement"];
  const std::vector<uint32_t> map = platform->firmware_map();
  EXPECT_EQ(p["units"].get<uint64_t>(), (map.size() + 2047u) / 2048u);
  EXPECT_GT(p["unit_gc_runs"].get<uint64_t>(), 0u);
  EXPECT_GT(p["migrated_sectors"].get<uint64_t>(), 0u);
  EXPECT_GT(p["unit_map_bytes"].get<uint64_t>(), 0u);
  const auto units = units_per_mlc_superblock(map, 2048u);
  ASSERT_GT(units.size(), 50u);
  for (const auto& [sb, us] : units) EXPECT_EQ(us.size(), 1u) << "MLC superblock " << sb << " holds data of " << us.size() << " units";
}

// The same workload with MLC page-mapped (ftl.combo.unit_blocks = 0): no units, no MLC GC on
// a drive this empty, and MLC superblocks mix the data of several units (what the check
// above would catch).
TEST(Combo, PageMappedMlcMixesUnitsInASuperblock) {
  auto platform = unit_map_platform("combo-no-units", 0);
  const auto r = platform->run();
  test::expect_clean(r);
  EXPECT_EQ(r["placement"]["units"].get<uint64_t>(), 0u);
  EXPECT_EQ(r["placement"]["unit_gc_runs"].get<uint64_t>(), 0u);
  EXPECT_EQ(r["placement"]["mlc_gc_runs"].get<uint64_t>(), 0u);
  const auto units = units_per_mlc_superblock(platform->firmware_map(), 2048u);
  size_t mixed = 0;
  for (const auto& [sb, us] : units) mixed += us.size() > 1;
  EXPECT_GT(mixed, 10u);
}

namespace {

// The small drive (4 x 2 dies of 64 MLC blocks of 64 pages per plane) filled and aged by the
// default preconditioning, with ComboFTL's unit map: `extra` sets its SLC region.
std::vector<std::string> aged_combo_sets(const std::vector<std::string>& extra) {
  auto sets = test::small_platform();
  sets.push_back("ftl.placement=combo");
  for (const auto& s : extra) sets.push_back(s);
  return sets;
}

const char* const kAgedWorkload =
    "fio:rw=randwrite,bsrange=4k-32k,iodepth=16,io=4000,fua_percent=10,fsync=64,trim_percent=5;"
    "fio:rw=randread,bs=4k,iodepth=16,io=2000";

}  // namespace

// An aged pSLC drive with trims: every MLC pool at its last free superblock, MLC GC copying
// into the victims' units (not a pool GC superblock) takes it, and each erase first writes
// the trim log, which must still find room (the superblock of the unit GC's copies went to).
// It used to find none: every erase waited for the log and the firmware stopped after ~300
// requests.
TEST(Combo, UnitMapOnAnAgedPslcDriveWritesTheTrimLogAndCleans) {
  const auto run = test::run_platform(aged_combo_sets({"nand.pslc.blocks_per_plane=16"}), kAgedWorkload);
  const auto& r = run.results;
  test::expect_clean(r);
  EXPECT_EQ(r["integrity"]["reads_checked"].get<uint64_t>(), 2000u);
  EXPECT_GT(r["placement"]["units"].get<uint64_t>(), 0u);
  EXPECT_GT(r["placement"]["mlc_gc_runs"].get<uint64_t>(), 0u);
  EXPECT_GT(r["ftl"]["trim_log"]["generations"].get<uint64_t>(), 0u);
}

// The small drive with two of its eight dies SLC: the logical space counts the SLC dies, but
// combo keeps sequential data in MLC, and the preconditioning fill of the whole space does
// not fit there.  A configuration error naming the keys, not a halt "makes no progress"
// with a pool dump; a fill that fits runs.
TEST(Combo, AFillThatDoesNotFitTheMlcRegionIsAConfigurationError) {
  const auto run = test::run_platform(aged_combo_sets({"nand.slc_dies=2", "nand.slc.blocks_per_plane=64"}),
                                      "fio:rw=randwrite,bs=4k,iodepth=16,io=100");
  const auto& r = run.results;
  ASSERT_FALSE(r["errors"].empty()) << r.dump();
  const std::string e = r["errors"][0].get<std::string>();
  EXPECT_NE(e.find("the preconditioning fill does not fit the MLC region"), std::string::npos) << e;
  EXPECT_NE(e.find("precondition.fill"), std::string::npos) << "the error names the keys: " << e;
  EXPECT_NE(e.find("nand.slc_dies"), std::string::npos) << e;
}

TEST(Combo, AFillThatFitsTheMlcRegionRuns) {
  const auto run = test::run_platform(aged_combo_sets({"nand.slc_dies=2", "nand.slc.blocks_per_plane=64",
                                                       "precondition.fill=0.5", "precondition.overwrite=0"}),
                                      "fio:rw=randwrite,bs=4k,iodepth=16,io=1000");
  test::expect_clean(run.results);
  EXPECT_EQ(run.results["ops"]["write"]["requests"].get<uint64_t>(), 1000u) << run.results["ops"].dump();
  EXPECT_GT(run.results["placement"]["host_slc_sectors"].get<uint64_t>(), 0u);
}

// The power-cut campaign's placement/slots/4/pslc+combo (docs/reliability.md, The campaign): on
// a full ComboFTL drive every MLC victim was drained and waited for the trim log to reach flash,
// and the log found no superpage that only those erases could free: the firmware slept with 16
// commands outstanding after 300 requests.  The log now takes a waiting pool's GC stream.
TEST(Combo, TrimLogFindsRoomWhenEveryMlcVictimWaitsForIt) {
  const auto run = test::run_platform({"nand.channels=4", "nand.ways=2", "nand.planes=2", "nand.blocks_per_plane=64",
                                       "nand.mlc.pages_per_block=64", "dram.size_mib=256",
                                       "nand.pslc.blocks_per_plane=16", "ftl.placement=combo", "ftl.write_buffer=slots"},
                                      "fio:rw=randwrite,bsrange=4k-32k,iodepth=16,io=40000,fua_percent=10,fsync=64,"
                                      "seed=4,trim_percent=5");
  test::expect_clean(run.results);
  EXPECT_TRUE(run.results["completed"].get<bool>());
  EXPECT_GE(run.results["host_requests"].get<uint64_t>(), 40000u) << "every request done (and the flushes)";
  EXPECT_GT(run.results["ftl"]["trim_log"]["generations"].get<uint64_t>(), 5u);
}
