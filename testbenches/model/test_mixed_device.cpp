// Mixed SLC/MLC devices (nand.slc_dies) whose SLC dies have their own block count
// (nand.slc.blocks_per_plane), so the SLC and MLC regions are sized independently: the
// firmware uses every block of every die and only those, natively and on the ISS, with every
// read verified.  SLC/MLC placement (ftl.placement = lapt, slc-only) on that device: where
// LAPT puts hot and cold blocks, FIFO SLC GC migrating to MLC only, integrity natively and on
// the ISS.  Each TEST builds a platform and runs in its own process.
#include <gtest/gtest.h>

#include <fstream>
#include <memory>

#include "model/platform_test_support.h"
#include "models/nand/die.h"

using namespace ssdvp;

namespace {

// platforms/lapt-slc-mlc.toml: 2 channels x 4 ways of 4-plane dies, die 0 SLC (64 pages per
// block), the others MLC (128 pages per block, 37 blocks per plane); here the SLC die gets 64
// blocks per plane and no placement (data striped over every die).
void check_mixed(const std::string& mode) {
  Config cfg = Config::load(std::string(SSDVP_SOURCE_DIR) + "/platforms/lapt-slc-mlc.toml",
                            {"nand.slc.blocks_per_plane=64", "ftl.placement=none", "firmware.mode=" + mode, "sim.progress=false",
                             "sim.output_dir=" + std::string(::testing::TempDir()) + "mixed-" + mode});
  RunOptions opt;
  opt.workload_spec = "fio:rw=randrw,bs=4k,iodepth=16,io=20000";
  opt.test_aids = true;   // test aids allowed (small_platform() checks the firmware's internals)
  SsdPlatform platform(cfg, opt);
  const auto r = platform.run();
  test::expect_clean(r);
  // 1 SLC die x 4 planes x 64 blocks x 64 pages + 7 MLC dies x 4 x 37 x 128.
  EXPECT_EQ(r["ftl"]["physical_sectors"].get<uint64_t>(), 4u * 64 * 64 + 7u * 4 * 37 * 128);
  // The SLC die's blocks past the MLC dies' count were used (the firmware wrote and cleaned
  // them), and the MLC dies have only their own: an address past them is a bus error, which
  // expect_clean would have reported.
  uint32_t high_blocks_erased = 0;
  for (uint32_t b = 37; b < 64; b++) high_blocks_erased += platform.die(0).erase_count(0, b) > 0;
  EXPECT_GT(high_blocks_erased, 13u);
  EXPECT_GT(r["wear"]["erases_per_die"][0].get<uint64_t>(), 0u);
  EXPECT_EQ(r["firmware"]["mode"], mode);
}

}  // namespace

TEST(MixedDevice, SlcDiesWithTheirOwnBlockCountNative) { check_mixed("native"); }
TEST(MixedDevice, SlcDiesWithTheirOwnBlockCountOnTheIss) { check_mixed("iss"); }

// ---- SLC/MLC placement (ftl.placement) on the same device.
namespace {

std::vector<std::string> placement_sets(const std::string& policy, const std::string& mode) {
  return {"nand.slc.blocks_per_plane=64", "ftl.placement=" + policy, "firmware.mode=" + mode, "sim.progress=false",
          "sim.output_dir=" + std::string(::testing::TempDir()) + "placement-" + policy + "-" + mode};
}

// A skewed mixed workload: SLC fills, FIFO SLC GC migrates to MLC, every read verified; the
// SLC die programmed only what the write buffer sent it (its own count equals the firmware's
// host superpages into SLC, over the whole run), so SLC GC never copied into SLC.
void check_placement_run(const std::string& policy, const std::string& mode) {
  auto platform = test::lapt_platform(placement_sets(policy, mode),
                                     "fio:rw=randrw,bs=4k,iodepth=16,io=20000,random_distribution=zipf:1.1");
  const auto r = platform->run();
  test::expect_clean(r);
  const auto& p = r["placement"];
  EXPECT_EQ(p["policy"], policy);
  EXPECT_GT(p["host_slc_sectors"].get<uint64_t>(), 0u);
  EXPECT_GT(p["slc_gc_runs"].get<uint64_t>(), 0u);
  EXPECT_GT(p["migrated_sectors"].get<uint64_t>(), 0u);
  const ssd_fw_stats* fw = platform->firmware_stats();
  ASSERT_NE(fw, nullptr);
  EXPECT_EQ(platform->die(0).programmed_sectors(), fw->host_slc_sectors);
  uint64_t mlc_programmed = 0;
  for (uint32_t d = 1; d < 8; d++) mlc_programmed += platform->die(d).programmed_sectors();
  EXPECT_GE(mlc_programmed, fw->host_mlc_sectors + fw->migrated_sectors);
  if (policy == "slc-only") {
    EXPECT_EQ(fw->host_mlc_sectors, 0u);   // every host write went to SLC first
  } else {
    EXPECT_GT(fw->lapt_bytes, 0u);
    EXPECT_LT(fw->lapt_bytes * 20, fw->map_bytes);   // the table is small next to the page map
  }
}

}  // namespace

