// Preconditioning by the host (precondition.mode = "timed"; models/host/host_driver_precondition.cpp)
// on a device FTL: the fill and the overwrites travel the NVMe queues, the firmware's write
// buffer, GC and the channels in simulated time, the measured run's figures leave them out, and
// every sector reads back as its last write (the fill's, an overwrite's or the measured run's):
// after the random mix a sequential read covers the whole namespace.  (The host FTL's case is
// in test_host_ftl.cpp.)
#include <gtest/gtest.h>

#include "model/platform_test_support.h"

using namespace ssdvp;

TEST(TimedPrecondition, DeviceFtlFillsThroughItsQueuesAndGcBeforeTheMeasuredRun) {
  auto run = test::run_platform({"nand.channels=2", "nand.ways=2", "nand.planes=2", "nand.blocks_per_plane=32",
                                 "nand.page_bytes=16384", "nand.mlc.pages_per_block=32", "dram.size_mib=256",
                                 "precondition.mode=\"timed\"", "precondition.fill=1", "precondition.overwrite=1",
                                 "ftl.gc_check_victims=true"},
                                "fio:rw=randrw,rwmixread=50,bs=4k,iodepth=8,io=20000;fio:rw=read,bs=128k,iodepth=8,size=100%");
  const auto& r = run.results;
  test::expect_clean(r);
  EXPECT_GT(r["integrity"]["reads_checked"].get<uint64_t>(), 9000u);
  // Every logical sector read back and checked, beyond the mix's random reads.
  EXPECT_GE(r["integrity"]["sectors_checked"].get<uint64_t>(), r["ftl"]["logical_sectors"].get<uint64_t>() + 9000u)
      << r["integrity"].dump();
  EXPECT_GT(r["sim_time_total_s"].get<double>(), r["sim_time_s"].get<double>() + 0.05)
      << "the fill and overwrites took simulated time before the measured run";
  EXPECT_GT(r["wear"]["block_erases_mean"].get<double>(), 1.0) << "the overwrites made GC erase every block";
  const double writes = r["ops"]["write"]["requests"].get<double>();   // (4 KiB each)
  EXPECT_EQ(r["ftl"]["host_write_sectors"].get<double>(), writes) << "the measured window leaves the fill out";
  EXPECT_GT(r["ftl"]["gc_runs"].get<uint64_t>(), 0u) << "the measured writes met the GC steady state";
}
