// Bad host input completes with an error status, never a crash, and nothing acknowledged
// is lost: out-of-range LBAs, zero length, oversize commands and unknown opcodes sent
// straight to the host interface; out-of-range trace requests with workload.address=strict.
// The error contract: reads that fail with injected media errors are counted, not verified,
// and pass; a failed read no fault explains, or any other unexplained status, fails the run
// with exit status 5.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include <gtest/gtest.h>

#include <fstream>
#include <map>

#include "model/platform_test_support.h"
#include "models/common/config.h"
#include "models/host/host_driver.h"
#include "models/host/host_interface.h"
#include "platforms/run_report.h"

#include <sys/wait.h>

using namespace ssdvp;

TEST(HostErrors, MalformedCommandsCompleteWithErrorStatus) {
  Config cfg = Config::load("", test::small_platform());
  RunOptions opt;
  opt.workload_spec = "fio:rw=randrw,bs=4k,iodepth=8,io=2000";
  opt.test_aids = true;   // test aids allowed (small_platform() checks the firmware's internals)
  SsdPlatform platform(cfg, opt);
  HostInterface& hif = platform.host_interface();
  constexpr uint64_t kMark = uint64_t(0xBADC0DE) << 32;
  std::vector<HostCommand> cmds(6);
  std::map<size_t, uint16_t> status;
  auto forward = hif.on_complete;
  hif.on_complete = [&](HostCommand* c) {
    if ((c->user >> 32) == (kMark >> 32)) status[size_t(c - cmds.data())] = c->status;
    else forward(c);
  };
  std::vector<ssd_sector_tag> buf(1024);
  sc_core::sc_spawn([&] {
    if (!hif.ready()) sc_core::wait(hif.ready_event());
    const uint64_t n = hif.namespace_sectors();
    const struct { uint8_t op; uint64_t lba; uint32_t nsect; } bad[] = {
        {SSD_HOP_READ, n, 1},                  // first LBA past the end
        {SSD_HOP_WRITE, n - 1, 2},             // runs past the end
        {SSD_HOP_READ, uint64_t(1) << 40, 1},  // needs more than 32 bits
        {SSD_HOP_WRITE, 0, 0},                 // zero length
        {SSD_HOP_READ, 0, SSD_MDTS_SECTORS + 1},
        {0x7E, 0, 1},                          // unknown opcode
    };
    for (size_t i = 0; i < cmds.size(); i++) {
      cmds[i].opcode = bad[i].op;
      cmds[i].lba = bad[i].lba;
      cmds[i].nsect = bad[i].nsect;
      cmds[i].data = buf.data();
      cmds[i].user = kMark;
      cmds[i].queue = 1;
      hif.submit(&cmds[i]);
    }
    hif.ring_doorbell(1, sc_core::SC_ZERO_TIME);
  });
  const auto r = platform.run();
  test::expect_clean(r);   // the bad commands never reach the driver: no error status in its figures
  ASSERT_EQ(status.size(), cmds.size());
  EXPECT_EQ(status[0], SSD_ST_LBA_RANGE);
  EXPECT_EQ(status[1], SSD_ST_LBA_RANGE);
  EXPECT_EQ(status[2], SSD_ST_LBA_RANGE);
  EXPECT_EQ(status[3], SSD_ST_INVALID_FIELD);
  EXPECT_EQ(status[4], SSD_ST_INVALID_FIELD);
  EXPECT_EQ(status[5], SSD_ST_INVALID_OPCODE);
  EXPECT_GT(r["integrity"]["sectors_checked"].get<uint64_t>(), 500u);
}

TEST(HostErrors, StrictAddressingReportsOutOfRangeRequests) {
  auto sets = test::small_platform();
  sets.push_back("workload.address=strict");
  auto run = test::run_platform(sets, std::string(SSDVP_SOURCE_DIR) + "/traces/samples/tpcc-small.trace");
  const auto& r = run.results;
  test::expect_clean(r, {.media_errors = false, .rejections = true});
  EXPECT_GT(r["host"]["error_statuses"].value(std::to_string(SSD_ST_LBA_RANGE), 0u), 1000u);
  EXPECT_GT(r["integrity"]["requests_rejected_out_of_range"].get<uint64_t>(), 1000u);
  EXPECT_EQ(r["host"]["folded_requests"].get<uint64_t>(), 0u);
}

TEST(HostErrors, MalformedTraceIsNamedBeforeThePlatformIsBuilt) {
  const std::string path = std::string(::testing::TempDir()) + "bad.trace";
  {
    std::ofstream out(path);
    out << "1000 0 64 8 1\n2000 0 72 8 0\n3000 0 eighty 8 1\n";
  }
  try {
    test::run_platform(test::small_platform(), "trace:" + path);
    FAIL() << "a malformed trace built a platform";
  } catch (const workload::WorkloadError& e) {
    EXPECT_NE(std::string(e.what()).find(path + ":3:"), std::string::npos) << e.what();
  }
}

namespace {
std::vector<std::string> faulty_platform() {
  auto sets = test::small_platform();
  sets.push_back("nand.uncorrectable_per_million=200000");
  return sets;
}
constexpr const char* kMixed = "fio:rw=randrw,bs=4k,iodepth=8,io=5000";
}  // namespace

TEST(HostErrors, InjectedMediaErrorsAreCountedNotVerified) {
  auto run = test::run_platform(faulty_platform(), kMixed);
  const auto& r = run.results;
  test::expect_clean(r, {.media_errors = true, .rejections = false});
  const auto& i = r["integrity"];
  const uint64_t failed = i["reads_failed_media_error"].get<uint64_t>();
  EXPECT_GT(failed, 100u);   // 20% of sector reads fail ECC
  EXPECT_EQ(r["ops"]["read"]["errors"].get<uint64_t>(), failed);
  EXPECT_EQ(r["host"]["error_statuses"].value(std::to_string(SSD_ST_MEDIA_ERROR), 0u), failed);
  EXPECT_EQ(i["reads_checked"].get<uint64_t>() + failed, r["ops"]["read"]["requests"].get<uint64_t>());
  EXPECT_GE(i["uncorrectable_sectors_injected"].get<uint64_t>(), failed);
}

