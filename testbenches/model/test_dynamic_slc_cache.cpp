// A dynamic SLC cache (ftl.slc_cache.dynamic_blocks_per_plane, ftl-sw/place/slc_cache.h): on an
// empty drive each die's SLC-mode pool borrows native superblocks, erased in SLC mode, so a
// burst lands in SLC well past the static cache; on a full drive nothing may be lent and the
// cache is its static part again; the dies' block modes always agree with the firmware's
// ownership; a power cut loses nothing and the recovered drive keeps borrowing.  Each TEST
// builds a platform and runs in its own process.
#include <gtest/gtest.h>

#include <fstream>

#include "model/platform_test_support.h"
#include "models/nand/die.h"

using namespace ssdvp;

namespace {

constexpr uint32_t kDies = 8, kStatic = 16, kDynamic = 16;   // blocks per plane, of 64
constexpr uint64_t kSlcSectorsPerBlock = 2u * 32u;           // 2 planes x 32 SLC-mode pages

// slc-direct with idle migration after 1 ms, as the consumer presets.
std::vector<std::string> sets(const std::string& name, uint32_t dynamic, bool fill) {
  std::vector<std::string> s = test::small_platform();
  s.push_back("nand.pslc.blocks_per_plane=" + std::to_string(kStatic));
  s.push_back("ftl.slc_cache.dynamic_blocks_per_plane=" + std::to_string(dynamic));
  s.push_back("ftl.placement=slc-direct");
  s.push_back("ftl.idle_migration_us=1000");
  s.push_back("ftl.idle_migration_free_ratio=0.9");
  if (!fill) s.insert(s.end(), {"precondition.fill=0", "precondition.overwrite=0"});
  s.push_back("sim.output_dir=" + std::string(::testing::TempDir()) + name);
  return s;
}

// A burst of `sectors` sequential 4 KiB writes from LBA 0 with no idle time, then reads.
std::string burst_trace(const std::string& name, unsigned sectors) {
  const std::string trace = std::string(::testing::TempDir()) + name + ".trace";
  std::ofstream out(trace);   // time_ns device lba_512 size_512 type (1 = read)
  uint64_t t = 0;
  for (unsigned i = 0; i < sectors; i++) out << (t += 10000) << " 0 " << i * 8u << " 8 0\n";
  for (unsigned i = 0; i < sectors; i += 16) out << (t += 10000) << " 0 " << i * 8u << " 128 1\n";
  return trace;
}

// The dies' SLC-mode blocks are the static ones plus, on every plane, the ones the firmware
// has borrowed now.  Returns the superblocks borrowed, as the dies' block modes count them.
uint64_t expect_modes_agree(const test::Run& r) {
  const ssd_fw_stats* fw = r.platform->firmware_stats();
  uint64_t slc = 0;
  for (uint32_t d = 0; d < kDies; d++)
    for (uint32_t pl = 0; pl < 2; pl++) {
      for (uint32_t b = 0; b < 64; b++) {
        const bool mode = r.platform->die(d).slc_mode(pl, b);
        if (b < kStatic) {
          EXPECT_TRUE(mode) << d << " " << pl << " " << b;
        }
        slc += mode;
      }
    }
  EXPECT_EQ(slc, 2u * (kDies * kStatic + fw->slc_borrowed));
  EXPECT_EQ(r.results["nand"]["slc_mode_blocks"].get<uint64_t>(), slc);
  return slc / 2u - kDies * kStatic;
}

}  // namespace

