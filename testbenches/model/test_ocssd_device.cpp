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
  ASSERT_EQ(r.status, SSD_ST_OK);
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
