// Bad blocks (docs/reliability.md, "Bad blocks"): factory bad blocks found at format and never
// used, program failures whose data is written again elsewhere and whose superblock is retired
// once GC moved its data out, erase failures that retire the victim, the drive going
// read-only when the spare runs out; through all of it integrity stays clean and nothing
// acknowledged is lost.  The firmware's counts are checked against the NAND's own.
#include <gtest/gtest.h>

#include "model/platform_test_support.h"

using namespace ssdvp;

namespace {

constexpr const char* kRandRw = "fio:rw=randrw,rwmixread=50,bs=4k,iodepth=16,io=60000";

const nlohmann::json& bad_blocks(const nlohmann::json& r) { return r["ftl"]["bad_blocks"]; }

// The firmware's table agrees with the NAND: every failure the dies reported was handled,
// and every superblock retired is bad on every plane (a multi-plane program or erase fails
// on all of them).
void expect_table_matches_nand(const nlohmann::json& r) {
  const auto& b = bad_blocks(r);
  const auto& n = b["nand"];
  const uint64_t planes = std::stoul(r["config"]["nand.planes"].get<std::string>());
  EXPECT_EQ(b["program_failures"].get<uint64_t>(), n["failed_programs"].get<uint64_t>());
  EXPECT_EQ(b["erase_failures"].get<uint64_t>(), n["failed_erases"].get<uint64_t>());
  EXPECT_EQ((b["grown_bad_superblocks"].get<uint64_t>() + b["retiring_superblocks"].get<uint64_t>()) * planes,
            n["grown_bad_blocks"].get<uint64_t>());
  EXPECT_LE(b["factory_bad_superblocks"].get<uint64_t>(), n["factory_bad_blocks"].get<uint64_t>());
  EXPECT_EQ(b["program_retry_sectors"].get<uint64_t>() % std::stoul(r["program_unit_sectors"].dump()), 0u);
}

std::vector<std::string> with(std::vector<std::string> extra) {
  auto s = test::small_platform();
  s.insert(s.end(), extra.begin(), extra.end());
  return s;
}

}  // namespace

TEST(BadBlocks, FailuresThroughALongRunLoseNothing) {
  auto run = test::run_platform(with({"nand.factory_bad_permille=5", "nand.program_fail_per_million=20",
                                      "nand.erase_fail_per_million=500"}),
                                kRandRw);
  const auto& r = run.results;
  test::expect_clean(r);
  const auto& b = bad_blocks(r);
  EXPECT_GT(b["factory_bad_superblocks"].get<uint64_t>(), 0u);
  EXPECT_GT(b["program_failures"].get<uint64_t>(), 0u);
  EXPECT_GT(b["erase_failures"].get<uint64_t>(), 0u);
  EXPECT_GT(b["grown_bad_superblocks"].get<uint64_t>(), 0u);
  EXPECT_FALSE(b["read_only"].get<bool>());
  expect_table_matches_nand(r);
}

TEST(BadBlocks, FailuresWithADemandMapAndTheRingBuffer) {
  auto run = test::run_platform(with({"ftl.mapping=writeopt", "ftl.write_buffer=ring", "nand.program_fail_per_million=30",
                                      "nand.erase_fail_per_million=500"}),
                                kRandRw);
  test::expect_clean(run.results);
  const auto& b = bad_blocks(run.results);
  EXPECT_GT(b["program_failures"].get<uint64_t>(), 0u);
  EXPECT_GT(b["grown_bad_superblocks"].get<uint64_t>(), 0u);
  expect_table_matches_nand(run.results);
}

// One program fails, on an empty drive: the superpage of host data goes again elsewhere from
// the write buffer, and the superblock is retired once GC moved out what it held.  Programs
// already queued behind it in the same block fail too (the block is bad) and go again.
TEST(BadBlocks, AFailedProgramIsWrittenAgainAndItsSuperblockRetired) {
  auto run = test::run_platform(with({"nand.fail_at=program:3:0@2000"}), "fio:rw=randwrite,bs=4k,iodepth=16,io=30000",
                                /*precondition=*/false);
  const auto& r = run.results;
  test::expect_clean(r);
  const auto& b = bad_blocks(r);
  const uint64_t failures = b["program_failures"].get<uint64_t>();
  EXPECT_GE(failures, 1u);
  EXPECT_LE(failures, 1u + std::stoul(r["config"]["ftl.die_program_queue"].get<std::string>()));
  EXPECT_EQ(b["program_retry_sectors"].get<uint64_t>(), failures * r["program_unit_sectors"].get<uint64_t>());
  EXPECT_EQ(b["grown_bad_superblocks"].get<uint64_t>(), 1u);   // retired: GC ran there
  EXPECT_EQ(b["retiring_superblocks"].get<uint64_t>(), 0u);
  EXPECT_EQ(b["erase_failures"].get<uint64_t>(), 0u);
  expect_table_matches_nand(r);
}

TEST(BadBlocks, AFailedEraseRetiresTheVictim) {
  auto run = test::run_platform(with({"nand.fail_at=erase:5:0, erase:6:1"}), kRandRw);
  const auto& r = run.results;
  test::expect_clean(r);
  const auto& b = bad_blocks(r);
  EXPECT_EQ(b["erase_failures"].get<uint64_t>(), 2u);
  EXPECT_EQ(b["grown_bad_superblocks"].get<uint64_t>(), 2u);
  expect_table_matches_nand(r);
}

// Factory bad blocks are found at format and never programmed or erased (any such operation
// on them would fail and show in the NAND's counts).
TEST(BadBlocks, FactoryBadBlocksAreNeverUsed) {
  auto run = test::run_platform(with({"nand.factory_bad_permille=20"}), kRandRw);
  const auto& r = run.results;
  test::expect_clean(r);
  const auto& b = bad_blocks(r);
  EXPECT_GT(b["factory_bad_superblocks"].get<uint64_t>(), 5u);
  EXPECT_EQ(b["nand"]["failed_programs"].get<uint64_t>(), 0u);
  EXPECT_EQ(b["nand"]["failed_erases"].get<uint64_t>(), 0u);
  EXPECT_EQ(b["grown_bad_superblocks"].get<uint64_t>(), 0u);
}

// Erases failing often on a drive with little spare: the drive goes read-only, refuses
// writes and trims with a clear status, keeps serving reads of everything it acknowledged.
TEST(BadBlocks, WhenTheSpareRunsOutTheDriveGoesReadOnly) {
  auto run = test::run_platform(with({"nand.erase_fail_per_million=50000", "precondition.fill=0.5",
                                      "precondition.overwrite=0"}),
                                "fio:rw=randrw,rwmixread=50,bs=4k,iodepth=8,io=150000,trim_percent=2");
  const auto& r = run.results;
  test::ExpectedErrors e;
  e.write_protected = true;
  test::expect_clean(r, e);
  const auto& b = bad_blocks(r);
  EXPECT_TRUE(b["read_only"].get<bool>());
  EXPECT_GT(b["writes_refused"].get<uint64_t>(), 0u);
  EXPECT_EQ(r["integrity"]["requests_refused_write_protected"].get<uint64_t>(), b["writes_refused"].get<uint64_t>());
  EXPECT_GT(r["integrity"]["reads_checked"].get<uint64_t>(), 10000u);
  expect_table_matches_nand(r);
}
