// Firmware in the loop: the FTL cross-compiled for RV32 and run on the ISS core inside the
// platform must serve the same workloads as the host-compiled firmware, with every read
// verified.  Each TEST builds a platform and runs in its own process.
#include <gtest/gtest.h>

#include <fstream>

#include "model/platform_test_support.h"

using namespace ssdvp;

namespace {
std::vector<std::string> iss_platform() {
  auto sets = test::small_platform();
  sets.push_back("firmware.mode=iss");
  sets.push_back("precondition.fill=1");
  sets.push_back("precondition.overwrite=0.3");
  return sets;
}
}  // namespace

TEST(IssPlatform, MixedWorkloadWithIntegrity) {
  auto run = test::run_platform(iss_platform(), "fio:rw=randrw,rwmixread=60,bs=4k,iodepth=8,io=3000");
  const auto& r = run.results;
  test::expect_clean(r);
  EXPECT_EQ(r["firmware"]["mode"], "iss");
  const auto& core = r["firmware"]["cores"][0];
  EXPECT_GT(core["instructions"].get<uint64_t>(), 100000u);
  EXPECT_GT(core["idle_s"].get<double>(), 0.0);     // the core slept while the flash worked
  EXPECT_GT(r["ftl"]["gc_runs"].get<uint64_t>(), 0u);
}

// Bad-block handling as RV32 code: factory bad blocks found at format, failed programs written
// again and their superblocks retired, a failed erase retiring its victim.
TEST(IssPlatform, BadBlocksHandledOnTheIss) {
  auto sets = iss_platform();
  for (const char* s : {"nand.factory_bad_permille=10", "nand.fail_at=program:2:3, program:5:9, erase:1:4",
                        "nand.program_fail_per_million=20"})
    sets.push_back(s);
  auto run = test::run_platform(sets, "fio:rw=randrw,rwmixread=40,bs=4k,iodepth=8,io=6000");
  const auto& r = run.results;
  test::expect_clean(r);
  const auto& b = r["ftl"]["bad_blocks"];
  EXPECT_GT(b["factory_bad_superblocks"].get<uint64_t>(), 0u);
  EXPECT_GE(b["program_failures"].get<uint64_t>(), 2u);
  EXPECT_EQ(b["program_failures"].get<uint64_t>(), b["nand"]["failed_programs"].get<uint64_t>());
  EXPECT_EQ(b["erase_failures"].get<uint64_t>(), b["nand"]["failed_erases"].get<uint64_t>());
  EXPECT_GE(b["grown_bad_superblocks"].get<uint64_t>() + b["retiring_superblocks"].get<uint64_t>(), 2u);
}

// Static wear levelling and the erase-count log in the NOR as RV32 code: random writes to a
// fifth of a filled two-die drive, a record per erase.
TEST(IssPlatform, WearLevellingOnTheIss) {
  auto sets = test::small_platform();
  for (const char* s : {"firmware.mode=iss", "nand.channels=2", "nand.ways=1", "precondition.overwrite=0",
                        "ftl.wear_spread=2", "device.nor_kib=64", "ftl.wear_record_step=1"})
    sets.push_back(s);
  auto run = test::run_platform(sets, "fio:rw=randwrite,bs=4k,iodepth=16,io=150000,size=20%");
  const auto& r = run.results;
  test::expect_clean(r);
  const auto& wl = r["ftl"]["wear_levelling"];
  EXPECT_GT(wl["runs"].get<uint64_t>(), 20u);
  EXPECT_GT(r["wear"]["block_erases_min"].get<uint64_t>(), 0u);   // the cold superblocks were moved
  EXPECT_EQ(wl["superblock_erases"]["max"], r["wear"]["block_erases_max"]);
  EXPECT_GT(wl["nor_log"]["records"].get<uint64_t>(), 300u);
}

TEST(IssPlatform, SampleTraceWithIntegrity) {
  auto run = test::run_platform(iss_platform(), std::string(SSDVP_SOURCE_DIR) + "/traces/samples/tpcc-small.trace");
  test::expect_clean(run.results);
  EXPECT_GE(run.results["host_requests"].get<uint64_t>(), 6999u);
}

TEST(IssPlatform, BadFirmwareImageIsAClearError) {
  const std::string path = std::string(::testing::TempDir()) + "not-an-elf.bin";
  { std::ofstream(path) << "hello"; }
  auto sets = iss_platform();
  sets.push_back("firmware.image=" + path);
  try {
    test::run_platform(sets, "fio:rw=read,bs=4k,io=10");
    FAIL() << "no error";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find(path + ": bad firmware image"), std::string::npos) << e.what();
  }
}

// firmware.skip_idle_syncs runs a core on through the sync points where nothing else has
// activity: the same run with and without it gives the same figures (every one of run.json
// but the host's own, the ISS calls and the kernel's evaluation rounds, which it saves),
// per block and with exact quanta, on one core and on two that share the drive.
namespace {
void expect_same_figures_with_and_without_skipping(std::vector<std::string> sets, const std::string& name) {
  const std::string workload = "fio:rw=randrw,rwmixread=60,bs=4k,iodepth=8,io=3000,numjobs=2";
  for (const char* s : {"host.queues=2"}) sets.push_back(s);
  auto with = sets, without = sets;
  with.push_back("firmware.skip_idle_syncs=true");
  without.push_back("firmware.skip_idle_syncs=false");
  nlohmann::json a = test::run_child(with, workload, name + "-skip");
  nlohmann::json b = test::run_child(without, workload, name + "-noskip");
  test::expect_clean(a);
  uint64_t skipped = 0, quanta_a = 0, quanta_b = 0;
  for (size_t i = 0; i < a["firmware"]["cores"].size(); i++) {
    skipped += a["firmware"]["cores"][i]["syncs_skipped"].get<uint64_t>();
    quanta_a += a["firmware"]["cores"][i]["quanta"].get<uint64_t>();
    quanta_b += b["firmware"]["cores"][i]["quanta"].get<uint64_t>();
    EXPECT_EQ(b["firmware"]["cores"][i]["syncs_skipped"].get<uint64_t>(), 0u);
  }
  EXPECT_GT(skipped, 1000u);
  EXPECT_LT(quanta_a, quanta_b);
  for (nlohmann::json* j : {&a, &b}) {
    test::drop_machine_figures(*j);
    (*j)["config"].erase("firmware.skip_idle_syncs");
    (*j)["firmware"].erase("skip_idle_syncs");
    (*j)["sim_kernel"].erase("delta_cycles");
    (*j)["sim_kernel"].erase("delta_cycles_per_request");
    for (auto& c : (*j)["firmware"]["cores"]) {
      c.erase("quanta");
      c.erase("syncs_skipped");
    }
  }
  EXPECT_EQ(a, b) << nlohmann::json::diff(a, b).dump(1);
}
}  // namespace

TEST(IssPlatform, SkippingIdleSyncsChangesNoFigure) {
  expect_same_figures_with_and_without_skipping(iss_platform(), "skip-block");
}
TEST(IssPlatform, SkippingIdleSyncsChangesNoFigureWithExactQuanta) {
  auto sets = iss_platform();
  sets.push_back("firmware.exact_quanta=true");
  expect_same_figures_with_and_without_skipping(sets, "skip-exact");
}
TEST(IssPlatform, SkippingIdleSyncsChangesNoFigureOnTwoCores) {
  auto sets = iss_platform();
  sets.push_back("firmware.cores=2");
  expect_same_figures_with_and_without_skipping(sets, "skip-cores");
}
