// Power cuts on a zoned device (device.interface = zns; ftl-sw/zns/zns_power.c, docs/zns.md):
// `ssdvp run --power-cut` while fio's zoned mode writes, with zones open and partial units in
// their windows.  The device dumps its windows and zone map to a spare stripe within the hold-up
// time and commits the dump; at power-on the host reads the whole namespace back (every sector
// as durable as the host's record says, none lost), then writes again at the write pointers the
// device reports (the open zones came back closed, each with its acknowledged data) and reads it
// all back once more.  A cut at random points too; and what it cannot survive is named: no
// hold-up energy or too few spare stripes refused, energy that runs out stopping the power-on.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/power_cut_support.h"

using namespace ssdvp::test;

namespace {

// The small platform (8 dies, 64 blocks of 64 pages) as a zoned device: 62 zones of 1,024
// sectors over every die, two spare stripes for the dump, 625 ms of hold-up at 8 W: the windows'
// data (up to 14 active zones of 276 sectors) at this slow drive's program bandwidth (8 MLC dies, a
// unit of 8 KiB each per 1.35 ms: 47 MB/s) takes about 330 ms.
std::vector<std::string> zoned_plp(std::vector<std::string> extra = {}) {
  std::vector<std::string> s = {"device.interface=zns", "device.zns.spare_stripes=2", "device.plp_energy_mj=5000",
                                "device.zns.zasl_kib=256", "ftl.gc_check_victims=false"};
  s.insert(s.end(), extra.begin(), extra.end());
  return s;
}

const char* kZonedWrites = "fio:rw=randwrite,zonemode=zbd,bsrange=4k-32k,iodepth=16,io=30000";
const std::string kAgain =
    " --after-recovery 'fio:rw=randrw,rwmixread=40,zonemode=zbd,bsrange=4k-32k,iodepth=16,io=6000,seed=9'";

void expect_zoned_recovery(const Cut& c) {
  ASSERT_EQ(c.status, 0) << c.err;
  ASSERT_TRUE(c.before.contains("power_cut")) << c.before.dump();
  const auto& plp = c.before["power_cut"]["power_loss_protection"];
  EXPECT_TRUE(plp["dumped"].get<bool>()) << plp.dump();
  EXPECT_GT(c.before["power_cut"]["host_requests_done"].get<uint64_t>(), 0u);
  ASSERT_TRUE(c.after.contains("recovery")) << c.after.dump();
  const auto& chk = c.after["recovery"]["check"];
  EXPECT_EQ(chk["lost"].get<uint64_t>(), 0u) << chk["first_lost"].dump();
  EXPECT_EQ(chk["sectors_checked"].get<uint64_t>(), 62u * 1024u) << "the whole namespace read back";
  EXPECT_LT(chk["zeros"].get<uint64_t>(), chk["sectors_checked"].get<uint64_t>()) << "data survived";
  EXPECT_TRUE(c.after["errors"].empty()) << c.after["errors"].dump();
  // After the power-on the zoned writes go on at the write pointers the device reported.
  const auto& i = c.after["integrity"];
  EXPECT_EQ(i["mismatches"].get<uint64_t>(), 0u) << i.dump();
  EXPECT_EQ(i["unexplained_errors"].get<uint64_t>(), 0u) << i["first_unexplained"].dump();
  EXPECT_GT(c.after["ops"]["write"]["requests"].get<uint64_t>(), 1000u);
  EXPECT_GT(i["sectors_checked"].get<uint64_t>(), chk["sectors_checked"].get<uint64_t>());
}

}  // namespace

TEST(ZnsPowerCut, OpenZonesComeBackClosedWithEveryAcknowledgedWrite) {
  const Cut c = cut_run("zns-open-zones", "20ms" + kAgain, zoned_plp(), kZonedWrites);
  expect_zoned_recovery(c);
  // Zones were open with data only in their windows: the dump carried it.
  EXPECT_GT(c.before["power_cut"]["power_loss_protection"]["buffered_sectors"].get<uint64_t>(), 0u);
}

TEST(ZnsPowerCut, AtRandomPoints) {
  for (const char* seed : {"random:1", "random:7"}) {
    SCOPED_TRACE(seed);
    expect_zoned_recovery(cut_run(std::string("zns-") + seed, seed + kAgain, zoned_plp(), kZonedWrites));
  }
}

TEST(ZnsPowerCut, WhatItCannotSurviveIsNamed) {
  Cut c = cut_run("zns-no-plp", "20ms", zoned_plp({"device.plp_energy_mj=0"}), kZonedWrites);
  EXPECT_NE(c.status, 0);
  EXPECT_NE(c.err.find("device.plp_energy_mj"), std::string::npos) << c.err;
  c = cut_run("zns-one-spare", "20ms", zoned_plp({"device.zns.spare_stripes=1"}), kZonedWrites);
  EXPECT_NE(c.status, 0);
  EXPECT_NE(c.err.find("device.zns.spare_stripes"), std::string::npos) << c.err;
  // Energy for a few microseconds: the dump cannot finish, and the power-on says so.
  c = cut_run("zns-short-plp", "20ms", zoned_plp({"device.plp_energy_mj=0.01"}), kZonedWrites);
  EXPECT_NE(c.status, 0);
  EXPECT_NE(c.err.find("plp_energy_mj"), std::string::npos) << c.err;
}
