// Demand-based mapping in the whole platform (ftl.mapping = dftl, part, part-sched, writeopt,
// adaptive): random reads, writes, trims and larger reads over an aged drive with every read
// verified against what was acknowledged; the flash work each scheme is known for (translation
// page reads and write-backs, batch updates, translation-block GC); the cache inside its DRAM
// budget; no read waiting for a translation write from part on; the ISS running it; clear
// errors for impossible cache sizes.  Each TEST builds a platform in its own process.
#include <gtest/gtest.h>

#include "model/platform_test_support.h"

using namespace ssdvp;

namespace {

std::vector<std::string> demand_platform(const std::string& scheme) {
  auto sets = test::small_platform();
  for (const char* s : {"ftl.op=0.2", "precondition.fill=1", "precondition.overwrite=0.5", "nand.blocks_per_plane=96"})
    sets.push_back(s);
  sets.push_back("ftl.mapping=" + scheme);
  return sets;
}

// Writes and reads at random, then trims, then 16 KiB reads over everything (trimmed sectors
// read as unwritten: the integrity checker knows which).
const char* kWorkload =
    "fio:rw=randrw,rwmixread=50,bs=4k,iodepth=32,io=8000;"
    "fio:rw=randtrim,bs=16k,iodepth=32,io=400;"
    "fio:rw=randread,bs=16k,iodepth=32,io=3000";

class DemandMapping : public ::testing::TestWithParam<std::string> {};

}  // namespace

TEST_P(DemandMapping, AgedDriveWithTrimsEveryReadVerified) {
  const std::string scheme = GetParam();
  auto run = test::run_platform(demand_platform(scheme), kWorkload);
  const auto& r = run.results;
  test::expect_clean(r);
  ASSERT_TRUE(r.contains("mapping"));
  const auto& m = r["mapping"];
  EXPECT_EQ(m["scheme"], scheme);
  EXPECT_GT(m["read_lookups"]["misses"].get<uint64_t>(), 0u);    // the cache is smaller than the map
  EXPECT_GT(m["tp_reads"].get<uint64_t>(), 0u);
  EXPECT_GT(m["tp_writes"].get<uint64_t>(), 0u);
  const bool entries = scheme == "writeopt" || scheme == "adaptive";
  if (entries) {
    EXPECT_GT(m["batch_updates"].get<uint64_t>(), 0u);
    EXPECT_EQ(m["tp_dirty_evictions"].get<uint64_t>(), 0u);       // dirty mappings are entries
    EXPECT_GT(m["batch_entries"].get<uint64_t>(), m["batch_updates"].get<uint64_t>());   // batched
  } else {
    EXPECT_GT(m["tp_dirty_evictions"].get<uint64_t>(), 0u);
    EXPECT_EQ(m["batch_updates"].get<uint64_t>(), 0u);
  }
  // The cache stays inside its budget (ftl.cmt_ratio of the whole map's bytes).
  const auto& b = m["dram_bytes"];
  EXPECT_LE(b["cmt"].get<uint64_t>() + b["dirty_entries"].get<uint64_t>(), b["budget"].get<uint64_t>());
  EXPECT_EQ(b["gtd"].get<uint64_t>(), 4 * m["translation_pages"].get<uint64_t>());
  // Reads that waited for a translation page write: dftl's are the point; none from part on.
  const uint64_t waited = r["ops"]["read"]["waited_for"]["map_write"]["requests"].get<uint64_t>();
  EXPECT_EQ(m["reads_waited_for"]["map_write"].get<uint64_t>() > 0, waited > 0);
  if (scheme != "dftl") {
    EXPECT_EQ(waited, 0u) << "host reads waited for a translation page write";
  }
  if (scheme == "adaptive") {
    EXPECT_GT(m["adapt_steps"].get<uint64_t>(), 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Schemes, DemandMapping,
                         ::testing::Values("dftl", "part", "part-sched", "writeopt", "adaptive"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

// Translation blocks are cleaned like data blocks: a small drive overwritten many times.
TEST(DemandMappingGc, TranslationBlocksAreCleaned) {
  auto sets = demand_platform("dftl");
  sets.push_back("nand.blocks_per_plane=48");
  auto run = test::run_platform(sets, "fio:rw=randwrite,bs=4k,iodepth=32,io=40000;fio:rw=randread,bs=4k,iodepth=32,io=4000");
  test::expect_clean(run.results);
  EXPECT_GT(run.results["mapping"]["translation_gc_runs"].get<uint64_t>(), 0u);
}

TEST(DemandMappingIss, PartSchedOnTheIssWithIntegrity) {
  auto sets = demand_platform("part-sched");
  sets.push_back("firmware.mode=iss");
  auto run = test::run_platform(sets, "fio:rw=randrw,rwmixread=50,bs=4k,iodepth=16,io=3000");
  test::expect_clean(run.results);
  EXPECT_EQ(run.results["firmware"]["mode"], "iss");
  EXPECT_GT(run.results["mapping"]["tp_reads"].get<uint64_t>(), 0u);
}

TEST(DemandMappingErrors, CacheTooSmallIsAClearError) {
  auto sets = demand_platform("part");
  sets.push_back("ftl.cmt_ratio=0.001");
  auto run = test::run_platform(sets, "fio:rw=randread,bs=4k,io=10");
  ASSERT_FALSE(run.results["errors"].empty());
  const std::string e = run.results["errors"][0].get<std::string>();
  EXPECT_NE(e.find("mapping cache too small"), std::string::npos) << e;
  EXPECT_NE(e.find("ftl.cmt_ratio"), std::string::npos) << "the error names the key: " << e;
}

TEST(DemandMappingErrors, UnknownSchemeIsAConfigError) {
  auto sets = demand_platform("dftl2");
  try {
    test::run_platform(sets, "fio:rw=randread,bs=4k,io=10");
    FAIL() << "no error";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("ftl.mapping"), std::string::npos) << e.what();
  }
}
