// A pSLC cache (nand.pslc.blocks_per_plane): the first blocks of every MLC die run in SLC
// mode and form each die's SLC pool.  Host writes the policy sends to SLC land in those blocks
// (checked through the map), SLC GC migrates them into native blocks (the same die's or
// another's), every policy runs with integrity natively and on the ISS, and the dies' own
// counts agree with the firmware's.  Each TEST builds a platform and runs in its own process.
#include <gtest/gtest.h>

#include <fstream>

#include "model/platform_test_support.h"
#include "models/nand/die.h"

using namespace ssdvp;

namespace {

constexpr uint32_t kPslcBlocks = 16;   // of 64 per plane; SLC mode: 32 of 64 pages

std::vector<std::string> pslc_sets(const std::string& placement, const std::string& mode, const std::string& name) {
  std::vector<std::string> s = test::small_platform();
  s.push_back("nand.pslc.blocks_per_plane=" + std::to_string(kPslcBlocks));
  s.push_back("ftl.placement=" + placement);
  s.push_back("firmware.mode=" + mode);
  s.push_back("sim.output_dir=" + std::string(::testing::TempDir()) + name);
  return s;
}

// Firmware addresses of the small platform: 2 planes x 1 sector x 64 pages per superblock
// (the native pages: the address stride), 64 superblocks per die.
uint32_t block_of(uint32_t ppa) { return ppa / 128u % 64u; }
uint32_t page_of(uint32_t ppa) { return ppa % 128u / 2u; }

// Hot random updates over a small span and a cold sequential stream, twice the SLC cache:
// SLC fills, FIFO SLC GC migrates to native blocks, every read checked.  The dies' SLC-mode
// blocks were erased (cleaned) and the native blocks took the migrated data.
void check_policy_run(const std::string& placement, const std::string& mode) {
  const std::string hot = "fio:rw=randrw,rwmixread=40,bs=4k,iodepth=16,io=12000,size=8m,random_distribution=zipf:1.1";
  const std::string cold = "fio:rw=write,bs=64k,iodepth=16,io=1200,offset=64m";
  auto r = test::run_platform(pslc_sets(placement, mode, "pslc-" + placement + "-" + mode), hot + ";" + cold + ";" + hot);
  test::expect_clean(r.results);
  const auto& p = r.results["placement"];
  EXPECT_EQ(p["policy"], placement);
  EXPECT_GT(p["host_slc_sectors"].get<uint64_t>(), 0u);
  EXPECT_GT(p["slc_gc_runs"].get<uint64_t>(), 0u);
  EXPECT_GT(p["migrated_sectors"].get<uint64_t>(), 0u);
  EXPECT_EQ(r.results["firmware"]["mode"], mode);
  uint64_t pslc_erases = 0, native_erases = 0;
  for (uint32_t d = 0; d < 8; d++) {
    const nand::Die& die = r.platform->die(d);
    for (uint32_t b = 0; b < 64; b++) (b < kPslcBlocks ? pslc_erases : native_erases) += die.erase_count(0, b);
    for (uint32_t b = 0; b < kPslcBlocks; b++) EXPECT_LE(die.next_page(0, b), 32u);
    // The firmware erases its SLC pool's blocks in SLC mode and the others natively.
    for (uint32_t pl = 0; pl < 2; pl++)
      for (uint32_t b = 0; b < 64; b++) EXPECT_EQ(die.slc_mode(pl, b), b < kPslcBlocks) << d << " " << pl << " " << b;
  }
  EXPECT_EQ(r.results["nand"]["slc_mode_blocks"].get<uint64_t>(), 8u * 2u * kPslcBlocks);
  // Every SLC GC run ended in an erase of an SLC-mode superblock (one block per plane; the
  // dies count erases of preconditioning too), and some native blocks were cleaned or not.
  EXPECT_GE(pslc_erases, r.platform->firmware_stats()->slc_gc_runs);
  EXPECT_GT(pslc_erases, 0u);
  EXPECT_GE(native_erases, r.platform->firmware_stats()->mlc_gc_runs);
}

}  // namespace

TEST(Pslc, LaptNativeWithIntegrity) { check_policy_run("lapt", "native"); }
TEST(Pslc, LaptOnTheIssWithIntegrity) { check_policy_run("lapt", "iss"); }
TEST(Pslc, SlcOnlyNativeWithIntegrity) { check_policy_run("slc-only", "native"); }
TEST(Pslc, ComboNativeWithIntegrity) { check_policy_run("combo", "native"); }

// Through the map, on an empty drive with a plain SLC cache: the first writes land in
// SLC-mode blocks (pages below the SLC-mode page count); once more than the cache has been
// written, the oldest data has migrated into native blocks of the same dies, readable.
TEST(Pslc, WritesLandInSlcModeBlocksAndMigrateToNativeBlocks) {
  auto r = test::run_platform(pslc_sets("slc-only", "native", "pslc-map"),
                              "fio:rw=write,bs=128k,iodepth=16,io=64;"          // 8 MiB: fits the 32 MiB cache
                              "fio:rw=read,bs=128k,iodepth=16,io=64",
                              /*precondition=*/false);
  test::expect_clean(r.results);
  std::vector<uint32_t> map = r.platform->firmware_map();
  for (uint32_t lpa = 0; lpa < 2048; lpa++) {
    ASSERT_NE(map.at(lpa), 0xFFFFFFFFu) << lpa;
    ASSERT_LT(block_of(map[lpa]), kPslcBlocks) << "sector " << lpa << " is not in an SLC-mode block";
    ASSERT_LT(page_of(map[lpa]), 32u);
  }
  EXPECT_EQ(r.results["placement"]["migrated_sectors"].get<uint64_t>(), 0u);
  EXPECT_EQ(r.results["integrity"]["reads_checked"].get<uint64_t>(), 64u);   // requests
}