TEST(Placement, LaptNativeWithIntegrityAndMigrationToMlcOnly) { check_placement_run("lapt", "native"); }
TEST(Placement, LaptOnTheIssWithIntegrityAndMigrationToMlcOnly) { check_placement_run("lapt", "iss"); }
TEST(Placement, SlcOnlyNativeWithIntegrityAndMigrationToMlcOnly) { check_placement_run("slc-only", "native"); }
TEST(Placement, SlcOnlyOnTheIssWithIntegrityAndMigrationToMlcOnly) { check_placement_run("slc-only", "iss"); }

// LAPT migrates every SLC victim to MLC, so all data ends on the seven MLC dies (7 x 4 planes x
// 37 blocks x 128 pages = 132,608 sectors): the logical space must fit them beside their GC
// spare (gc_high_blocks + the reserves, a superblock of 512 sectors per die each), whatever
// ftl.op leaves of the whole device (0.02 here: 146,012 sectors, more than MLC holds).  A drive
// sized by the whole device filled MLC with valid data and made no progress (an MLC GC victim
// held as much as it freed).
TEST(Placement, LaptLogicalSpaceFitsTheMlcDies) {
  auto sets = placement_sets("lapt", "native");
  sets.push_back("ftl.op=0.02");
  auto platform = test::lapt_platform(sets, "fio:rw=randwrite,bs=4k,iodepth=16,io=2000", /*precondition=*/false);
  const auto r = platform->run();
  test::expect_clean(r);
  const uint64_t mlc = 7u * 4 * 37 * 128, logical = r["ftl"]["logical_sectors"].get<uint64_t>();
  const uint64_t gc_high = std::stoul(r["config"]["ftl.gc_high_blocks"].get<std::string>());
  EXPECT_LE(logical + 7u * (gc_high + 3u) * 512u, mlc) << "the logical space does not fit the MLC dies";
  EXPECT_GE(logical + 7u * (gc_high + 6u) * 512u, mlc) << "more spare than GC needs";
}

// A capacity set outright that MLC cannot hold is refused, naming the keys.
TEST(Placement, LaptCapacityMoreThanTheMlcDiesHoldIsAConfigurationError) {
  auto sets = placement_sets("lapt", "native");
  sets.push_back("ftl.logical_sectors=110000");
  auto platform = test::lapt_platform(sets, "fio:rw=randwrite,bs=4k,iodepth=1,io=10", /*precondition=*/false);
  const auto r = platform->run();
  ASSERT_FALSE(r["errors"].empty()) << r.dump();
  const std::string e = r["errors"][0].get<std::string>();
  EXPECT_NE(e.find("MLC dies"), std::string::npos) << e;
  EXPECT_NE(e.find("ftl.logical_sectors"), std::string::npos) << e;
  EXPECT_NE(e.find("ftl.placement"), std::string::npos) << e;
}

