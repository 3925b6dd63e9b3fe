// Flexible Data Placement on the conventional drive (ftl.fdp.*; docs/fdp.md): isolation checked
// through the firmware's physical map (no superblock holds two handles' data, after GC too, when
// the handles are persistently isolated; initially isolated ones do meet in GC's superblocks),
// the logs the host reads at the end equal to the NAND's own counts of bytes programmed and
// erased, and the FDP commands driven by the test as the host (Reclaim Unit Handle Status and
// Update, the events log, invalid placement identifiers, the statuses of malformed commands).
// A small MLC device: 2 channels x 2 ways, 2 planes, 64 blocks of 64 pages of 4 KiB (a
// superblock: 128 sectors; 256 of them), so that a few drive writes run GC in seconds.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "ftl-sw/hal/fdp_formats.h"
#include "model/platform_test_support.h"
#include "models/common/config.h"
#include "models/common/fatal.h"
#include "models/host/host_command_port.h"
#include "platforms/ssd_platform.h"

using namespace ssdvp;

namespace {

constexpr uint32_t kSbSectors = 64 * 2;   // pages x planes (one 4 KiB sector a page)

std::vector<std::string> fdp_sets(std::vector<std::string> extra = {}) {
  std::vector<std::string> s = {"nand.channels=2", "nand.ways=2", "nand.planes=2", "nand.blocks_per_plane=64",
                                "nand.mlc.pages_per_block=64", "dram.size_mib=256", "ftl.write_buffer_mib=3",
                                "ftl.gc_check_victims=true", "ftl.fdp.handles=3", "sim.progress=false",
                                "sim.output_dir=" + std::string(::testing::TempDir()) + "ssdvp-fdp-out"};
  s.insert(s.end(), extra.begin(), extra.end());
  return s;
}

// Two caches side by side from an empty drive, each its own placement identifier: random 4 KiB
// writes to the first half (PID 1) and to the second half (PID 2), four drive writes in all.
const char* kHalves =
    "fio:rw=randwrite,bs=4k,offset=0,size=50%,numjobs=4,iodepth=4,io=12000,fdp=1,fdp_pli=1&"
    "fio:rw=randwrite,bs=4k,offset=50%,size=50%,numjobs=4,iodepth=4,io=12000,fdp=1,fdp_pli=2";

// Superblocks whose valid data (the firmware's map) belongs to both halves.
struct MapLook {
  uint64_t superblocks = 0, mixed = 0;
};
MapLook look_at_map(const std::vector<uint32_t>& l2p) {
  std::vector<uint8_t> half_seen;   // per superblock: bit 0 first half, bit 1 second half
  for (size_t lpa = 0; lpa < l2p.size(); lpa++) {
    if (l2p[lpa] == 0xFFFFFFFFu) continue;
    const size_t sb = l2p[lpa] / kSbSectors;
    if (sb >= half_seen.size()) half_seen.resize(sb + 1, 0);
    half_seen[sb] |= lpa < l2p.size() / 2 ? 1 : 2;
  }
  MapLook m;
  for (uint8_t h : half_seen) {
    m.superblocks += h != 0;
    m.mixed += h == 3;
  }
  return m;
}

TEST(Fdp, PersistentlyIsolatedHandlesNeverShareASuperblockThroughGc) {
  auto run = test::run_platform(fdp_sets({"ftl.fdp.isolation=persistent"}), kHalves, false);
  test::expect_clean(run.results);
  EXPECT_GT(run.results["ftl"]["gc_runs"].get<uint64_t>(), 100u) << "the run must collect";
  const MapLook m = look_at_map(run.platform->firmware_map());
  EXPECT_GT(m.superblocks, 100u);
  EXPECT_EQ(m.mixed, 0u) << "superblocks holding both handles' data";
}

// The same run with initially isolated handles: GC copies both handles' data into one
// superblock, so the map check above is one that can fail.
TEST(Fdp, InitiallyIsolatedHandlesMeetInGcSuperblocks) {
  auto run = test::run_platform(fdp_sets({"ftl.fdp.isolation=initial"}), kHalves, false);
  test::expect_clean(run.results);
  const MapLook m = look_at_map(run.platform->firmware_map());
  EXPECT_GT(m.mixed, 0u) << "GC's superblocks hold both handles' data";
}

// A preconditioned drive (every LBA written, then overwritten at random: GC and erases) written
// with placement identifiers: the host's logs against the NAND's counts at the same moment.
TEST(Fdp, LogsEqualTheNandsOwnCounts) {
  auto run = test::run_platform(
      fdp_sets({"precondition.fill=1", "precondition.overwrite=0.5"}),
      "fio:rw=randwrite,bs=4k,iodepth=16,io=20000,random_distribution=hotcold:20/80,fdp=1,fdp_pli=1:2,"
      "fdp_pli_select=hotcold",
      true);
  test::expect_clean(run.results);
  const auto& f = run.results["fdp"];
  ASSERT_TRUE(f["logs_read"].get<bool>()) << f.dump();
  EXPECT_EQ(f["log_status"].get<int>(), 0);
  const auto& st = f["statistics"];
  const auto& nand = f["nand_at_log_read"];
  EXPECT_TRUE(nand["drive_at_rest"].get<bool>());
  EXPECT_EQ(st["media_bytes_written"].get<uint64_t>(), nand["programmed_bytes"].get<uint64_t>());
  EXPECT_EQ(st["media_bytes_erased"].get<uint64_t>(), nand["erased_bytes"].get<uint64_t>());
  EXPECT_GT(st["media_bytes_erased"].get<uint64_t>(), 0u);
  // Host bytes: the fill and the overwrites (the preconditioning's writes stand for the host's)
  // and the workload's.
  const uint64_t logical = run.results["ftl"]["logical_sectors"].get<uint64_t>();
  const uint64_t pre = logical * 1000 / 1000 + logical * 500 / 1000;
  EXPECT_EQ(st["host_bytes_written"].get<uint64_t>(), (pre + 20000) * 4096);
  // The configuration, and which handles were used by whom.
  const auto& c = f["configuration"];
  EXPECT_TRUE(c["valid"].get<bool>());
  EXPECT_EQ(c["handles"].get<int>(), 3);
  EXPECT_EQ(c["reclaim_groups"].get<int>(), 1);
  EXPECT_EQ(c["ru_nominal_bytes"].get<uint64_t>(), uint64_t(kSbSectors) * 4 * 4096);   // one superblock a die
  const auto& u = f["handle_usage"];
  EXPECT_TRUE(u[0]["controller_specified"].get<bool>()) << "preconditioning writes without a directive";
  EXPECT_TRUE(u[1]["host_specified"].get<bool>());
  EXPECT_TRUE(u[2]["host_specified"].get<bool>());
  EXPECT_EQ(f["events"]["count"].get<int>(), 0);
}

// ---- the FDP commands, the test as the host

// Builds the drive, runs `body` as a host thread on its command port, stops when it returns.
void run_host(const std::vector<std::string>& sets, const std::function<void(HostCommandPort&)>& body) {
  RunOptions opt;
  opt.external_host = true;
  opt.test_aids = true;   // test aids allowed (small_platform() checks the firmware's internals)
  SsdPlatform platform(Config::load("", sets), opt);
  HostCommandPort port(platform.host_interface());
  bool finished = false;
  sc_core::sc_spawn([&] {
    body(port);
    finished = true;
    sc_core::sc_stop();
  });
  sc_core::sc_start();
  for (const auto& e : fatal_errors()) ADD_FAILURE() << "fatal: " << e;
  EXPECT_TRUE(finished) << "the host stopped before its last command";
}

uint16_t command(HostCommandPort& port, uint8_t opcode, uint32_t cdw0, uint32_t cdw1, uint32_t nsect,
                 std::vector<uint8_t>* bytes = nullptr, uint32_t cdw2 = 0) {
  HostCommand c;
  c.opcode = opcode;
  c.nsect = nsect;
  c.cdw[0] = cdw0;
  c.cdw[1] = cdw1;
  c.cdw[2] = cdw2;
  if (bytes) {
    bytes->assign(size_t(nsect) * 4096, 0);
    c.payload = bytes->data();
  }
  port.send(c);
  return c.status;
}

uint16_t write(HostCommandPort& port, uint64_t lba, uint32_t n, uint32_t cdw1) {
  std::vector<ssd_sector_tag> tags;
  for (uint32_t i = 0; i < n; i++) tags.push_back({uint32_t(lba + i), 1});
  HostCommand c;
  c.opcode = SSD_HOP_WRITE;
  c.lba = lba;
  c.nsect = n;
  c.cdw[1] = cdw1;
  c.data = tags.data();
  port.send(c);
  return c.status;
}

uint32_t placement(uint16_t pid) { return SSD_FDP_DTYPE_PLACEMENT << SSD_WRITE_DTYPE_SHIFT | pid; }

std::vector<ssd_fdp_ruh_status_desc> ruh_status(HostCommandPort& port) {
  std::vector<uint8_t> b;
  EXPECT_EQ(command(port, SSD_HOP_IO_MGMT_RECV, SSD_IOMR_MO_RUH_STATUS, 0, 1, &b), SSD_ST_OK);
  ssd_fdp_ruh_status h;
  std::memcpy(&h, b.data(), sizeof h);
  std::vector<ssd_fdp_ruh_status_desc> d(h.nruhsd);
  std::memcpy(d.data(), b.data() + sizeof h, d.size() * sizeof(ssd_fdp_ruh_status_desc));
  return d;
}

std::vector<ssd_fdp_event> events(HostCommandPort& port) {
  std::vector<uint8_t> b;
  EXPECT_EQ(command(port, SSD_HOP_FDP_LOG, SSD_LID_FDP_EVENTS, 0, 1, &b), SSD_ST_OK);
  ssd_fdp_events_log h;
  std::memcpy(&h, b.data(), sizeof h);
  std::vector<ssd_fdp_event> e(h.n);
  std::memcpy(e.data(), b.data() + sizeof h, e.size() * sizeof(ssd_fdp_event));
  return e;
}

TEST(Fdp, HandleStatusUpdateEventsAndStatuses) {
  // Two reclaim groups of two dies: PIDs are the group in the top bit, the handle below.
  run_host(fdp_sets({"ftl.fdp.reclaim_groups=2"}), [](HostCommandPort& port) {
    const uint64_t ru = 2 * kSbSectors;   // a handle's superblock on each die of its group
    auto s = ruh_status(port);
    ASSERT_EQ(s.size(), 6u);
    EXPECT_EQ(s[4].pid, 0x8001);   // group 1, handle 1
    EXPECT_EQ(s[4].ruhid, 1);
    for (const auto& d : s) EXPECT_EQ(d.ruamw, ru) << "pid " << d.pid;
    // 40 sectors to group 1's handle 1, on flash after a flush: two superpages of each die taken
    // (20 sectors a die rounded up to whole superpages of 2 sectors).
    ASSERT_EQ(write(port, 100, 40, placement(0x8001)), SSD_ST_OK);
    ASSERT_EQ(command(port, SSD_HOP_FLUSH, 0, 0, 0), SSD_ST_OK);
    s = ruh_status(port);
    EXPECT_EQ(s[4].ruamw, ru - 40);
    EXPECT_EQ(s[1].ruamw, ru) << "group 0's handle 1 is untouched";
    // A placement identifier the configuration lacks: written to the default, logged.
    ASSERT_EQ(write(port, 300, 4, placement(0x0005)), SSD_ST_OK);
    // Reclaim Unit Handle Update: the handle leaves its partly written RU.
    ASSERT_EQ(command(port, SSD_HOP_IO_MGMT_SEND, SSD_IOMS_MO_RUH_UPDATE, 0x8001, 0, nullptr, 1), SSD_ST_OK);
    s = ruh_status(port);
    EXPECT_EQ(s[4].ruamw, ru) << "a new RU after the update";
    const auto e = events(port);
    ASSERT_EQ(e.size(), 2u);
    EXPECT_EQ(e[0].type, SSD_FDP_EVT_INVALID_PID);
    EXPECT_EQ(e[0].pid, 0x0005);
    EXPECT_EQ(e[1].type, SSD_FDP_EVT_RU_NOT_FULLY_WRITTEN);
    EXPECT_EQ(e[1].pid, 0x8001);
    EXPECT_EQ(e[1].rgid, 1);
    EXPECT_EQ(e[1].ruhid, 1);
    uint64_t left = 0;
    std::memcpy(&left, e[1].type_specific, sizeof left);
    EXPECT_EQ(left, (ru - 40) * 4096);
    // The data of all of it reads back.
    std::vector<ssd_sector_tag> got(40);
    HostCommand rd;
    rd.opcode = SSD_HOP_READ;
    rd.lba = 100;
    rd.nsect = 40;
    rd.data = got.data();
    port.send(rd);
    ASSERT_EQ(rd.status, SSD_ST_OK);
    for (uint32_t i = 0; i < 40; i++) EXPECT_EQ(got[i].lba, 100 + i);
    // Malformed commands: refused, nothing changed.
    std::vector<uint8_t> b;
    EXPECT_EQ(command(port, SSD_HOP_FDP_LOG, 0x24, 0, 1, &b), SSD_ST_INVALID_FIELD) << "no such log";
    EXPECT_EQ(command(port, SSD_HOP_FDP_LOG, SSD_LID_FDP_STATS, 4096, 1, &b), SSD_ST_INVALID_FIELD) << "past the log";
    EXPECT_EQ(command(port, SSD_HOP_FDP_LOG, SSD_LID_FDP_STATS, 0, 2, &b), SSD_ST_INVALID_FIELD) << "two sectors";
    EXPECT_EQ(command(port, SSD_HOP_IO_MGMT_RECV, 0x02, 0, 1, &b), SSD_ST_INVALID_FIELD) << "no such operation";
    EXPECT_EQ(command(port, SSD_HOP_IO_MGMT_SEND, SSD_IOMS_MO_RUH_UPDATE, 0x0007, 0, nullptr, 1), SSD_ST_INVALID_FIELD)
        << "an update of a PID the configuration lacks";
    EXPECT_EQ(command(port, SSD_HOP_IO_MGMT_SEND, SSD_IOMS_MO_RUH_UPDATE, 1, 0, nullptr, 3), SSD_ST_INVALID_FIELD)
        << "three PIDs";
    EXPECT_EQ(events(port).size(), 2u);
  });
}

TEST(Fdp, CommandsOfADriveWithoutFdpAreInvalidOpcodes) {
  run_host(fdp_sets({"ftl.fdp.handles=0"}), [](HostCommandPort& port) {
    std::vector<uint8_t> b;
    EXPECT_EQ(command(port, SSD_HOP_FDP_LOG, SSD_LID_FDP_STATS, 0, 1, &b), SSD_ST_INVALID_OPCODE);
    EXPECT_EQ(command(port, SSD_HOP_IO_MGMT_RECV, SSD_IOMR_MO_RUH_STATUS, 0, 1, &b), SSD_ST_INVALID_OPCODE);
    // A placement directive on a drive without FDP is ignored (the write goes where any does).
    EXPECT_EQ(write(port, 0, 8, placement(1)), SSD_ST_OK);
  });
}

// The configurations FDP is not built for, refused by name before anything runs.
TEST(Fdp, ConfigurationsItCannotRunAreRefusedByName) {
  auto refused = [](std::vector<std::string> extra, const std::string& key) {
    try {
      auto sets = fdp_sets(std::move(extra));
      Config cfg = Config::load("", sets);
      RunOptions opt;
      opt.test_aids = true;   // test aids allowed (small_platform() checks the firmware's internals)
      SsdPlatform p(cfg, opt);
      ADD_FAILURE() << "accepted; expected a refusal naming " << key;
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
    }
  };
  refused({"ftl.fdp.reclaim_groups=3"}, "ftl.fdp.reclaim_groups");
  refused({"ftl.fdp.handles=16", "ftl.fdp.reclaim_groups=4"}, "ftl.fdp.reclaim_groups");
  refused({"device.volatile_write_cache=false"}, "device.volatile_write_cache");
  refused({"device.interface=zns"}, "device.interface");
  try {   // which handle a superblock holds is not on flash: no power cuts yet
    Config cfg = Config::load("", fdp_sets());
    RunOptions opt;
    opt.power_cut_ns = 1000000;
    opt.test_aids = true;   // test aids allowed (small_platform() checks the firmware's internals)
    SsdPlatform p(cfg, opt);
    ADD_FAILURE() << "a power cut with FDP was accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("ftl.fdp.handles"), std::string::npos) << e.what();
  }
}

}  // namespace
