// Static wear levelling (docs/reliability.md, "Wear"): random writes to a fifth of a filled
// drive leave four fifths of its superblocks holding cold data that GC never erases.  With
// ftl.wear_spread the firmware moves that data onto worn superblocks and keeps the spread of
// erase counts near the limit; without it the spread grows with every hot erase.  Both cases
// run, so that the first one cannot pass on a workload that wears evenly anyway.
#include <gtest/gtest.h>

#include "model/platform_test_support.h"

using namespace ssdvp;

namespace {

// Two dies of 64 superblocks: the hot fifth is rewritten many times over in a few seconds.
constexpr const char* kHotFifth = "fio:rw=randwrite,bs=4k,iodepth=16,io=1000000,size=20%";

test::Run hot_fifth_run(const std::string& spread) {
  auto sets = test::small_platform();
  for (const char* s : {"nand.channels=2", "nand.ways=1", "precondition.overwrite=0"}) sets.push_back(s);
  sets.push_back("ftl.wear_spread=" + spread);
  return test::run_platform(sets, kHotFifth);
}

// The firmware's erase counts against the NAND's own: the same (every block of a superblock
// is erased together, and nothing failed), but for one superblock whose erase may still be in
// flight when the run ends: the NAND counts an erase when it starts, the firmware when it
// completes.
void expect_counts_match_nand(const nlohmann::json& r) {
  const auto& fw = r["ftl"]["wear_levelling"]["superblock_erases"];
  EXPECT_EQ(fw["min"], r["wear"]["block_erases_min"]);
  EXPECT_EQ(fw["max"], r["wear"]["block_erases_max"]);
  const double in_flight = r["wear"]["block_erases_mean"].get<double>() - fw["mean"].get<double>();
  EXPECT_GE(in_flight, -1e-12);
  EXPECT_LE(in_flight, 1.0 / 64 + 1e-12) << "more than one superblock's erase (of 64) unaccounted";
}

uint64_t spread(const nlohmann::json& r) {
  return r["wear"]["block_erases_max"].get<uint64_t>() - r["wear"]["block_erases_min"].get<uint64_t>();
}

}  // namespace

TEST(WearLevelling, ColdDataMovesAndTheSpreadStaysNearTheLimit) {
  const auto run = hot_fifth_run("16");
  const auto& r = run.results;
  test::expect_clean(r);
  const auto& wl = r["ftl"]["wear_levelling"];
  EXPECT_GT(wl["runs"].get<uint64_t>(), 20u);
  EXPECT_GT(wl["sectors_moved"].get<uint64_t>(), 0u);
  EXPECT_LE(spread(r), 16u + 8u) << r["wear"].dump();
  EXPECT_GT(r["wear"]["block_erases_min"].get<uint64_t>(), 0u);   // every cold superblock moved
  expect_counts_match_nand(r);
}

TEST(WearLevelling, WithoutItColdSuperblocksStayUnerased) {
  const auto run = hot_fifth_run("0");
  const auto& r = run.results;
  test::expect_clean(r);
  EXPECT_EQ(r["ftl"]["wear_levelling"]["runs"].get<uint64_t>(), 0u);
  EXPECT_EQ(r["wear"]["block_erases_min"].get<uint64_t>(), 0u);
  EXPECT_GT(spread(r), 40u) << r["wear"].dump();
  expect_counts_match_nand(r);
}

// Worn, aged data (the RBER model, models/nand/rber_model.h): every read needs read-retry
// steps, each another tR; reads get slower by as much and stay correct.
TEST(ReadRetry, ErrorProneDataReadsSlowerAndCorrect) {
  auto sets = test::small_platform();
  // RBER 3e-3 against an ECC limit of 1e-3: two steps (3e-3 -> 1.5e-3 -> 7.5e-4)
  for (const char* s : {"nand.rber.base=3e-3", "nand.mlc.t_read_us=[50, 50]", "nand.ecc_retry_us=5"}) sets.push_back(s);
  const auto run = test::run_platform(sets, "fio:rw=randread,bs=4k,iodepth=1,io=2000");
  const auto& r = run.results;
  test::expect_clean(r);
  const auto& rr = r["wear"]["read_retry"];
  EXPECT_GE(rr["reads"].get<uint64_t>(), 2000u);
  EXPECT_EQ(rr["steps"].get<uint64_t>(), 2 * rr["reads"].get<uint64_t>());
  EXPECT_EQ(rr["uncorrectable_plane_reads"].get<uint64_t>(), 0u);
  // QD1: a read's latency holds three tR and two ECC retries (165 us) on top of the transfer
  EXPECT_GT(r["ops"]["read"]["latency_us"]["p50"].get<double>(), 165.0);
}