// LAPT through the map: on an empty drive, logical block B is read once (its counter drops
// to -1, so every other block outranks it) and then written: it lands on MLC; block A, never
// touched (counter 0, rank 0), is written: it lands on SLC.
TEST(Placement, LaptSendsTopRankedBlockToSlcAndColdBlockToMlc) {
  const std::string trace = std::string(::testing::TempDir()) + "lapt-hot-cold.trace";
  {
    // DiskSim/MQSim ASCII: time_ns device lba_sector(512 B) size_sectors type(1 = read).
    // Logical blocks are SLC blocks of 64 pages (64 sectors of 4 KiB): A is block 40, B 80.
    std::ofstream out(trace);
    const uint64_t block_a = 10, block_b = 20, per_block_512 = 256 * 8;
    out << "0 0 " << block_b * per_block_512 << " 64 1\n";       // read B (8 x 4 KiB)
    out << "1 0 " << block_b * per_block_512 << " 64 0\n";       // write B
    out << "2 0 " << block_a * per_block_512 << " 64 0\n";       // write A
  }
  auto platform = test::lapt_platform(placement_sets("lapt", "native"), "trace:" + trace + ",replay=closed,iodepth=1",
                                     /*precondition=*/false);
  const auto r = platform->run();
  test::expect_clean(r);
  const std::vector<uint32_t> map = platform->firmware_map();
  // Firmware addresses: superblock = ppa / (128 pages x 4 planes), die = superblock / 64
  // (the SLC die's block count here, the largest).
  auto die_of = [](uint32_t ppa) { return ppa / (128u * 4u) / 64u; };
  for (uint32_t i = 0; i < 8; i++) {
    ASSERT_NE(map.at(10 * 256 + i), 0xFFFFFFFFu);
    ASSERT_NE(map.at(20 * 256 + i), 0xFFFFFFFFu);
    EXPECT_EQ(die_of(map[10 * 256 + i]), 0u) << "block A sector " << i << " not on the SLC die";
    EXPECT_NE(die_of(map[20 * 256 + i]), 0u) << "block B sector " << i << " on the SLC die";
  }
  EXPECT_EQ(r["placement"]["host_mlc_sectors"].get<uint64_t>(), 8u);
}

// The platform as shipped: the paper's 64 SLC : 1036 MLC blocks with LAPT, a mixed workload,
// every read verified.
TEST(Placement, LaptPlatformAsShipped) {
  Config cfg = Config::load(std::string(SSDVP_SOURCE_DIR) + "/platforms/lapt-slc-mlc.toml",
                            {"sim.progress=false", "sim.output_dir=" + std::string(::testing::TempDir()) + "lapt-shipped"});
  RunOptions opt;
  opt.workload_spec = "fio:rw=randrw,bs=8k,iodepth=16,io=10000,random_distribution=zipf:0.9";
  opt.test_aids = true;   // test aids allowed (small_platform() checks the firmware's internals)
  SsdPlatform platform(cfg, opt);
  const auto r = platform.run();
  test::expect_clean(r);
  EXPECT_EQ(r["placement"]["policy"], "lapt");
  EXPECT_EQ(r["ftl"]["physical_sectors"].get<uint64_t>(), 4u * 16 * 64 + 7u * 4 * 37 * 128);
  EXPECT_GT(r["placement"]["host_slc_sectors"].get<uint64_t>(), 0u);
  EXPECT_GT(r["placement"]["host_mlc_sectors"].get<uint64_t>(), 0u);
}

// The paper's own devices (platforms/lapt-paper-*.toml): one SLC die of 4 x 16 blocks beside two
// MLC dies of 4 x 128 on one channel, MLC_homo and SLC_homo of the same logical capacity
// (ftl.logical_sectors), the write cache off; LAPT counts logical blocks of one SLC block (256 KiB), 64 of them
// SLC-writable.  Each runs a short mixed workload with every read verified.
namespace {
nlohmann::json paper_run(const std::string& device, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> sets = {"sim.progress=false",
                                   "sim.output_dir=" + std::string(::testing::TempDir()) + "lapt-paper-" + device};
  sets.insert(sets.end(), extra.begin(), extra.end());
  Config cfg = Config::load(std::string(SSDVP_SOURCE_DIR) + "/platforms/lapt-paper-" + device + ".toml", sets);
  RunOptions opt;
  opt.workload_spec = "fio:rw=randrw,rwmixread=50,bs=4k,iodepth=1,io=3000,random_distribution=zipf:0.9";
  opt.test_aids = true;   // test aids allowed (small_platform() checks the firmware's internals)
  SsdPlatform platform(cfg, opt);
  return platform.run();
}
}  // namespace

