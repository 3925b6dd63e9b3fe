// Mixed SLC/MLC devices (nand.slc_dies) whose SLC dies have their own block count
// (nand.slc.blocks_per_plane), so the SLC and MLC regions are sized independently: the
// firmware uses every block of every die and only those, natively and on the ISS, with every
// read verified.  Each TEST builds a platform and runs in its own process.
#include <gtest/gtest.h>

#include "model/platform_test_support.h"
#include "models/nand/die.h"

using namespace ssdvp;

namespace {

// platforms/lapt-slc-mlc.toml: 2 channels x 4 ways of 4-plane dies, die 0 SLC (64 pages per
// block), the others MLC (128 pages per block, 32 blocks per plane); here the SLC die gets 64.
void check_mixed(const std::string& mode) {
  Config cfg = Config::load(std::string(SSDVP_SOURCE_DIR) + "/platforms/lapt-slc-mlc.toml",
                            {"nand.slc.blocks_per_plane=64", "firmware.mode=" + mode, "sim.progress=false",
                             "sim.output_dir=" + std::string(::testing::TempDir()) + "mixed-" + mode});
  RunOptions opt;
  opt.workload_spec = "fio:rw=randrw,bs=4k,iodepth=16,io=20000";
  SsdPlatform platform(cfg, opt);
  const auto r = platform.run();
  test::expect_clean(r);
  // 1 SLC die x 4 planes x 64 blocks x 64 pages + 7 MLC dies x 4 x 32 x 128.
  EXPECT_EQ(r["ftl"]["physical_sectors"].get<uint64_t>(), 4u * 64 * 64 + 7u * 4 * 32 * 128);
  // The SLC die's blocks past the MLC dies' count were used (the firmware wrote and cleaned
  // them), and the MLC dies have only their own: an address past them is a bus error, which
  // expect_clean would have reported.
  uint32_t high_blocks_erased = 0;
  for (uint32_t b = 32; b < 64; b++) high_blocks_erased += platform.die(0).erase_count(0, b) > 0;
  EXPECT_GT(high_blocks_erased, 16u);
  EXPECT_GT(r["wear"]["erases_per_die"][0].get<uint64_t>(), 0u);
  EXPECT_EQ(r["firmware"]["mode"], mode);
}

}  // namespace

TEST(MixedDevice, SlcDiesWithTheirOwnBlockCountNative) { check_mixed("native"); }
TEST(MixedDevice, SlcDiesWithTheirOwnBlockCountOnTheIss) { check_mixed("iss"); }