// A read that meets an uncorrectable sector fails with a media error naming the sectors the
// device could not read (its error map, NVMe's error log); every other sector of the command
// arrives intact and is checked as any read's data.
TEST(HostErrors, AMediaErrorNamesItsSectorsAndTheRestOfTheDataIsIntact) {
  auto sets = test::small_platform();
  sets.push_back("nand.uncorrectable_per_million=10000");   // 1% of sector reads
  auto run = test::run_platform(sets, "fio:rw=randread,bs=64k,iodepth=8,io=3000");
  const auto& r = run.results;
  test::expect_clean(r, {.media_errors = true, .rejections = false});
  const auto& i = r["integrity"];
  const uint64_t failed = i["reads_failed_media_error"].get<uint64_t>();
  const uint64_t named = i["sectors_unreadable"].get<uint64_t>();
  const uint64_t verified = i["sectors_verified_in_failed_reads"].get<uint64_t>();
  EXPECT_GT(failed, 50u);
  EXPECT_GT(named, 0u);
  EXPECT_EQ(named + verified, 16u * failed);    // 16 sectors per read, each named or checked
  EXPECT_GT(verified, 8u * failed);             // a failed plane read names its few sectors, not all 16
  EXPECT_LE(named, i["uncorrectable_sectors_injected"].get<uint64_t>() * 4u);   // a plane read holds 4
}

namespace {
// Runs kMixed and changes the status of the 10th completed read command to `status` before the
// driver sees it, as a firmware that reported a failure with no cause would.
nlohmann::json run_with_forged_status(std::vector<std::string> sets, uint16_t status) {
  sets.push_back("sim.progress=false");
  Config cfg = Config::load("", sets);
  RunOptions opt;
  opt.workload_spec = kMixed;
  opt.test_aids = true;   // test aids allowed (small_platform() checks the firmware's internals)
  SsdPlatform platform(cfg, opt);
  HostInterface& hif = platform.host_interface();
  auto forward = hif.on_complete;
  int reads = 0;
  hif.on_complete = [&](HostCommand* c) {
    if (c->opcode == SSD_HOP_READ && c->status == SSD_ST_OK && ++reads == 10) c->status = status;
    forward(c);
  };
  return platform.run();
}
}  // namespace

TEST(HostErrors, AFailedReadWithoutAnInjectedFaultFailsTheRun) {
  const auto r = run_with_forged_status(test::small_platform(), SSD_ST_MEDIA_ERROR);
  EXPECT_TRUE(r["completed"].get<bool>());
  const auto& i = r["integrity"];
  EXPECT_EQ(i["reads_failed_media_error"].get<uint64_t>(), 1u);
  EXPECT_EQ(i["uncorrectable_sectors_injected"].get<uint64_t>(), 0u);
  EXPECT_EQ(i["unexplained_errors"].get<uint64_t>(), 1u);
  ASSERT_EQ(i["first_unexplained"].size(), 1u);
  EXPECT_NE(i["first_unexplained"][0].get<std::string>().find("injected only 0"), std::string::npos);
  EXPECT_EQ(i["reads_checked"].get<uint64_t>() + 1, r["ops"]["read"]["requests"].get<uint64_t>());
  EXPECT_EQ(exit_status(r), 5);
}

TEST(HostErrors, AnUnexplainedStatusFailsTheRunEvenWithFaultsInjected) {
  const auto r = run_with_forged_status(faulty_platform(), SSD_ST_INTERNAL);
  const auto& i = r["integrity"];
  EXPECT_EQ(i["unexplained_errors"].get<uint64_t>(), 1u);
  ASSERT_FALSE(i["first_unexplained"].empty());
  EXPECT_NE(i["first_unexplained"][0].get<std::string>().find("status 0x0006"), std::string::npos)
      << i["first_unexplained"].dump();
  EXPECT_EQ(exit_status(r), 5);
}

// The command line: the summary names both counts and a run with injected faults exits 0.
TEST(HostErrors, SummaryLineSaysCheckedAndFailedReads) {
  const std::string dir = std::string(::testing::TempDir()) + "ssdvp-media-errors";
  std::string cmd = std::string(SSDVP_BINARY) + " run --test-aids --out " + dir + " --workload " + kMixed;
  for (const auto& s : faulty_platform()) cmd += " --set " + s;
  cmd += " --set sim.output_dir=" + dir + " > " + dir + ".out 2>&1";
  const int rc = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(rc));
  EXPECT_EQ(WEXITSTATUS(rc), 0);
  std::ifstream in(dir + "/run.json");
  const auto r = nlohmann::json::parse(in);
  std::ifstream out_file(dir + ".out");
  const std::string out((std::istreambuf_iterator<char>(out_file)), std::istreambuf_iterator<char>());
  const auto& i = r["integrity"];
  const std::string want = "integrity: " + std::to_string(i["reads_checked"].get<uint64_t>()) + " reads checked (" +
                           std::to_string(i["sectors_checked"].get<uint64_t>()) + " sectors), 0 mismatches, " +
                           std::to_string(i["reads_failed_media_error"].get<uint64_t>()) + " failed with media errors";
  EXPECT_NE(out.find(want), std::string::npos) << out;
  EXPECT_GT(i["reads_failed_media_error"].get<uint64_t>(), 0u);
}