TEST(PaperDevice, MixedAsThePaperRanIt) {
  const auto r = paper_run("mixed");
  test::expect_clean(r);
  EXPECT_EQ(r["ftl"]["physical_sectors"].get<uint64_t>(), 4u * 16 * 64 + 2u * 4 * 128 * 128);
  EXPECT_EQ(r["ftl"]["logical_sectors"].get<uint64_t>(), 98304u);
  EXPECT_EQ(r["placement"]["lapt_block_sectors"].get<uint64_t>(), 64u);
  EXPECT_EQ(r["placement"]["lapt_logical_block"], "slc-block");
  EXPECT_EQ(r["ftl"]["host_padding_sectors"].get<uint64_t>(), 0u);   // write-through, a page a write
  EXPECT_EQ(r["ftl"]["durable_writes"].get<uint64_t>(), r["ops"]["write"]["requests"].get<uint64_t>());
  EXPECT_GT(r["placement"]["host_slc_sectors"].get<uint64_t>(), 0u);
}

TEST(PaperDevice, MixedWithSuperblockSizedLogicalBlocks) {
  const auto r = paper_run("mixed", {"ftl.lapt.logical_block=slc-superblock"});
  test::expect_clean(r);
  EXPECT_EQ(r["placement"]["lapt_block_sectors"].get<uint64_t>(), 256u);
}

TEST(PaperDevice, HomogeneousDevicesHoldTheSameLogicalCapacity) {
  // Two platforms in one test: the second in a child process (SystemC elaborates once).
  const auto mlc = paper_run("mlc-homo");
  test::expect_clean(mlc);
  EXPECT_EQ(mlc["ftl"]["logical_sectors"].get<uint64_t>(), 98304u);
  const auto slc = test::run_child({"sim.progress=false"}, "fio:rw=randrw,bs=4k,iodepth=1,io=2000", "lapt-paper-slc-homo",
                                   std::string(SSDVP_SOURCE_DIR) + "/platforms/lapt-paper-slc-homo.toml");
  EXPECT_EQ(slc["ftl"]["logical_sectors"].get<uint64_t>(), 98304u);
  EXPECT_EQ(slc["ftl"]["physical_sectors"].get<uint64_t>(), 2u * 4 * 256 * 64);
}

// The paper's mixed device keeps its SLC pool's own thresholds (ftl.slc_gc_low_blocks = 1,
// ftl.slc_gc_high_blocks = 1: one open superblock, one being migrated): random writes over the
// 64 logical blocks SLC takes on a fresh drive fill the SLC region to 15 of its 16 superblocks
// (93.7%) before its first GC; with the general thresholds (GC below 3 free) it was 81.2%.
TEST(PaperDevice, SlcRegionFillsPastNinetyPercentBeforeItsFirstGc) {
  std::vector<std::string> sets = {"sim.progress=false", "sim.output_dir=" + std::string(::testing::TempDir()) + "lapt-paper-fill"};
  Config cfg = Config::load(std::string(SSDVP_SOURCE_DIR) + "/platforms/lapt-paper-mixed.toml", sets);
  RunOptions opt;
  opt.workload_spec = "fio:rw=randrw,rwmixread=20,bs=4k,iodepth=1,io=10000,size=16m";
  opt.precondition = false;
  opt.test_aids = true;   // test aids allowed (small_platform() checks the firmware's internals)
  SsdPlatform platform(cfg, opt);
  const auto r = platform.run();
  test::expect_clean(r);
  EXPECT_EQ(r["placement"]["slc_gc_low_blocks"].get<uint32_t>(), 1u);
  EXPECT_GT(r["placement"]["slc_gc_runs"].get<uint64_t>(), 0u);
  EXPECT_GT(r["placement"]["slc_fill_at_first_gc"].get<double>(), 0.9);
  // Nearly every write was SLC-writable (a block that was read drops behind the 64th).
  EXPECT_GT(r["placement"]["host_slc_sectors"].get<uint64_t>(), 20 * r["placement"]["host_mlc_sectors"].get<uint64_t>());
  EXPECT_GT(r["placement"]["migrated_sectors"].get<uint64_t>(), 0u);
}

