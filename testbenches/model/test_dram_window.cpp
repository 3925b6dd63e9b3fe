// Controller DRAM beyond the old 2 GiB window (issue 16): DRAM is 3 GiB from 0x4000_0000
// (ftl-sw/hal/regs.h), so a 1 TiB drive's page map and reverse map (about 2.1 GiB) fit.  The
// firmware's whole heap is put above 0xC000_0000 (dram.firmware_reserved_mib) and a mixed
// workload with every read checked runs natively and on the ISS: an address with the top bit
// set taken for a negative number, a table reached through the old window, or the ISS's
// mapping of the top gigabyte would fail it.  A drive whose tables need more than 3 GiB is
// refused by name.  Each TEST builds a platform and runs in its own process.
#include <gtest/gtest.h>

#include "model/platform_test_support.h"

using namespace ssdvp;

namespace {

void heap_at_the_top(const std::string& mode) {
  auto sets = test::small_platform();
  for (const std::string& s : std::vector<std::string>{"dram.size_mib=3072", "dram.firmware_reserved_mib=2100", "firmware.mode=" + mode,
                        "precondition.fill=1", "precondition.overwrite=0.3"})
    sets.push_back(s);
  auto run = test::run_platform(sets, "fio:rw=randrw,rwmixread=50,bs=4k,iodepth=8,io=3000");
  const auto& r = run.results;
  test::expect_clean(r);
  EXPECT_GT(r["integrity"]["reads_checked"].get<uint64_t>(), 1000u);
  EXPECT_GT(r["ftl"]["gc_runs"].get<uint64_t>(), 0u);
  const uint64_t heap_end = 0x40000000ull + (2100ull << 20) + r["ftl"]["firmware_dram_bytes"].get<uint64_t>();
  EXPECT_GT(heap_end, 0xC3000000ull);
  EXPECT_LE(heap_end, 1ull << 32);
}

}  // namespace

TEST(DramWindow, HeapAboveThreeGibNative) { heap_at_the_top("native"); }
TEST(DramWindow, HeapAboveThreeGibOnTheIss) { heap_at_the_top("iss"); }

// 1.5 TiB of 16 KiB pages: page map and reverse map alone need 3 GiB, more than the RV32
// firmware can address.  Refused at configuration, naming the key and the need.
TEST(DramWindow, ADriveWhoseTablesNeedMoreThanThreeGibIsRefused) {
  try {
    test::run_platform({"nand.page_bytes=16384", "nand.blocks_per_plane=12288", "dram.size_mib=3072",
                        "device.nor_kib=16384"},
                       "fio:rw=randread,io=10", false);
    FAIL() << "a 1.5 TiB drive was built";
  } catch (const std::exception& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("dram.size_mib = 3072 is too small"), std::string::npos) << what;
    EXPECT_NE(what.find("the firmware needs about"), std::string::npos) << what;
  }
}
