// `ssdvp run` on a zoned device (device.interface = zns, docs/zns.md) with fio's zonemode=zbd
// (traces/zoned_fio_workload.h) through the host driver: random writes at the write pointers
// with zones reset as they fill, reads of what was written, every read checked by the
// integrity checker (a reset clears its zone as a trim would), the device's programs one per
// unit (WAF 1 apart from a finish's padding: none here), its erases those of the resets; the
// same on the ISS; and a conventional workload refused on a zoned device by name.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "models/common/config.h"
#include "platform_test_support.h"

using namespace ssdvp;
using namespace ssdvp::test;

namespace {

// 2 x 2 MLC dies, 2 planes, 16 blocks of 32 pages of 4 KiB: 16 zones of 1 MiB; 4 open at most.
std::vector<std::string> zns(std::vector<std::string> extra = {}) {
  std::vector<std::string> s = {"device.interface=zns", "nand.channels=2", "nand.ways=2", "nand.planes=2",
                                "nand.blocks_per_plane=16", "nand.page_bytes=4096", "nand.cell=mlc",
                                "nand.mlc.pages_per_block=32", "dram.size_mib=256", "device.zns.max_open=4",
                                "device.zns.max_active=4", "sim.progress=false"};
  s.insert(s.end(), extra.begin(), extra.end());
  return s;
}

void expect_zoned_run(const nlohmann::json& r) {
  expect_clean(r);
  const auto& ops = r.at("ops");
  ASSERT_TRUE(ops.contains("zone_reset")) << ops.dump();
  // About 3,000 writes of 16 KiB on 16 MiB of zones: each zone written about three times over.
  const uint64_t writes = ops.at("write").at("requests").get<uint64_t>(), reads = ops.at("read").at("requests").get<uint64_t>();
  EXPECT_EQ(writes + reads, 6000u);
  EXPECT_NEAR(double(writes), 3000.0, 300.0);
  EXPECT_GT(ops.at("zone_reset").at("requests").get<uint64_t>(), 20u);
  EXPECT_EQ(ops.at("zone_reset").at("errors").get<uint64_t>(), 0u);
  EXPECT_GE(r.at("integrity").at("reads_checked").get<uint64_t>(), reads);   // every read checked
  EXPECT_GE(r.at("integrity").at("sectors_checked").get<uint64_t>(), 4 * reads);
  // One program per write unit, no GC: the device writes what the host wrote.
  EXPECT_NEAR(r.at("waf").get<double>(), 1.0, 0.01);
  EXPECT_GT(r.at("ftl").at("erases").get<uint64_t>(), 20u * 4u);   // a reset of a full zone erases 4 blocks
}

}  // namespace

TEST(ZnsWorkload, FioZonedRandomWritesAndReadsAreCheckedEveryOne) {
  test::Run run = run_platform(zns(), "fio:rw=randrw,zonemode=zbd,bs=16k,iodepth=8,io=6000,rwmixread=50", false);
  expect_zoned_run(run.results);
}

TEST(ZnsWorkload, OnTheIss) {
  test::Run run = run_platform(zns({"firmware.mode=iss"}), "fio:rw=randrw,zonemode=zbd,bs=16k,iodepth=8,io=6000,rwmixread=50",
                         false);
  expect_zoned_run(run.results);
}

TEST(ZnsWorkload, AConventionalWorkloadIsRefusedByName) {
  try {
    run_platform(zns(), "fio:rw=randwrite,bs=4k,io=10", false);
    ADD_FAILURE() << "a conventional workload ran on a zoned device";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("zonemode=zbd"), std::string::npos) << e.what();
  }
}