TEST(Pslc, DataWrittenPastTheCacheMigratesIntoNativeBlocks) {
  auto r = test::run_platform(pslc_sets("slc-only", "native", "pslc-spill"),
                              "fio:rw=write,bs=128k,iodepth=16,io=640;"         // 80 MiB: 2.5 caches
                              "fio:rw=read,bs=128k,iodepth=16,io=640",
                              /*precondition=*/false);
  test::expect_clean(r.results);
  std::vector<uint32_t> map = r.platform->firmware_map();
  uint32_t in_native = 0, in_pslc = 0;
  for (uint32_t lpa = 0; lpa < 20480; lpa++) {
    ASSERT_NE(map.at(lpa), 0xFFFFFFFFu) << lpa;
    (block_of(map[lpa]) < kPslcBlocks ? in_pslc : in_native)++;
  }
  // The firmware's totals (run.json's window ends before the final flush and the GC after it).
  const ssd_fw_stats* fw = r.platform->firmware_stats();
  EXPECT_GT(in_native, 10240u) << "most of it migrated";
  EXPECT_GT(in_pslc, 0u) << "the newest data is still in the cache";
  EXPECT_LE(in_pslc, 8u * kPslcBlocks * 2u * 32u);
  EXPECT_GE(fw->migrated_sectors, in_native);
  EXPECT_EQ(fw->host_mlc_sectors, 0u);
  EXPECT_EQ(fw->host_slc_sectors, 20480u);
  EXPECT_EQ(fw->mlc_gc_runs, 0u);
  EXPECT_EQ(r.results["integrity"]["reads_checked"].get<uint64_t>(), 640u);   // requests
}

// slc-direct, consumer drives' "cache, then direct to TLC": a burst of 2.5 caches on an empty
// drive fills the cache and then goes straight to native blocks, with no SLC GC under it (every
// migration happens while the host is idle); after 2 s of idle time the cache has been emptied
// to ftl.idle_migration_free_ratio and the next burst lands in SLC-mode blocks again.  The same
// trace with slc-only folds the cache into native blocks during the burst: more flash work
// under the host's writes, so they wait longer.
TEST(Pslc, SlcDirectGoesStraightToNativeBlocksOnceTheCacheIsFullAndEmptiesItWhileIdle) {
  const std::string trace = std::string(::testing::TempDir()) + "slc-direct.trace";
  {
    std::ofstream out(trace);   // time_ns device lba_512 size_512 type (1 = read)
    uint64_t t = 0;
    for (unsigned i = 0; i < 20480; i++) out << (t += 10000) << " 0 " << i * 8u << " 8 0\n";   // 80 MiB
    t += 2000000000ull;   // idle
    for (unsigned i = 0; i < 1024; i++) out << (t += 10000) << " 0 " << (30000u + i) * 8u << " 8 0\n";
    for (unsigned i = 0; i < 20480; i += 16) out << (t += 10000) << " 0 " << i * 8u << " 128 1\n";
    for (unsigned i = 0; i < 1024; i += 16) out << (t += 10000) << " 0 " << (30000u + i) * 8u << " 128 1\n";
  }
  const std::vector<std::string> idle = {"ftl.idle_migration_us=1000", "ftl.idle_migration_free_ratio=0.9"};
  auto sets = pslc_sets("slc-direct", "native", "slc-direct");
  sets.insert(sets.end(), idle.begin(), idle.end());
  auto r = test::run_platform(sets, "trace:" + trace, /*precondition=*/false);
  test::expect_clean(r.results);
  const ssd_fw_stats* fw = r.platform->firmware_stats();
  const uint64_t cache_sectors = 8u * kPslcBlocks * 2u * 32u;
  const uint64_t buffer_sectors = 4096;   // the 16 MiB write buffer drains after the burst, while the cache empties
  EXPECT_GE(fw->host_mlc_sectors, 20480u - cache_sectors - buffer_sectors) << "data past the full cache went straight to native blocks";
  EXPECT_GT(fw->host_slc_sectors, 1024u + cache_sectors / 2u);
  EXPECT_EQ(fw->host_slc_sectors + fw->host_mlc_sectors, 20480u + 1024u);
  EXPECT_GT(fw->migrated_sectors, 0u);
  EXPECT_EQ(fw->idle_migrated_sectors, fw->migrated_sectors) << "SLC was cleaned while the host was writing";
  EXPECT_GE(fw->idle_migration_runs, 1u);
  std::vector<uint32_t> map = r.platform->firmware_map();
  for (uint32_t lpa = 30000; lpa < 31024; lpa++) {
    ASSERT_NE(map.at(lpa), 0xFFFFFFFFu) << lpa;
    ASSERT_LT(block_of(map[lpa]), kPslcBlocks) << "sector " << lpa << " written after the idle period is not in the cache";
  }
  EXPECT_EQ(r.results["integrity"]["reads_checked"].get<uint64_t>(), 1280u + 64u);   // requests

  auto only = test::small_platform();
  only.insert(only.end(), {"nand.pslc.blocks_per_plane=" + std::to_string(kPslcBlocks), "ftl.placement=slc-only",
                          "precondition.fill=0", "precondition.overwrite=0"});
  only.insert(only.end(), idle.begin(), idle.end());
  const auto o = test::run_child(only, "trace:" + trace, "slc-only-burst");
  EXPECT_GT(o["placement"]["migrated_sectors"].get<uint64_t>(), o["placement"]["idle_migrated_sectors"].get<uint64_t>());
  EXPECT_LT(r.results["ops"]["write"]["latency_us"]["mean"].get<double>(),
            o["ops"]["write"]["latency_us"]["mean"].get<double>());
}
