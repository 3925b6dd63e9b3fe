// Read cache and read-ahead (ftl.readahead, ftl-sw/readahead/) on a whole platform: no stale
// data after writes and trims of cached, queued and in-flight read-ahead sectors (integrity),
// the analyser's memory budget on a long random run, read-ahead yielding to host reads, the
// same on the ISS.  Each TEST builds a platform and runs in its own process.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "model/platform_test_support.h"

using namespace ssdvp;

namespace {

// A sequential read stream over 4 KiB sectors, 100 us apart, with writes and trims of the
// sector just ahead of it (read ahead: queued, in flight or cached, depending on when they
// land in the 100 us) and, every tenth step, an overwrite of a sector read a few steps back
// (in the LRU) and a read of it 40 us later. Every read is checked against the data
// acknowledged before it was issued.
std::string write_overwrite_trace(const std::string& name, unsigned steps) {
  const std::string path = std::string(::testing::TempDir()) + name;
  std::ofstream out(path);
  auto line = [&](const char* op, uint64_t sector, uint64_t t_ns) {
    out << "1 D " << op << ' ' << sector * 4096 << " 4096 " << t_ns / 1000000000 << '.'
        << std::to_string(1000000000 + t_ns % 1000000000).substr(1) << " 0 False\n";
  };
  for (unsigned k = 0; k < steps; k++) {
    const uint64_t t = uint64_t(k) * 100000;
    const uint64_t sector = 1000 + k;
    line("read", sector, t);
    const uint64_t at = t + 1000 + (k * 37u % 97u) * 1000;   // anywhere in the step
    if (k % 3 == 0) line("write", sector + 1, at);
    if (k % 3 == 1) line("trim", sector + 1, at);
    if (k % 10 == 5) {
      line("write", sector - 4, t + 50000);
      line("read", sector - 4, t + 90000);
    }
  }
  return path;
}

void check_no_stale_reads(const std::string& policy, const std::string& mode) {
  const std::string trace = write_overwrite_trace("ra-overwrite-" + policy + "-" + mode + ".trace", 3000);
  auto sets = test::small_platform();
  for (std::string s : std::vector<std::string>{"ftl.readahead=" + policy, "ftl.read_pattern.sequential_run=4",
                                                 "ftl.seq_readahead.window_kib=16", "precondition.overwrite=0",
                                                 "firmware.mode=" + mode})
    sets.push_back(s);
  auto run = test::run_platform(sets, "trace:" + trace);
  const auto& r = run.results;
  test::expect_clean(r);
  const auto& ra = r["readahead"];
  EXPECT_GT(r["integrity"]["reads_checked"].get<uint64_t>(), 3000u);
  EXPECT_GT(ra["prefetch_sectors"].get<uint64_t>(), 500u);
  EXPECT_GT(ra["hit_sectors"].get<uint64_t>(), 300u);
  EXPECT_GT(ra["invalidated_sectors"].get<uint64_t>(), 500u);
  EXPECT_GT(ra["invalidated_busy"].get<uint64_t>(), 50u) << "no write or trim met a sector being read ahead";
}

}  // namespace

TEST(Readahead, NoStaleDataAfterOverwriteOrTrimDtreeLru) { check_no_stale_reads("dtree-lru", "native"); }
TEST(Readahead, NoStaleDataAfterOverwriteOrTrimDtree) { check_no_stale_reads("dtree", "native"); }
TEST(Readahead, NoStaleDataAfterOverwriteOrTrimSeq) { check_no_stale_reads("seq", "native"); }
TEST(Readahead, NoStaleDataAfterOverwriteOrTrimOnTheIss) { check_no_stale_reads("dtree-lru", "iss"); }

