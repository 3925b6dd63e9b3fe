// The Open-Channel SSD 2.0 device (device.interface = ocssd; docs/ocssd.md) driven by the tests
// as its host (RunOptions::external_host, models/host/oc_host.h): the geometry, the chunk log,
// each vector command, each status the spec gives a command at fault, the write pointers and
// chunk states after a power cut, faults injected in the NAND reaching the host, natively and
// with the firmware on the ISS.  A small MLC device: 2 groups x 2 units x 16 chunks of 32
// pages of 4 planes x 4 sectors (ws_min 16 sectors, a chunk 512).
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/common/config.h"
#include "models/common/fatal.h"
#include "models/host/oc_host.h"
#include "platforms/ssd_platform.h"
#include "test_temp_dir.h"

using namespace ssdvp;

namespace {

std::vector<std::string> oc_sets(std::vector<std::string> extra = {}) {
  std::vector<std::string> s = {"device.interface=ocssd", "nand.channels=2", "nand.ways=2", "nand.planes=4",
                                "nand.blocks_per_plane=16", "nand.page_bytes=16384", "nand.cell=mlc",
                                "nand.mlc.pages_per_block=32", "dram.size_mib=256", "sim.progress=false"};
  s.insert(s.end(), extra.begin(), extra.end());
  return s;
}

// Builds the device, runs `body` as a host thread, stops the simulation when it returns.
void run_host(const std::vector<std::string>& sets, const std::function<void(OcHost&, SsdPlatform&)>& body,
              RunOptions opt = {}) {
  opt.external_host = true;
  opt.test_aids = true;   // test aids allowed (small_platform() checks the firmware's internals)
  SsdPlatform platform(Config::load("", sets), opt);
  OcHost host(platform.host_interface());
  bool finished = false;
  sc_core::sc_spawn([&] {
    body(host, platform);
    finished = true;
    sc_core::sc_stop();
  });
  sc_core::sc_start();
  for (const auto& e : fatal_errors()) ADD_FAILURE() << "fatal: " << e;
  EXPECT_TRUE(finished || opt.power_cut_dir.size()) << "the host stopped before its last command";
  EXPECT_GT(host.commands(), 0u);
}

// A tag per LBA: its low 32 bits and a write number.
std::vector<ssd_sector_tag> tags_for(const std::vector<uint64_t>& lbas, uint32_t seq) {
  std::vector<ssd_sector_tag> t;
  for (uint64_t l : lbas) t.push_back({uint32_t(l), seq});
  return t;
}

// `n` consecutive sectors of one chunk from sector `sec`.
std::vector<uint64_t> run_of(const ssd_oc_geometry& g, uint32_t grp, uint32_t pu, uint32_t chk, uint32_t sec, uint32_t n) {
  std::vector<uint64_t> l;
  for (uint32_t i = 0; i < n; i++) l.push_back(OcHost::lba(g, grp, pu, chk, sec + i));
  return l;
}

uint32_t chunk_index(const ssd_oc_geometry& g, uint32_t grp, uint32_t pu, uint32_t chk) {
  return (grp * g.num_pu + pu) * g.num_chk + chk;
}

// Writes `units` write units to a chunk from its start, one command each; expects success.
void fill(OcHost& h, const ssd_oc_geometry& g, uint32_t grp, uint32_t pu, uint32_t chk, uint32_t units, uint32_t seq) {
  for (uint32_t u = 0; u < units; u++) {
    const auto lbas = run_of(g, grp, pu, chk, u * g.ws_min, g.ws_min);
    const auto r = h.write(lbas, tags_for(lbas, seq));
    ASSERT_EQ(r.status, SSD_ST_OK) << "unit " << u << " of chunk " << grp << "/" << pu << "/" << chk;
  }
}

// Reads `lbas` back and checks every tag against (LBA, seq).
void expect_reads(OcHost& h, const std::vector<uint64_t>& lbas, uint32_t seq) {
  std::vector<ssd_sector_tag> got;
  const auto r = h.read(lbas, got);
  ASSERT_EQ(r.status, SSD_ST_OK) << "reading " << lbas.size() << " LBAs from " << lbas[0] << ": failed 0x" << std::hex
                                 << r.failed;
  for (size_t i = 0; i < lbas.size(); i++) {
    EXPECT_EQ(got[i].lba, uint32_t(lbas[i])) << "LBA " << lbas[i];
    EXPECT_EQ(got[i].seq, seq) << "LBA " << lbas[i];
  }
}

// The geometry, the chunk log and every command with what a host may send: the suite the
// native and the ISS firmware both pass.
void command_set(OcHost& h, SsdPlatform& p) {
  const ssd_oc_geometry g = h.geometry();
  EXPECT_EQ(g.mjr, 2);
  EXPECT_EQ(g.num_grp, 2);
  EXPECT_EQ(g.num_pu, 2);
  EXPECT_EQ(g.num_chk, 16u);
  EXPECT_EQ(g.clba, 32u * 16u);
  EXPECT_EQ(g.ws_min, 16u);
  EXPECT_EQ(g.ws_opt, 16u);
  EXPECT_EQ(g.mw_cunits, 16u);          // MLC: the other page of a word line
  EXPECT_EQ(g.maxocpu, 4u);
  EXPECT_EQ(g.maxoc, 16u);
  EXPECT_EQ(g.tcrst, uint32_t(p.params().nand.mlc.t_erase.to_seconds() * 1e9 + 0.5));
  EXPECT_GE(g.trdm, g.trdt);
  EXPECT_GT(g.trdt, 0u);
  const uint32_t chunks = 2u * 2u * 16u;

  auto log = h.chunk_log(0, chunks);
  for (uint32_t c = 0; c < chunks; c++) {
    EXPECT_EQ(log[c].cs, SSD_OC_CHUNK_FREE) << c;
    EXPECT_EQ(log[c].cnlb, g.clba);
    EXPECT_EQ(log[c].wp, log[c].slba);
  }
  EXPECT_EQ(log[chunk_index(g, 1, 0, 3)].slba, OcHost::lba(g, 1, 0, 3, 0));

  // A vector write over two units of parallel units of both groups at once, read back.
  std::vector<uint64_t> lbas = run_of(g, 0, 1, 2, 0, 16);
  const auto other = run_of(g, 1, 0, 5, 0, 32);
  lbas.insert(lbas.end(), other.begin(), other.end());
  ASSERT_EQ(h.write(lbas, tags_for(lbas, 7)).status, SSD_ST_OK);
  log = h.chunk_log(0, chunks);
  EXPECT_EQ(log[chunk_index(g, 0, 1, 2)].cs, SSD_OC_CHUNK_OPEN);
  EXPECT_EQ(log[chunk_index(g, 0, 1, 2)].wp, OcHost::lba(g, 0, 1, 2, 16));
  EXPECT_EQ(log[chunk_index(g, 1, 0, 5)].wp, OcHost::lba(g, 1, 0, 5, 32));
  // Below the last mw_cunits of an open chunk: readable; those: the host's cache's.
  expect_reads(h, run_of(g, 1, 0, 5, 0, 16), 7);
  {
    std::vector<ssd_sector_tag> got;
    const auto r = h.read(run_of(g, 1, 0, 5, 12, 8), got);
    EXPECT_EQ(r.status, SSD_OC_ST_UNWRITTEN);
    EXPECT_TRUE(r.failed_listed);
    EXPECT_EQ(r.failed, 0xF0u);   // sectors 16..19 of the chunk: LBAs 4..7 of the list
  }
  // A single-LBA read (the LBA inline in the command).
  expect_reads(h, {OcHost::lba(g, 1, 0, 5, 3)}, 7);
  // Each LBA's metadata: the host's, or the LBA's low 32 bits when it gave none.
  {
    const auto with = run_of(g, 1, 1, 6, 0, 32);
    std::vector<ssd_oob> meta;
    for (uint32_t i = 0; i < 32; i++) meta.push_back({1000 + i, 77 + i});
    ASSERT_EQ(h.write(with, tags_for(with, 8), 0, &meta).status, SSD_ST_OK);
    std::vector<ssd_sector_tag> got;
    std::vector<ssd_oob> back;
    ASSERT_EQ(h.read(run_of(g, 1, 1, 6, 2, 4), got, 0, &back).status, SSD_ST_OK);
    for (uint32_t i = 0; i < 4; i++) {
      EXPECT_EQ(back[i].lpa, 1002 + i);
      EXPECT_EQ(back[i].seq, 79 + i);
    }
    ASSERT_EQ(h.read(run_of(g, 1, 0, 5, 0, 2), got, 0, &back).status, SSD_ST_OK);
    EXPECT_EQ(back[1].lpa, uint32_t(OcHost::lba(g, 1, 0, 5, 1)));
    EXPECT_EQ(back[1].seq, 0u);
  }

  // Filled, the chunk closes and all of it reads.
  fill(h, g, 0, 0, 0, g.clba / g.ws_min, 9);
  log = h.chunk_log(chunk_index(g, 0, 0, 0), 1);
  EXPECT_EQ(log[0].cs, SSD_OC_CHUNK_CLOSED);
  expect_reads(h, run_of(g, 0, 0, 0, g.clba - 64, 64), 9);

  // Reset: free again, a wear counted, written anew from its start.
  ASSERT_EQ(h.reset({OcHost::lba(g, 0, 0, 0, 0)}).status, SSD_ST_OK);
  log = h.chunk_log(chunk_index(g, 0, 0, 0), 1);
  EXPECT_EQ(log[0].cs, SSD_OC_CHUNK_FREE);
  EXPECT_EQ(log[0].wli, 1);
  EXPECT_EQ(log[0].wp, log[0].slba);
  fill(h, g, 0, 0, 0, 2, 10);
  expect_reads(h, run_of(g, 0, 0, 0, 0, 16), 10);
  // A free chunk may be reset again (mccap: multiple resets).
  EXPECT_NE(g.mccap & SSD_OC_MCCAP_MULTIPLE_RESETS, 0u);
  EXPECT_EQ(h.reset({OcHost::lba(g, 1, 1, 15, 0)}).status, SSD_ST_OK);
}

// Every status the spec gives a command at fault, and nothing changed by one.
void command_faults(OcHost& h, SsdPlatform&) {
  const ssd_oc_geometry g = h.geometry();
  fill(h, g, 0, 0, 1, 2, 3);   // open, write pointer at sector 32
  auto w = [&](const std::vector<uint64_t>& lbas) { return h.write(lbas, tags_for(lbas, 4)); };
  // Off the write pointer: out of order, the offending LBAs named.
  auto r = w(run_of(g, 0, 0, 1, 48, 16));
  EXPECT_EQ(r.status, SSD_OC_ST_OUT_OF_ORDER);
  EXPECT_EQ(r.failed, 0xFFFFu);
  // Not a whole write unit.
  EXPECT_EQ(w(run_of(g, 0, 0, 1, 32, 8)).status, SSD_OC_ST_INVALID_FIELD);
  // A good stretch beside a bad one: refused whole, only the bad one named, nothing written.
  {
    std::vector<uint64_t> lbas = run_of(g, 0, 1, 0, 0, 16);
    const auto bad = run_of(g, 0, 0, 1, 64, 16);
    lbas.insert(lbas.end(), bad.begin(), bad.end());
    r = w(lbas);
    EXPECT_EQ(r.status, SSD_OC_ST_OUT_OF_ORDER);
    EXPECT_EQ(r.failed, 0xFFFFull << 16);
    EXPECT_EQ(h.chunk_log(chunk_index(g, 0, 1, 0), 1)[0].cs, SSD_OC_CHUNK_FREE);
  }
  // Past the end of a chunk, into a closed one.
  fill(h, g, 1, 1, 7, g.clba / g.ws_min, 5);
  EXPECT_EQ(w(run_of(g, 1, 1, 7, 0, 16)).status, SSD_OC_ST_WRITE_FAULT);
  // Reads: at or beyond the write pointer; an LBA the geometry does not have.
  std::vector<ssd_sector_tag> got;
  EXPECT_EQ(h.read(run_of(g, 0, 0, 1, 40, 4), got).status, SSD_OC_ST_UNWRITTEN);
  EXPECT_EQ(h.read(run_of(g, 0, 1, 9, 0, 1), got).status, SSD_OC_ST_UNWRITTEN);   // a free chunk
  // Every count here is a power of two: an LBA the device lacks has bits above the format's.
  const uint64_t beyond = 1ull << (g.lbaf.grp_len + g.lbaf.pu_len + g.lbaf.chk_len + g.lbaf.lba_len);
  EXPECT_EQ(h.read({beyond}, got).status, SSD_ST_LBA_RANGE);
  EXPECT_EQ(w({beyond}).status, SSD_ST_LBA_RANGE);
  // Reset of an open chunk.
  r = h.reset({OcHost::lba(g, 0, 0, 1, 0)});
  EXPECT_EQ(r.status, SSD_OC_ST_INVALID_RESET);
  EXPECT_EQ(r.failed, 1u);
  EXPECT_EQ(h.chunk_log(chunk_index(g, 0, 0, 1), 1)[0].cs, SSD_OC_CHUNK_OPEN);
  // LBA lists of no entry or more than 64; an opcode the device does not have.
  EXPECT_EQ(h.raw(SSD_HOP_OC_READ, 0, 0).status, SSD_OC_ST_LBAL_INVALID);
  EXPECT_EQ(h.raw(SSD_HOP_OC_RESET, 0, 65).status, SSD_OC_ST_LBAL_INVALID);
  EXPECT_EQ(h.raw(SSD_HOP_WRITE, 0, 1).status, SSD_ST_INVALID_OPCODE);
  EXPECT_EQ(h.raw(SSD_HOP_PRECONDITION, 0, 0).status, SSD_ST_INVALID_OPCODE);
  EXPECT_EQ(h.raw(SSD_HOP_OC_CHUNK_LOG, 100, 1).status, SSD_ST_INVALID_FIELD);   // not at a 4 KiB boundary
  // The open chunk still takes its next unit.
  expect_reads(h, run_of(g, 0, 0, 1, 0, 16), 3);
  ASSERT_EQ(w(run_of(g, 0, 0, 1, 32, 16)).status, SSD_ST_OK);
}

}  // namespace