// 96 MiB on an empty drive: the static cache holds 32 MiB, the dynamic part as much again.
// With it, more than 1.5 static caches of the burst land in SLC (the borrows' erases run
// ahead of the writes); without it, at most the static cache and what the write buffer
// holds when it fills.  Every borrowed superblock is in SLC mode on the die.
TEST(DynamicSlcCache, AnEmptyDriveLendsNativeBlocksToTheCache) {
  const unsigned burst = 24576;   // 96 MiB
  const uint64_t static_sectors = kDies * kStatic * kSlcSectorsPerBlock;
  auto r = test::run_platform(sets("dyn-empty", kDynamic, false), "trace:" + burst_trace("dyn-empty", burst),
                              /*precondition=*/false);
  test::expect_clean(r.results);
  const ssd_fw_stats* fw = r.platform->firmware_stats();
  EXPECT_GT(fw->host_slc_sectors, static_sectors * 3u / 2u);
  EXPECT_LE(fw->host_slc_sectors, static_sectors * 2u);
  EXPECT_EQ(fw->host_slc_sectors + fw->host_mlc_sectors, burst);
  EXPECT_GT(fw->slc_borrows, kDies * kDynamic / 2u);
  EXPECT_LE(fw->slc_borrowed, kDies * kDynamic);
  const auto& c = r.results["placement"]["slc_cache"];
  EXPECT_EQ(c["dynamic_blocks_per_plane"].get<uint64_t>(), kDynamic);
  EXPECT_EQ(c["borrowed_superblocks"].get<uint64_t>(), expect_modes_agree(r));
  EXPECT_EQ(r.results["integrity"]["reads_checked"].get<uint64_t>(), burst / 16u);

  const auto off = test::run_child(sets("dyn-off", 0, false), "trace:" + burst_trace("dyn-off", burst), "dyn-off");
  EXPECT_LE(off["placement"]["host_slc_sectors"].get<uint64_t>(), static_sectors + 4096u);   // + the 16 MiB buffer
  EXPECT_FALSE(off["placement"].contains("slc_cache"));
}

// A full drive (preconditioned to every logical sector) has nothing the host has not filled to
// lend: the same burst gets the static cache only, and what the preconditioning fill borrowed
// while the drive was still empty went home when idle migration cleaned it.
TEST(DynamicSlcCache, AFullDriveKeepsTheStaticCacheOnly) {
  const unsigned burst = 24576;
  const uint64_t static_sectors = kDies * kStatic * kSlcSectorsPerBlock;
  const std::string trace = std::string(::testing::TempDir()) + "dyn-full.trace";
  {
    std::ofstream out(trace);
    uint64_t t = 2000000000ull;   // 2 s idle first: migration empties the cache
    for (unsigned i = 0; i < burst; i++) out << (t += 10000) << " 0 " << i * 8u << " 8 0\n";
    for (unsigned i = 0; i < burst; i += 16) out << (t += 10000) << " 0 " << i * 8u << " 128 1\n";
  }
  auto r = test::run_platform(sets("dyn-full", kDynamic, true), "trace:" + trace, /*precondition=*/true);
  test::expect_clean(r.results);
  const ssd_fw_stats* fw = r.platform->firmware_stats();
  EXPECT_GT(fw->slc_returns, 0u) << "the fill's borrowed superblocks went home";
  EXPECT_EQ(fw->slc_borrowed, 0u);
  EXPECT_LE(r.results["placement"]["host_slc_sectors"].get<uint64_t>(), static_sectors + 4096u);
  expect_modes_agree(r);
}

// The same firmware on the RV32 core: a 48 MiB burst passes the 32 MiB static cache, so the
// cache borrows, and the dies' modes agree with the firmware's.
TEST(DynamicSlcCache, BorrowsOnTheIss) {
  const unsigned burst = 12288;   // 48 MiB
  const uint64_t static_sectors = kDies * kStatic * kSlcSectorsPerBlock;
  auto s = sets("dyn-iss", kDynamic, false);
  s.push_back("firmware.mode=iss");
  auto r = test::run_platform(s, "trace:" + burst_trace("dyn-iss", burst), /*precondition=*/false);
  test::expect_clean(r.results);
  const ssd_fw_stats* fw = r.platform->firmware_stats();
  EXPECT_EQ(r.results["firmware"]["mode"], "iss");
  EXPECT_GT(fw->slc_borrows, 0u);
  EXPECT_GT(fw->host_slc_sectors, static_sectors);
  expect_modes_agree(r);
  EXPECT_EQ(r.results["integrity"]["reads_checked"].get<uint64_t>(), burst / 16u);
}
