// The NVMe Zoned Namespace device (device.interface = zns; docs/zns.md) driven by the tests as
// its host (RunOptions::external_host, models/host/zns_host.h): Identify and Report Zones, writes
// read back from the device's window and from the flash, Zone Append under concurrency, each
// status the spec gives a command at fault (nothing changed by one), the open and active limits
// with the controller closing an implicitly opened zone, finish (padding), reset (the zone's
// blocks erased, a wear each, the zone written anew), Select All, natively and with the
// firmware on the ISS; and the configurations the device cannot run refused by name.  A small
// MLC device: 2 channels x 2 ways, 2 planes, 16 blocks of 32 pages of 4 KiB: 16 zones of one
// stripe (4 dies x 32 pages x 2 planes = 256 sectors, size = capacity).
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "models/common/config.h"
#include "models/common/fatal.h"
#include "models/host/zns_host.h"
#include "models/nand/die.h"
#include "platforms/ssd_platform.h"

using namespace ssdvp;

namespace {

constexpr uint64_t kZone = 256;   // sectors: size and capacity

std::vector<std::string> zns_sets(std::vector<std::string> extra = {}) {
  std::vector<std::string> s = {"device.interface=zns", "nand.channels=2", "nand.ways=2", "nand.planes=2",
                                "nand.blocks_per_plane=16", "nand.page_bytes=4096", "nand.cell=mlc",
                                "nand.mlc.pages_per_block=32", "dram.size_mib=256", "device.zns.max_open=3",
                                "device.zns.max_active=4", "device.zns.zasl_kib=64", "sim.progress=false"};
  s.insert(s.end(), extra.begin(), extra.end());
  return s;
}

// Builds the device, runs `body` as a host thread, stops the simulation when it returns.
void run_host(const std::vector<std::string>& sets, const std::function<void(ZnsHost&, SsdPlatform&)>& body) {
  RunOptions opt;
  opt.external_host = true;
  opt.test_aids = true;   // test aids allowed (small_platform() checks the firmware's internals)
  SsdPlatform platform(Config::load("", sets), opt);
  ZnsHost host(platform.host_interface());
  bool finished = false;
  sc_core::sc_spawn([&] {
    body(host, platform);
    finished = true;
    sc_core::sc_stop();
  });
  sc_core::sc_start();
  for (const auto& e : fatal_errors()) ADD_FAILURE() << "fatal: " << e;
  EXPECT_TRUE(finished) << "the host stopped before its last command";
  EXPECT_GT(host.commands(), 0u);
}

// Tags for n sectors from lba, write number seq.
std::vector<ssd_sector_tag> tags(uint64_t lba, uint32_t n, uint32_t seq) {
  std::vector<ssd_sector_tag> t;
  for (uint32_t i = 0; i < n; i++) t.push_back({uint32_t(lba + i), seq});
  return t;
}

void expect_data(ZnsHost& h, uint64_t lba, uint32_t n, uint32_t seq) {
  std::vector<ssd_sector_tag> got;
  ASSERT_EQ(h.read(lba, n, got).status, SSD_ST_OK) << "reading " << n << " from " << lba;
  for (uint32_t i = 0; i < n; i++) {
    EXPECT_EQ(got[i].lba, uint32_t(lba + i)) << "LBA " << lba + i;
    EXPECT_EQ(got[i].seq, seq) << "LBA " << lba + i;
  }
}

// Unwritten (or past a finish, or reset) sectors read as zeros.
void expect_zeros(ZnsHost& h, uint64_t lba, uint32_t n) {
  std::vector<ssd_sector_tag> got;
  ASSERT_EQ(h.read(lba, n, got).status, SSD_ST_OK);
  for (uint32_t i = 0; i < n; i++) {
    EXPECT_EQ(got[i].lba, 0u) << "LBA " << lba + i;
    EXPECT_EQ(got[i].seq, 0u) << "LBA " << lba + i;
  }
}

uint8_t state_of(ZnsHost& h, uint64_t zslba) {
  const auto r = h.report(zslba, SSD_ZNS_ZRAS_ALL, true, 1);
  EXPECT_EQ(r.status, SSD_ST_OK);
  return r.zones.empty() ? 0 : uint8_t(r.zones[0].zs >> 4);
}

uint64_t wp_of(ZnsHost& h, uint64_t zslba) { return h.report(zslba, SSD_ZNS_ZRAS_ALL, true, 1).zones.at(0).wp; }

uint64_t erases(SsdPlatform& p) {
  uint64_t n = 0;
  for (uint32_t d = 0; d < p.params().nand.dies(); d++) n += p.die(d).total_erases();
  return n;
}

// Identify, reports, writes and reads, finish and reset: what both firmware builds must pass.
void zones_and_data(ZnsHost& h, SsdPlatform& p) {
  const auto g = h.geometry();
  EXPECT_EQ(g.nr_zones, 16u);
  EXPECT_EQ(g.zsze, kZone);
  EXPECT_EQ(g.zcap, kZone);
  EXPECT_EQ(g.max_open, 3u);
  EXPECT_EQ(g.max_active, 4u);
  EXPECT_EQ(g.zasl_sectors, 16u);
  auto all = h.report(0, SSD_ZNS_ZRAS_ALL, false, 1);
  ASSERT_EQ(all.status, SSD_ST_OK);
  EXPECT_EQ(all.nr_zones, 16u);
  ASSERT_EQ(all.zones.size(), 16u);
  for (uint32_t z = 0; z < 16; z++) {
    EXPECT_EQ(all.zones[z].zs >> 4, SSD_ZNS_ZS_EMPTY);
    EXPECT_EQ(all.zones[z].zslba, z * kZone);
    EXPECT_EQ(all.zones[z].zcap, kZone);
  }

  // Zone 1 written in odd sizes: each write read back at once (from the device's window),
  // the whole zone again once it is full (from the flash).
  uint64_t at = kZone;
  const uint32_t sizes[] = {1, 3, 2, 7, 16, 1, 64, 33};
  uint32_t i = 0;
  while (at < 2 * kZone) {
    const uint32_t n = uint32_t(std::min<uint64_t>(sizes[i++ % 8], 2 * kZone - at));
    ASSERT_EQ(h.write(at, tags(at, n, 1)).status, SSD_ST_OK) << "at " << at;
    expect_data(h, at, n, 1);
    at += n;
  }
  EXPECT_EQ(state_of(h, kZone), SSD_ZNS_ZS_FULL);
  sc_core::wait(sc_core::sc_time(50, sc_core::SC_MS));   // every program done
  expect_data(h, kZone, 200, 1);
  expect_data(h, kZone + 200, 56, 1);
  expect_zeros(h, 0, 8);                                  // zone 0: never written

  // Finish: what was written stays, the rest of the zone reads as zeros.
  ASSERT_EQ(h.write(3 * kZone, tags(3 * kZone, 3, 2)).status, SSD_ST_OK);
  ASSERT_EQ(h.manage(3 * kZone, SSD_ZNS_ZSA_FINISH).status, SSD_ST_OK);
  EXPECT_EQ(state_of(h, 3 * kZone), SSD_ZNS_ZS_FULL);
  EXPECT_EQ(wp_of(h, 3 * kZone), 4 * kZone);
  sc_core::wait(sc_core::sc_time(10, sc_core::SC_MS));
  expect_data(h, 3 * kZone, 3, 2);
  expect_zeros(h, 3 * kZone + 3, 13);

  // Reset: the zone's blocks erased (4 dies: one stripe), a wear each; written anew.
  const uint64_t before = erases(p);
  ASSERT_EQ(h.manage(kZone, SSD_ZNS_ZSA_RESET).status, SSD_ST_OK);
  EXPECT_EQ(state_of(h, kZone), SSD_ZNS_ZS_EMPTY);
  EXPECT_EQ(wp_of(h, kZone), kZone);
  expect_zeros(h, kZone, 16);
  ASSERT_EQ(h.write(kZone, tags(kZone, 4, 3)).status, SSD_ST_OK);   // waits for the erases
  expect_data(h, kZone, 4, 3);
  sc_core::wait(sc_core::sc_time(20, sc_core::SC_MS));
  EXPECT_EQ(erases(p) - before, 4u);
  expect_data(h, kZone, 4, 3);
  expect_zeros(h, kZone + 4, 4);
  // The finished zone's reset erases the one die its padded unit reached.
  ASSERT_EQ(h.manage(3 * kZone, SSD_ZNS_ZSA_RESET).status, SSD_ST_OK);
  sc_core::wait(sc_core::sc_time(20, sc_core::SC_MS));
  EXPECT_EQ(erases(p) - before, 6u);   // 3 sectors: units 0 and 1, on dies 0 and 1
  ASSERT_EQ(h.flush().status, SSD_ST_OK);
}

// Every status a command at fault gets, and nothing changed by one.
void statuses(ZnsHost& h, SsdPlatform&) {
  ASSERT_EQ(h.write(0, tags(0, 8, 1)).status, SSD_ST_OK);
  EXPECT_EQ(h.write(16, tags(16, 1, 1)).status, SSD_ZNS_ST_INVALID_WRITE);    // ahead of the write pointer
  EXPECT_EQ(h.write(4, tags(4, 1, 1)).status, SSD_ZNS_ST_INVALID_WRITE);      // behind it
  EXPECT_EQ(h.write(8, tags(8, 249, 1)).status, SSD_ZNS_ST_BOUNDARY_ERROR);   // past the capacity
  EXPECT_EQ(h.append(0, tags(0, 17, 1)).status, SSD_ST_INVALID_FIELD);        // above ZASL
  EXPECT_EQ(h.append(5, tags(5, 1, 1)).status, SSD_ST_INVALID_FIELD);         // not the zone's start
  EXPECT_EQ(h.write(16 * kZone, tags(16 * kZone, 1, 1)).status, SSD_ST_LBA_RANGE);
  std::vector<ssd_sector_tag> got;
  EXPECT_EQ(h.read(kZone - 2, 4, got).status, SSD_ZNS_ST_BOUNDARY_ERROR);     // across zones
  EXPECT_EQ(h.read(16 * kZone, 1, got).status, SSD_ST_LBA_RANGE);
  EXPECT_EQ(wp_of(h, 0), 8u);
  // Open limit 3, active limit 4: zones 0, 1, 2 implicitly open; writing zone 3 closes zone 0
  // (the oldest), zone 4 would be a fifth active zone.
  ASSERT_EQ(h.write(kZone, tags(kZone, 1, 1)).status, SSD_ST_OK);
  ASSERT_EQ(h.write(2 * kZone, tags(2 * kZone, 1, 1)).status, SSD_ST_OK);
  ASSERT_EQ(h.write(3 * kZone, tags(3 * kZone, 1, 1)).status, SSD_ST_OK);
  EXPECT_EQ(state_of(h, 0), SSD_ZNS_ZS_CLOSED);
  EXPECT_EQ(h.write(4 * kZone, tags(4 * kZone, 1, 1)).status, SSD_ZNS_ST_TOO_MANY_ACTIVE);
  EXPECT_EQ(state_of(h, 4 * kZone), SSD_ZNS_ZS_EMPTY);
  // Explicitly opened zones are not closed for room: with 3 of them, a write is too many open.
  ASSERT_EQ(h.manage(kZone, SSD_ZNS_ZSA_OPEN).status, SSD_ST_OK);
  ASSERT_EQ(h.manage(2 * kZone, SSD_ZNS_ZSA_OPEN).status, SSD_ST_OK);
  ASSERT_EQ(h.manage(3 * kZone, SSD_ZNS_ZSA_OPEN).status, SSD_ST_OK);
  EXPECT_EQ(h.write(8, tags(8, 1, 1)).status, SSD_ZNS_ST_TOO_MANY_OPEN);      // zone 0 is closed
  EXPECT_EQ(state_of(h, 0), SSD_ZNS_ZS_CLOSED);
  // Transitions the state forbids; a zone named by an LBA that is not its first.
  EXPECT_EQ(h.manage(5 * kZone, SSD_ZNS_ZSA_CLOSE).status, SSD_ZNS_ST_INVALID_TRANSITION);   // empty
  EXPECT_EQ(h.manage(5 * kZone, SSD_ZNS_ZSA_OFFLINE).status, SSD_ZNS_ST_INVALID_TRANSITION);
  EXPECT_EQ(h.manage(5 * kZone + 1, SSD_ZNS_ZSA_FINISH).status, SSD_ST_INVALID_FIELD);
  EXPECT_EQ(h.manage(5 * kZone, 0x9).status, SSD_ST_INVALID_FIELD);
  ASSERT_EQ(h.manage(5 * kZone, SSD_ZNS_ZSA_FINISH).status, SSD_ST_OK);
  EXPECT_EQ(h.write(5 * kZone, tags(5 * kZone, 1, 1)).status, SSD_ZNS_ST_ZONE_FULL);
  EXPECT_EQ(h.manage(5 * kZone, SSD_ZNS_ZSA_OPEN).status, SSD_ZNS_ST_INVALID_TRANSITION);
  // Reports: a bad option, an LBA beyond the namespace, no sectors; other opcodes.
  EXPECT_EQ(h.report(0, 0x9).status, SSD_ST_INVALID_FIELD);
  EXPECT_EQ(h.report(16 * kZone).status, SSD_ST_LBA_RANGE);
  EXPECT_EQ(h.raw(SSD_HOP_ZNS_MGMT_RECV, 0, 0).status, SSD_ST_INVALID_FIELD);
  EXPECT_EQ(h.raw(SSD_HOP_ZNS_MGMT_RECV, 0, 1, 0x1).status, SSD_ST_INVALID_FIELD);   // extended report
  EXPECT_EQ(h.raw(SSD_HOP_ZNS_IDENTIFY, 0, 1, 0x0).status, SSD_ST_INVALID_FIELD);
  EXPECT_EQ(h.raw(SSD_HOP_TRIM, 0, 1).status, SSD_ST_INVALID_OPCODE);
  EXPECT_EQ(h.raw(SSD_HOP_PRECONDITION, 0, 0).status, SSD_ST_INVALID_OPCODE);
  // Reports by state, counted.
  EXPECT_EQ(h.report(0, SSD_ZNS_ZRAS_EXPL_OPEN).nr_zones, 3u);
  EXPECT_EQ(h.report(0, SSD_ZNS_ZRAS_CLOSED).nr_zones, 1u);
  EXPECT_EQ(h.report(0, SSD_ZNS_ZRAS_FULL).nr_zones, 1u);
  EXPECT_EQ(h.report(0, SSD_ZNS_ZRAS_EMPTY).nr_zones, 11u);
  // Nothing a refused command did: zone 0 still holds its 8 sectors and takes the next.
  expect_data(h, 0, 8, 1);
  ASSERT_EQ(h.manage(kZone, SSD_ZNS_ZSA_CLOSE).status, SSD_ST_OK);
  ASSERT_EQ(h.write(8, tags(8, 2, 1)).status, SSD_ST_OK);
  EXPECT_EQ(state_of(h, 0), SSD_ZNS_ZS_IMPL_OPEN);
  // Select All: close every open zone, finish every active one, reset them all.
  ASSERT_EQ(h.manage(0, SSD_ZNS_ZSA_CLOSE, true).status, SSD_ST_OK);
  EXPECT_EQ(h.report(0, SSD_ZNS_ZRAS_CLOSED).nr_zones, 4u);
  ASSERT_EQ(h.manage(0, SSD_ZNS_ZSA_FINISH, true).status, SSD_ST_OK);
  EXPECT_EQ(h.report(0, SSD_ZNS_ZRAS_FULL).nr_zones, 5u);
  ASSERT_EQ(h.manage(0, SSD_ZNS_ZSA_RESET, true).status, SSD_ST_OK);
  EXPECT_EQ(h.report(0, SSD_ZNS_ZRAS_EMPTY).nr_zones, 16u);
  expect_zeros(h, 0, 10);
  ASSERT_EQ(h.write(0, tags(0, 2, 9)).status, SSD_ST_OK);
  expect_data(h, 0, 2, 9);
}

// Appends from four queues at once into one zone: every one answered with its own LBAs, none
// overlapping, the zone's sectors all used, each append's data where its answer says.
void appends(ZnsHost& h, SsdPlatform&) {
  constexpr uint32_t kAppends = 96;
  struct A {
    HostCommand cmd;
    std::vector<ssd_sector_tag> data;
    bool done = false;
  };
  std::vector<A> a(kAppends);
  sc_core::sc_event all_done;
  uint32_t left = kAppends, total = 0;
  for (uint32_t i = 0; i < kAppends; i++) {
    const uint32_t n = 1 + i % 4;
    a[i].data.assign(n, ssd_sector_tag{1000 + i, 77});
    a[i].cmd.opcode = SSD_HOP_ZNS_APPEND;
    a[i].cmd.queue = uint16_t(i % 4);
    a[i].cmd.lba = 2 * kZone;
    a[i].cmd.nsect = n;
    a[i].cmd.data = a[i].data.data();
    total += n;
    h.submit(&a[i].cmd, sc_core::sc_time(i % 8, sc_core::SC_US), [&, i](HostCommand*) {
      a[i].done = true;
      if (--left == 0) all_done.notify(sc_core::SC_ZERO_TIME);
    });
  }
  while (left) sc_core::wait(all_done);
  ASSERT_LE(total, kZone);
  std::set<uint64_t> used;
  for (uint32_t i = 0; i < kAppends; i++) {
    ASSERT_EQ(a[i].cmd.status, SSD_ST_OK) << "append " << i;
    const uint64_t lba = a[i].cmd.result;
    EXPECT_GE(lba, 2 * kZone);
    for (uint32_t k = 0; k < a[i].cmd.nsect; k++) EXPECT_TRUE(used.insert(lba + k).second) << "LBA " << lba + k << " twice";
  }
  EXPECT_EQ(used.size(), total);
  EXPECT_EQ(*used.rbegin(), 2 * kZone + total - 1);   // no gap: every sector from the zone's start
  EXPECT_EQ(wp_of(h, 2 * kZone), 2 * kZone + total);
  sc_core::wait(sc_core::sc_time(20, sc_core::SC_MS));
  for (uint32_t i = 0; i < kAppends; i++) {
    std::vector<ssd_sector_tag> got;
    ASSERT_EQ(h.read(a[i].cmd.result, a[i].cmd.nsect, got).status, SSD_ST_OK);
    for (const auto& t : got) {
      EXPECT_EQ(t.lba, 1000 + i) << "append " << i;
      EXPECT_EQ(t.seq, 77u);
    }
  }
}

std::string config_error(const std::vector<std::string>& sets, RunOptions opt = {}) {
  try {
    opt.test_aids = true;   // test aids allowed (small_platform() checks the firmware's internals)
    SsdPlatform p(Config::load("", sets), opt);
  } catch (const std::exception& e) {   // a ConfigError, or the workload's WorkloadError
    return e.what();
  }
  return "";
}

}  // namespace