TEST(OcssdDevice, GeometryChunkLogAndVectorCommands) { run_host(oc_sets(), command_set); }

TEST(OcssdDevice, EachFaultOfACommandGetsTheSpecsStatus) { run_host(oc_sets(), command_faults); }

TEST(OcssdDevice, OnTheIss) {
  run_host(oc_sets({"firmware.mode=iss"}), [](OcHost& h, SsdPlatform& p) {
    command_set(h, p);
    command_faults(h, p);
  });
}

namespace {

// Runs `fn` in a child process (a platform each: SystemC elaborates once per process); returns
// whether it passed (its gtest failures are printed by the child).
bool in_child(const std::function<void()>& fn) {
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    fn();
    std::fflush(nullptr);
    _exit(::testing::Test::HasFailure() ? 1 : 0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace

// Faults the NAND injects reach the host as the spec says: a failed program closes its chunk
// early (the unit's LBAs named) and its reset takes it offline; a failed erase takes the chunk
// offline; a factory bad block is an offline chunk from the format on; an offline chunk
// answers every command with its status.  Die d = way x channels + channel: (grp 0, pu 0) is
// die 0, (grp 1, pu 0) die 1.
TEST(OcssdDevice, NandFaultsReachTheHostAsTheSpecSays) {
  run_host(oc_sets({"nand.fail_at=program:0:3,erase:1:4", "nand.factory_bad_permille=60", "nand.fault_seed=5"}),
           [](OcHost& h, SsdPlatform&) {
             const ssd_oc_geometry g = h.geometry();
             const uint32_t chunks = 2u * 2u * 16u;
             auto log = h.chunk_log(0, chunks);
             uint32_t offline = 0, usable = 0xFFFFFFFFu;
             for (uint32_t c = 0; c < chunks; c++) {
               if (log[c].cs == SSD_OC_CHUNK_OFFLINE) offline++;
               else if (usable == 0xFFFFFFFFu && c != chunk_index(g, 0, 0, 3) && c != chunk_index(g, 1, 0, 4)) usable = c;
             }
             EXPECT_GT(offline, 0u) << "6% of 4 planes' blocks bad from the factory: some chunk is offline";
             for (uint32_t c = 0; c < chunks; c++) {
               if (log[c].cs != SSD_OC_CHUNK_OFFLINE) continue;
               const uint64_t lba = log[c].slba;
               std::vector<ssd_sector_tag> got;
               EXPECT_EQ(h.read({lba}, got).status, SSD_OC_ST_OFFLINE_CHUNK);
               EXPECT_EQ(h.reset({lba}).status, SSD_OC_ST_OFFLINE_CHUNK);
               std::vector<uint64_t> unit;
               for (uint32_t i = 0; i < g.ws_min; i++) unit.push_back(lba + i);
               EXPECT_EQ(h.write(unit, tags_for(unit, 1)).status, SSD_OC_ST_OFFLINE_CHUNK);
               break;
             }
             // The program failure, if its chunk is not bad from the factory already.
             if (log[chunk_index(g, 0, 0, 3)].cs == SSD_OC_CHUNK_FREE) {
               const auto unit = run_of(g, 0, 0, 3, 0, g.ws_min);
               const auto r = h.write(unit, tags_for(unit, 2));
               EXPECT_EQ(r.status, SSD_OC_ST_EARLY_CLOSE);
               EXPECT_TRUE(r.failed_listed);
               EXPECT_EQ(r.failed, 0xFFFFu);
               EXPECT_EQ(h.chunk_log(chunk_index(g, 0, 0, 3), 1)[0].cs, SSD_OC_CHUNK_CLOSED);
               // Its reset retires it: the erase of the bad block fails too (the die's), or the
               // device retires it after a good one.
               const uint16_t st = h.reset({unit[0]}).status;
               EXPECT_TRUE(st == SSD_ST_OK || st == SSD_OC_ST_OFFLINE_CHUNK) << st;
               EXPECT_EQ(h.chunk_log(chunk_index(g, 0, 0, 3), 1)[0].cs, SSD_OC_CHUNK_OFFLINE);
             } else {
               ADD_FAILURE() << "chunk 0/0/3 is bad from the factory with this seed: pick another block";
             }
             if (log[chunk_index(g, 1, 0, 4)].cs == SSD_OC_CHUNK_FREE) {
               fill(h, g, 1, 0, 4, g.clba / g.ws_min, 3);   // closed: a chunk that may be reset
               const auto r = h.reset({OcHost::lba(g, 1, 0, 4, 0)});
               EXPECT_EQ(r.status, SSD_OC_ST_OFFLINE_CHUNK);
               EXPECT_EQ(h.chunk_log(chunk_index(g, 1, 0, 4), 1)[0].cs, SSD_OC_CHUNK_OFFLINE);
             } else {
               ADD_FAILURE() << "chunk 1/0/4 is bad from the factory with this seed: pick another block";
             }
             ASSERT_NE(usable, 0xFFFFFFFFu);
           });
}

// Chunk state after a power cut: closed, open (at its write pointer), reset (free, its wear),
// closed early after a failed program, offline after a failed erase; written data reads back
// and an open chunk goes on at its write pointer.  The cut comes while a write is in flight:
// its unit may be on the NAND or not (its chunk's write pointer says which), never half.
static void power_cut_case(const std::string& mode) {
  const std::string dir = ::testing::TempDir() + "ocssd-power-cut-" + mode;
  const auto sets = oc_sets({"ftl.wear_record_step=1", "nand.fail_at=program:0:3,erase:1:4", "firmware.mode=" + mode});
  struct Chunk { uint32_t grp, pu, chk; };
  const Chunk closed{0, 0, 0}, open{0, 1, 0}, reset{1, 0, 0}, early{0, 0, 3}, gone{1, 0, 4}, cut{1, 1, 1};
  ASSERT_TRUE(in_child([&] {
    RunOptions opt;
    opt.power_cut_dir = dir;
    run_host(sets, [&](OcHost& h, SsdPlatform& p) {
      const ssd_oc_geometry g = h.geometry();
      fill(h, g, closed.grp, closed.pu, closed.chk, g.clba / g.ws_min, 1);
      fill(h, g, open.grp, open.pu, open.chk, 3, 2);
      fill(h, g, reset.grp, reset.pu, reset.chk, g.clba / g.ws_min, 3);
      ASSERT_EQ(h.reset({OcHost::lba(g, reset.grp, reset.pu, reset.chk, 0)}).status, SSD_ST_OK);
      ASSERT_EQ(h.reset({OcHost::lba(g, reset.grp, reset.pu, reset.chk, 0)}).status, SSD_ST_OK);   // twice: wear 2
      const auto u = run_of(g, early.grp, early.pu, early.chk, 0, g.ws_min);
      ASSERT_EQ(h.write(u, tags_for(u, 4)).status, SSD_OC_ST_EARLY_CLOSE);
      fill(h, g, gone.grp, gone.pu, gone.chk, g.clba / g.ws_min, 5);
      ASSERT_EQ(h.reset({OcHost::lba(g, gone.grp, gone.pu, gone.chk, 0)}).status, SSD_OC_ST_OFFLINE_CHUNK);
      fill(h, g, cut.grp, cut.pu, cut.chk, 2, 6);
      // A third unit in flight when the power goes.
      sc_core::sc_spawn([&h, g] {
        const auto lbas = run_of(g, 1, 1, 1, 32, g.ws_min);
        h.write(lbas, tags_for(lbas, 6));
      });
      sc_core::wait(sc_core::sc_time(200, sc_core::SC_US));
      p.cut_power_now("the test cuts the power");
      sc_core::wait();   // the simulation stops
    }, opt);
  })) << "the run before the cut";
  ASSERT_TRUE(in_child([&] {
    RunOptions opt;
    opt.power_on_dir = dir;
    run_host(sets, [&](OcHost& h, SsdPlatform&) {
      const ssd_oc_geometry g = h.geometry();
      auto at = [&](const Chunk& c) { return h.chunk_log(chunk_index(g, c.grp, c.pu, c.chk), 1)[0]; };
      EXPECT_EQ(at(closed).cs, SSD_OC_CHUNK_CLOSED);
      EXPECT_EQ(at(closed).wp, at(closed).slba + g.clba);
      EXPECT_EQ(at(open).cs, SSD_OC_CHUNK_OPEN);
      EXPECT_EQ(at(open).wp, at(open).slba + 3 * g.ws_min);
      EXPECT_EQ(at(reset).cs, SSD_OC_CHUNK_FREE);
      EXPECT_EQ(at(reset).wli, 2);
      EXPECT_EQ(at(early).cs, SSD_OC_CHUNK_CLOSED);
      EXPECT_EQ(at(gone).cs, SSD_OC_CHUNK_OFFLINE);
      const ssd_oc_chunk c = at(cut);
      EXPECT_EQ(c.cs, SSD_OC_CHUNK_OPEN);
      EXPECT_TRUE(c.wp == c.slba + 2 * g.ws_min || c.wp == c.slba + 3 * g.ws_min) << "write pointer " << c.wp - c.slba;
      expect_reads(h, run_of(g, closed.grp, closed.pu, closed.chk, 0, 64), 1);
      expect_reads(h, run_of(g, closed.grp, closed.pu, closed.chk, g.clba - 64, 64), 1);
      expect_reads(h, run_of(g, open.grp, open.pu, open.chk, 0, 2 * g.ws_min), 2);
      expect_reads(h, run_of(g, cut.grp, cut.pu, cut.chk, 0, g.ws_min), 6);
      // The open chunk goes on at its write pointer; the free one is written anew.
      const auto next = run_of(g, open.grp, open.pu, open.chk, 3 * g.ws_min, g.ws_min);
      EXPECT_EQ(h.write(next, tags_for(next, 7)).status, SSD_ST_OK);
      fill(h, g, reset.grp, reset.pu, reset.chk, 2, 8);   // the first unit readable once the second is in
      expect_reads(h, run_of(g, reset.grp, reset.pu, reset.chk, 0, g.ws_min), 8);
    }, opt);
  })) << "the run after the cut";
}

TEST(OcssdDevice, ChunkStateSurvivesAPowerCut) { power_cut_case("native"); }
TEST(OcssdDevice, ChunkStateSurvivesAPowerCutOnTheIss) { power_cut_case("iss"); }