// The paper's mixed device with `slc_blocks` SLC blocks (per plane: / 4) and more settings, under
// a skewed random mix that fills its SLC region several times; every read verified.
namespace {
nlohmann::json run_paper_slc(int slc_blocks, std::vector<std::string> sets) {
  sets.insert(sets.end(), {"sim.progress=false", "nand.slc.blocks_per_plane=" + std::to_string(slc_blocks / 4),
                           "sim.output_dir=" + std::string(::testing::TempDir()) + "lapt-paper-slc"});
  Config cfg = Config::load(std::string(SSDVP_SOURCE_DIR) + "/platforms/lapt-paper-mixed.toml", sets);
  RunOptions opt;
  opt.workload_spec = "fio:rw=randrw,rwmixread=40,bs=4k,iodepth=1,io=6000,random_distribution=zipf:1.1";
  opt.test_aids = true;   // test aids allowed (small_platform() checks the firmware's internals)
  SsdPlatform platform(cfg, opt);
  const auto r = platform.run();
  test::expect_clean(r);
  EXPECT_EQ(r["ftl"]["logical_sectors"].get<uint64_t>(), 98304u);   // held at the paper's capacity
  return r;
}
}  // namespace

// The paper's SLC sweep starts at 16 and 32 SLC blocks (4 and 8 superblocks of 4 planes): both
// run with the SLC pool's own thresholds, SLC GC migrating.
class PaperSlcBlocks : public ::testing::TestWithParam<int> {};
TEST_P(PaperSlcBlocks, RunsWithMigration) {
  const auto r = run_paper_slc(GetParam(), {});
  EXPECT_EQ(r["ftl"]["physical_sectors"].get<uint64_t>(), uint64_t(GetParam()) * 64 + 2u * 4 * 128 * 128);
  EXPECT_GT(r["placement"]["slc_gc_runs"].get<uint64_t>(), 0u);
  EXPECT_GT(r["placement"]["host_slc_sectors"].get<uint64_t>(), 0u);
}
INSTANTIATE_TEST_SUITE_P(Paper, PaperSlcBlocks, ::testing::Values(16, 32));

// ComboFTL at the paper's 16 and 32 SLC blocks: its SLC GC copies young data back into SLC, so
// its pool keeps the GC reserve and needs its own thresholds of at least 2 (the general ones
// refuse 4 and 8 SLC superblocks); with them it runs, copying back and migrating.
class PaperComboSlcBlocks : public ::testing::TestWithParam<int> {};
TEST_P(PaperComboSlcBlocks, RunsCopyingBackAndMigrating) {
  const auto r = run_paper_slc(GetParam(), {"ftl.placement=combo", "ftl.slc_gc_low_blocks=2", "ftl.slc_gc_high_blocks=2"});
  EXPECT_EQ(r["placement"]["slc_gc_low_blocks"].get<uint32_t>(), 2u);
  EXPECT_GT(r["placement"]["slc_gc_runs"].get<uint64_t>(), 0u);
  EXPECT_GT(r["placement"]["slc_kept_sectors"].get<uint64_t>(), 0u);   // copied back into SLC
  EXPECT_GT(r["placement"]["migrated_sectors"].get<uint64_t>(), 0u);   // and out once survived
}
INSTANTIATE_TEST_SUITE_P(Paper, PaperComboSlcBlocks, ::testing::Values(16, 32));
