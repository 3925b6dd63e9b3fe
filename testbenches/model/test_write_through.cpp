// Write-through without padding (device.volatile_write_cache = false; docs/reliability.md):
// every write completes only once on flash, and the write buffer's writer programs only the
// pages holding data, from the open superpage's next free plane on, instead of a whole
// superpage padded to every plane.  Checked through the dies' own program counts
// (nand.programmed_sectors), natively, on the ISS and with the RTL channel, and with GC, a
// page larger than a sector, and reads of superpages programmed a plane at a time.  Each TEST
// builds its own platform, in its own process.
#include <gtest/gtest.h>

#include "model/platform_test_support.h"

using namespace ssdvp;

namespace {

// The small platform with 4 planes (a superpage of 4 pages) and the cache off; every durable
// write checked on the NAND when it completes.
std::vector<std::string> write_through(const std::string& mode) {
  auto sets = test::small_platform();
  for (const char* s : {"nand.planes=4", "nand.blocks_per_plane=32", "device.volatile_write_cache=false",
                        "sim.check_flush_durability=true"})
    sets.push_back(s);
  if (mode == "iss") sets.push_back("firmware.mode=iss");
  if (mode == "rtl") sets.push_back("channel.model=rtl");
  return sets;
}

uint64_t at(const nlohmann::json& r, const char* section, const char* key) { return r[section][key].get<uint64_t>(); }

// A native write-through run with one more setting, its results checked clean.
nlohmann::json native_run(const std::string& setting, const std::string& workload) {
  auto sets = write_through("native");
  sets.push_back(setting);
  auto run = test::run_platform(sets, workload, false);
  test::expect_clean(run.results);
  return run.results;
}

}  // namespace

class WriteThrough : public ::testing::TestWithParam<std::string> {};

// Sequential 4 KiB writes at QD1 on an empty drive: one page each, so the dies program exactly
// the host's sectors (WAF 1.00), none of them padding, every program a partial superpage.
TEST_P(WriteThrough, Sequential4KiBWritesProgramOnePageEach) {
  auto run = test::run_platform(write_through(GetParam()), "fio:rw=write,bs=4k,iodepth=1,io=2000", false);
  const auto& r = run.results;
  test::expect_clean(r);
  const uint64_t host = at(r, "ftl", "host_write_sectors");
  EXPECT_EQ(host, 2000u);
  EXPECT_EQ(at(r, "nand", "programmed_sectors"), host);
  EXPECT_DOUBLE_EQ(r["nand"]["waf"].get<double>(), 1.0);
  EXPECT_EQ(at(r, "ftl", "padding_sectors"), 0u);
  EXPECT_EQ(at(r, "ftl", "host_padding_sectors"), 0u);
  EXPECT_EQ(r["ftl"]["write_through"]["partial_programs"].get<uint64_t>(), 2000u);
  EXPECT_EQ(at(r, "ftl", "durable_writes"), 2000u);
  EXPECT_EQ(at(r, "integrity", "durable_writes_checked"), 2000u);
  if (GetParam() == "iss") {
    EXPECT_EQ(r["firmware"]["mode"], "iss");
  }
  if (GetParam() == "rtl") {
    EXPECT_GT(r["rtl"]["cycles_clocked"].get<uint64_t>(), 1000u);
  }
}

// Random reads and writes with trims on a preconditioned drive, so GC cleans superblocks that
// were filled a plane at a time, and reads find sectors in superpages programmed in parts:
// every read verified, every durable write on flash when acknowledged, host data never padded.
TEST_P(WriteThrough, RandomMixWithGcProgramsNoPadding) {
  auto sets = write_through(GetParam());
  sets.push_back("precondition.overwrite=1");
  auto run = test::run_platform(sets, "fio:rw=randrw,rwmixread=40,bs=4k,iodepth=8,io=6000,trim_percent=5");
  const auto& r = run.results;
  test::expect_clean(r);
  EXPECT_GT(at(r, "ftl", "gc_runs"), 0u);
  EXPECT_GT(at(r, "integrity", "reads_checked"), 2000u);
  EXPECT_GT(r["ftl"]["write_through"]["partial_programs"].get<uint64_t>(), 0u);
  EXPECT_EQ(at(r, "integrity", "durable_writes_checked"), at(r, "ftl", "durable_writes"));
  // What was programmed: host sectors, GC's copies, the trim log's sectors and padding, none of
  // it in host programs (before write-through programmed pages, 3 of every 4 host sectors
  // programmed were padding).
  EXPECT_EQ(at(r, "ftl", "flash_program_sectors"),
            at(r, "ftl", "host_write_sectors") + at(r, "ftl", "gc_copied_sectors") + at(r, "ftl", "padding_sectors") +
                r["ftl"]["trim_log"]["sectors_written"].get<uint64_t>());
  EXPECT_EQ(at(r, "ftl", "host_padding_sectors"), 0u);
}

INSTANTIATE_TEST_SUITE_P(Modes, WriteThrough, ::testing::Values("native", "iss", "rtl"),
                         [](const auto& info) { return info.param; });

// A page is the smallest program: with 8 KiB pages a 4 KiB write programs one page, half of it
// padding (WAF 2.00 by the dies), never a superpage of 4 pages (8.00).
TEST(WriteThroughPages, A4KiBWriteStillProgramsAWholePage) {
  const auto r = native_run("nand.page_bytes=8192", "fio:rw=write,bs=4k,iodepth=1,io=1000");
  EXPECT_EQ(at(r, "nand", "programmed_sectors"), 2000u);
  EXPECT_EQ(at(r, "ftl", "padding_sectors"), 1000u);
  EXPECT_EQ(at(r, "ftl", "host_padding_sectors"), 1000u);
}

// With the cache on, a flush after each write pads the superpage to every plane (as pblk pads to
// its minimum write unit): the write-through path is the cache setting's, not every drain's.
TEST(WriteThroughPages, FlushWithTheCacheOnPadsTheSuperpage) {
  const auto r = native_run("device.volatile_write_cache=true", "fio:rw=write,bs=4k,iodepth=1,io=1000,fsync=1");
  EXPECT_EQ(at(r, "nand", "programmed_sectors"), 4000u);
  EXPECT_EQ(at(r, "ftl", "host_padding_sectors"), 3000u);
  EXPECT_EQ(r["ftl"]["write_through"]["partial_programs"].get<uint64_t>(), 0u);
}

// A failed program of one plane's page is written again as a whole superpage (the rest padded:
// media/program_retry.h) in a fresh superblock; every durable write still reads back.
TEST(WriteThroughPages, AFailedPageProgramIsWrittenAgain) {
  const auto r = native_run("nand.program_fail_per_million=300",
                            "fio:rw=randrw,rwmixread=30,bs=4k,iodepth=4,io=20000,size=64m");
  EXPECT_GE(r["ftl"]["bad_blocks"]["program_failures"].get<uint64_t>(), 1u);
  EXPECT_GT(at(r, "ftl", "host_padding_sectors"), 0u);   // the retried page, padded to a superpage
  EXPECT_EQ(at(r, "integrity", "durable_writes_checked"), at(r, "ftl", "durable_writes"));
  EXPECT_GT(at(r, "integrity", "reads_checked"), 5000u);
}
