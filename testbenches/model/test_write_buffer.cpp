// The write buffer kinds (ftl.write_buffer = slots | ring, issue 13): reads of data still in
// the ring come from DRAM with the newest data and are counted; a flush completes only after
// every write acknowledged before it is on flash (the host reads the NAND array when each
// flush completes: sim.check_flush_durability); a full ring holds writes back without losing
// any; the ring on the ISS.  The firmware unit tests check that the ring never hands out an
// entry not yet programmed (testbenches/firmware/test_ftl_structures.cpp).  Each TEST builds
// a platform and runs in its own process.
#include <gtest/gtest.h>

#include <fstream>

#include "model/platform_test_support.h"

using namespace ssdvp;

namespace {

// 4 KiB writes over 5,000 sectors every 200 us (within what the small drive programs); every
// 4th step reads back a sector written one to three steps before (still buffered), every 7th
// rewrites the previous step's sector and reads it 50 us later (the newest copy must win); a
// flush every 25 steps.
std::string write_read_flush_trace(const std::string& name, unsigned steps) {
  const std::string path = std::string(::testing::TempDir()) + name;
  std::ofstream out(path);
  auto line = [&](const char* op, uint64_t sector, uint32_t bytes, uint64_t t_ns) {
    out << "1 D " << op << ' ' << sector * 4096 << ' ' << bytes << ' ' << t_ns / 1000000000 << '.'
        << std::to_string(1000000000 + t_ns % 1000000000).substr(1) << " 0 False\n";
  };
  auto sector_of = [](unsigned k) { return uint64_t(k) * 7919u % 5000u; };
  for (unsigned k = 0; k < steps; k++) {
    const uint64_t t = uint64_t(k) * 200000;
    line("write", sector_of(k), 4096, t);
    if (k % 4 == 3) line("read", sector_of(k - 1 - k % 3), 4096, t + 100000);
    if (k % 7 == 6) {
      line("write", sector_of(k - 1), 4096, t + 20000);
      line("read", sector_of(k - 1), 4096, t + 70000);
    }
    if (k % 25 == 24) line("flush", 0, 0, t + 150000);
  }
  return path;
}

std::vector<std::string> sets_with(std::vector<std::string> more) {
  auto sets = test::small_platform();
  for (std::string s : {"precondition.overwrite=0", "sim.check_flush_durability=true"}) sets.push_back(s);
  sets.insert(sets.end(), more.begin(), more.end());
  return sets;
}

void check_reads_and_flushes(const std::string& kind, const std::string& mode) {
  const unsigned steps = mode == "iss" ? 1500 : 4000;
  const std::string trace = write_read_flush_trace("wb-" + kind + "-" + mode + ".trace", steps);
  auto run = test::run_platform(sets_with({"ftl.write_buffer=" + kind, "firmware.mode=" + mode}), "trace:" + trace);
  const auto& r = run.results;
  test::expect_clean(r);
  const auto& wb = r["write_buffer"];
  EXPECT_EQ(wb["kind"], kind);
  const uint64_t reads = r["integrity"]["reads_checked"].get<uint64_t>();
  EXPECT_GE(reads, steps / 4 + steps / 7 - 2);
  // Nearly every read is of a sector written microseconds before: still buffered.
  EXPECT_GT(wb["read_hit_sectors"].get<uint64_t>(), reads * 8 / 10);
  EXPECT_GT(wb["read_hit_ratio"].get<double>(), 0.8);
  // Every flush (and the end-of-run one) was checked against the NAND array.
  EXPECT_EQ(r["integrity"]["flushes_checked"].get<uint64_t>(), steps / 25 + 1);
  EXPECT_GT(r["ftl"]["flash_program_sectors"].get<uint64_t>(), steps / 2) << "the data reached flash";
  if (kind == "ring") {
    EXPECT_GT(wb["ring"]["superseded_written_sectors"].get<uint64_t>(), 0u) << "pblk writes overwritten entries";
    EXPECT_GT(r["ftl"]["padding_sectors"].get<uint64_t>(), 0u) << "flushes pad the partial superpage";
  }
}

}  // namespace

TEST(WriteBuffer, RingServesReadsNewestFirstAndFlushesAreDurable) { check_reads_and_flushes("ring", "native"); }
TEST(WriteBuffer, SlotsServeReadsNewestFirstAndFlushesAreDurable) { check_reads_and_flushes("slots", "native"); }
TEST(WriteBuffer, RingOnTheIssServesReadsAndFlushesAreDurable) { check_reads_and_flushes("ring", "iss"); }

// A ring of one stripe under 64 outstanding random writes (and reads): writes wait for space
// (back-pressure), the ring never holds more than its size, and nothing is lost.
TEST(WriteBuffer, FullRingHoldsWritesBackAndLosesNothing) {
  auto run = test::run_platform(sets_with({"ftl.write_buffer=ring", "ftl.ring.stripes=1"}),
                                "fio:rw=randrw,rwmixread=30,bs=4k,iodepth=64,io=20000");
  const auto& r = run.results;
  test::expect_clean(r);
  const auto& wb = r["write_buffer"];
  const uint64_t stripe = wb["ring"]["stripe_sectors"].get<uint64_t>();
  EXPECT_EQ(wb["sectors"].get<uint64_t>() % stripe, 0u) << "the default ring is whole stripes";
  EXPECT_GT(r["ftl"]["write_stalls"].get<uint64_t>(), 1000u) << "writes should have waited for ring space";
  EXPECT_GT(wb["fill_at_insert"].get<double>(), 0.5) << "the ring should have been kept full";
  // The ring filled, and never past its size (the most entries in use at once, over the run).
  const uint64_t part = wb["part_sectors"].get<uint64_t>();
  EXPECT_LE(wb["ring"]["used_max"].get<uint64_t>(), part);
  EXPECT_GE(wb["ring"]["used_max"].get<uint64_t>(), part - stripe) << "the ring never came within a stripe of full";
  EXPECT_GT(r["integrity"]["reads_checked"].get<uint64_t>(), 5000u);
  EXPECT_EQ(r["integrity"]["flushes_checked"].get<uint64_t>(), 1u);
}

// A ring smaller than one stripe is refused, naming the key.
TEST(WriteBuffer, RingSmallerThanAStripeIsAConfigError) {
  auto sets = test::small_platform();
  sets.push_back("ftl.write_buffer=ring");
  sets.push_back("ftl.write_buffer_mib=2.5");
  sets.push_back("nand.channels=8");
  sets.push_back("nand.ways=16");
  sets.push_back("nand.page_bytes=16384");   // a stripe of 128 dies x 2 planes x 16 KiB = 4 MiB
  try {
    test::run_platform(sets, "fio:rw=randwrite,bs=4k,io=10");
    FAIL() << "a ring smaller than a stripe was accepted";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("ftl.write_buffer_mib"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("smaller than one stripe"), std::string::npos) << e.what();
  }
}