// A long random run with a small analyser budget: the tree fills its budget, drops roots to
// stay in it, and the DRAM it takes (measured: the firmware's heap against the same drive with
// an LRU cache and no analyser) is within the budget; read-ahead that went wrong is counted
// as wasted, and a host read never waits behind more than one flash read for it.
TEST(Readahead, AnalyserStaysInItsBudgetOnALongRandomRun) {
  auto sets = test::small_platform();
  for (std::string s : {"ftl.readahead=dtree-lru", "ftl.read_pattern.memory_kib=64", "ftl.read_pattern.depth=512",
                        "ftl.read_pattern.branches=512", "ftl.read_pattern.min_repeats=1", "precondition.overwrite=0"})
    sets.push_back(s);
  // RR = 30 over a pool of 8,192 sectors: branches worth learning and many new addresses.
  auto run = test::run_platform(sets, "rr:ratio=30,bs=4k,pool=32m,requests=60000,seed=3");
  const auto& r = run.results;
  test::expect_clean(r);
  const auto& ra = r["readahead"];
  const uint64_t capacity = ra["tree_node_capacity"].get<uint64_t>();
  EXPECT_EQ(ra["tree_nodes_max"].get<uint64_t>(), capacity);
  const uint64_t analyser = ra["dram_bytes"]["analyser"].get<uint64_t>();
  EXPECT_LE(analyser, 64u * 1024 + 63u);   // the budget, and at most the heap's 64-byte alignment
  auto lru = sets;
  std::replace(lru.begin(), lru.end(), std::string("ftl.readahead=dtree-lru"), std::string("ftl.readahead=lru"));
  const auto without = test::run_child(lru, "rr:ratio=30,bs=4k,pool=32m,requests=100,seed=3", "ra-budget-lru");
  // What the heap gave the firmware in all, with and without the analyser: the difference is
  // the analyser's, plus the alignment that moving the later allocations changed (< 64 bytes).
  const uint64_t more = r["ftl"]["firmware_dram_bytes"].get<uint64_t>() - without["ftl"]["firmware_dram_bytes"].get<uint64_t>();
  EXPECT_LE(analyser, more);
  EXPECT_LT(more - analyser, 64u) << "the analyser's DRAM as reported (" << analyser
                                  << ") differs from what the firmware's heap gave it (" << more << ")";
  EXPECT_GT(ra["tree_drops"].get<uint64_t>(), 100u);
  EXPECT_GT(ra["predictions_tree"].get<uint64_t>(), 10u);
  EXPECT_GT(ra["prefetch_useful"].get<uint64_t>(), 0u);
  EXPECT_GT(ra["prefetch_wasted"].get<uint64_t>(), 0u);
  // Read-ahead yields: a host read meeting one on its die waits for that one read at most
  // (tR 50 us + 4 KiB over the channel, well under 100 us on this platform).
  EXPECT_GT(ra["reads_behind_prefetch"].get<uint64_t>(), 0u);
  EXPECT_LT(ra["prefetch_delay_us"]["max"].get<double>(), 100.0);
}

// Bad read-ahead configurations are refused with the key named.
TEST(Readahead, BadConfigurationsNameTheKey) {
  auto error_of = [](std::vector<std::string> sets) {
    try {
      Config cfg = Config::load("", sets);
      (void)PlatformParams::from(cfg);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error_of({"ftl.readahead=lru", "ftl.read_cache.kib=4", "ftl.read_cache.item_kib=8"})
                .find("ftl.read_cache.kib = 4 is smaller than one item"),
            std::string::npos);
  EXPECT_NE(error_of({"ftl.read_cache.item_kib=6"}).find("ftl.read_cache.item_kib = 6 is not a whole number"),
            std::string::npos);
  EXPECT_NE(error_of({"ftl.readahead=dtree", "ftl.read_pattern.memory_kib=16"})
                .find("ftl.read_pattern.depth = 4096 is beyond the analyser's budget"),
            std::string::npos);
  EXPECT_NE(error_of({"ftl.readahead=dtree", "ftl.read_pattern.memory_kib=64", "ftl.read_pattern.depth=8",
                      "ftl.read_pattern.branches=100000"})
                .find("ftl.read_pattern.branches = 100000 is beyond"),
            std::string::npos);
  EXPECT_NE(error_of({"ftl.read_pattern.depth=0"}).find("ftl.read_pattern.depth"), std::string::npos);
  EXPECT_NE(error_of({"ftl.read_pattern.branches=0"}).find("ftl.read_pattern.branches"), std::string::npos);
  EXPECT_NE(error_of({"ftl.readahead=mru"}).find("ftl.readahead"), std::string::npos);
}

// Reads as large as the read cache (rr's default 2 MiB against the default 2 MiB cache): the
// current read pins every entry until its data has gone out, so a prediction placed then found
// no room and was dropped (39,400 predictions, 0 read ahead, 0 % hits on the default drive).
// The prediction now waits for the entries to come back and reads ahead what fits; every
// predicted sector is accounted for: read ahead (queued), or not, and why.
TEST(Readahead, PredictionsAsLargeAsTheCacheReadAheadWhatFits) {
  auto sets = test::small_platform();
  sets.push_back("ftl.readahead=dtree-lru");
  auto run = test::run_platform(sets, "rr:ratio=0,requests=3000");
  const auto& r = run.results;
  test::expect_clean(r);
  const auto& ra = r["readahead"];
  EXPECT_EQ(ra["cache_sectors"].get<uint64_t>(), 512u) << "the case needs a cache as large as one read";
  // (On this 8-die drive the next 2 MiB read takes most queued sectors itself, before their
  // read-ahead reaches a die: 28k of 73k sectors read ahead, all used; 0 before.)
  EXPECT_GT(ra["predictions_waited_for_room"].get<uint64_t>(), 100u) << ra.dump();
  EXPECT_GT(ra["prefetch_sectors"].get<uint64_t>(), 10000u) << ra.dump();
  EXPECT_EQ(ra["prefetch_useful"].get<uint64_t>(), ra["prefetch_sectors"].get<uint64_t>()) << ra.dump();
  EXPECT_GT(ra["hit_ratio"].get<double>(), 0.01) << ra.dump();
  uint64_t accounted = ra["queued_sectors"].get<uint64_t>() + ra["waiting_for_room_sectors"].get<uint64_t>();
  for (const auto& [why, n] : ra["not_read_ahead_sectors"].items()) accounted += n.get<uint64_t>();
  EXPECT_EQ(accounted, ra["predicted_sectors"].get<uint64_t>()) << ra.dump();
}
