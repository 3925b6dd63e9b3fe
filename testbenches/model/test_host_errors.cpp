// Bad host input completes with an error status, never a crash, and nothing acknowledged
// is lost: out-of-range LBAs, zero length, oversize commands and unknown opcodes sent
// straight to the host interface; out-of-range trace requests with workload.address=strict.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include <gtest/gtest.h>

#include <fstream>
#include <map>

#include "model/platform_test_support.h"
#include "models/common/config.h"
#include "models/host/host_driver.h"
#include "models/host/host_interface.h"

using namespace ssdvp;

TEST(HostErrors, MalformedCommandsCompleteWithErrorStatus) {
  Config cfg = Config::load("", test::small_platform());
  RunOptions opt;
  opt.workload_spec = "fio:rw=randrw,bs=4k,iodepth=8,io=2000";
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
  test::expect_clean(r);
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
  test::expect_clean(r);
  EXPECT_GT(r["host"]["error_statuses"].value(std::to_string(SSD_ST_LBA_RANGE), 0u), 1000u);
  EXPECT_EQ(r["host"]["folded_requests"].get<uint64_t>(), 0u);
}

TEST(HostErrors, MalformedTraceStopsTheRunNamingFileAndLine) {
  const std::string path = std::string(::testing::TempDir()) + "bad.trace";
  {
    std::ofstream out(path);
    out << "1000 0 64 8 1\n2000 0 72 8 0\n3000 0 eighty 8 1\n";
  }
  auto run = test::run_platform(test::small_platform(), "trace:" + path);
  const auto& r = run.results;
  EXPECT_FALSE(r["completed"].get<bool>());
  ASSERT_FALSE(r["errors"].empty());
  const std::string e = r["errors"][0].get<std::string>();
  EXPECT_NE(e.find(path + ":3:"), std::string::npos) << e;
}