TEST(ZnsDevice, IdentifyReportsWritesReadsFinishAndReset) { run_host(zns_sets(), zones_and_data); }

TEST(ZnsDevice, EachFaultOfACommandGetsTheSpecsStatus) { run_host(zns_sets(), statuses); }

TEST(ZnsDevice, ZoneAppendsFromSeveralQueuesGetDisjointLbas) { run_host(zns_sets(), appends); }

TEST(ZnsDevice, OnTheIss) {
  run_host(zns_sets({"firmware.mode=iss"}), [](ZnsHost& h, SsdPlatform& p) {
    zones_and_data(h, p);
    h.manage(0, SSD_ZNS_ZSA_RESET, true);
    statuses(h, p);
  });
}

TEST(ZnsDevice, WhatItCannotRunIsRefusedByName) {
  RunOptions ext;
  ext.external_host = true;
  EXPECT_NE(config_error(zns_sets({"device.zns.dies_per_zone=3"}), ext).find("device.zns.dies_per_zone"), std::string::npos);
  EXPECT_NE(config_error(zns_sets({"device.zns.max_open=5"}), ext).find("device.zns.max_open"), std::string::npos);
  EXPECT_NE(config_error(zns_sets({"device.zns.zasl_kib=6"}), ext).find("device.zns.zasl_kib"), std::string::npos);
  EXPECT_NE(config_error(zns_sets({"device.zns.stripes_per_zone=17"}), ext).find("device.zns.stripes_per_zone"),
            std::string::npos);
  EXPECT_NE(config_error(zns_sets({"nand.factory_bad_permille=1"}), ext).find("nand.factory_bad_permille"),
            std::string::npos);
  EXPECT_NE(config_error(zns_sets({"nand.slc_dies=1", "nand.slc.blocks_per_plane=16"}), ext).find("one cell type"),
            std::string::npos);
  EXPECT_NE(config_error(zns_sets()).find("zonemode=zbd"), std::string::npos);   // ssdvp run's default workload
  RunOptions cut = ext;   // a power cut needs the hold-up energy for the dump, and two spare stripes
  cut.power_cut_ns = 1000;
  cut.power_cut_dir = "unused";
  EXPECT_NE(config_error(zns_sets(), cut).find("device.plp_energy_mj"), std::string::npos);
  EXPECT_NE(config_error(zns_sets({"device.plp_energy_mj=100"}), cut).find("device.zns.spare_stripes"), std::string::npos);
  RunOptions snapshot = ext;
  snapshot.save_state_dir = "unused";
  EXPECT_NE(config_error(zns_sets(), snapshot).find("--save-state"), std::string::npos);
}
