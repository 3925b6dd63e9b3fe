// The durability contract the host sees (docs/reliability.md): a write sent with FUA, or any
// write when the volatile write cache is off (device.volatile_write_cache = false), completes
// only once its data is on flash; a flush completes only once every write acknowledged before
// it is.  sim.check_flush_durability reads the NAND array at each such completion and fails
// the run on a write that is not there.
#include <gtest/gtest.h>

#include "model/platform_test_support.h"

using namespace ssdvp;

namespace {

void expect_durable(std::vector<std::string> sets, const std::string& workload, bool every_write) {
  sets.push_back("sim.check_flush_durability=true");
  auto run = test::run_platform(sets, workload);
  const auto& r = run.results;
  test::expect_clean(r);
  const uint64_t durable = r["ftl"]["durable_writes"].get<uint64_t>();
  EXPECT_EQ(r["integrity"]["durable_writes_checked"].get<uint64_t>(), durable);
  EXPECT_GT(durable, 0u);
  if (every_write) {
    EXPECT_EQ(durable, r["ops"]["write"]["requests"].get<uint64_t>());
  } else {
    EXPECT_LT(durable, r["ops"]["write"]["requests"].get<uint64_t>());
    EXPECT_GT(r["integrity"]["flushes_checked"].get<uint64_t>(), 1u);
  }
}

constexpr const char* kMix = "fio:rw=randwrite,bsrange=4k-32k,iodepth=16,io=3000,fua_percent=20,fsync=64,trim_percent=10";

}  // namespace

TEST(Durability, FuaWritesAndFlushesAreOnFlashWhenAcknowledged) {
  expect_durable(test::small_platform(), kMix, false);
}

TEST(Durability, FuaOnRingBufferWithDemandMapping) {
  auto sets = test::small_platform();
  for (const char* s : {"ftl.write_buffer=ring", "ftl.mapping=writeopt", "ftl.cmt_ratio=0.25"}) sets.push_back(s);
  expect_durable(sets, kMix, false);
}

TEST(Durability, WriteCacheOffMakesEveryWriteDurable) {
  auto sets = test::small_platform();
  sets.push_back("device.volatile_write_cache=false");
  expect_durable(sets, "fio:rw=randwrite,bs=4k,iodepth=8,io=2000,trim_percent=5", true);
}

TEST(Durability, WriteCacheOffOnTwoCores) {
  auto sets = test::small_platform();
  for (const char* s : {"device.volatile_write_cache=false", "firmware.cores=2", "host.queues=2"}) sets.push_back(s);
  expect_durable(sets, "fio:rw=randrw,rwmixread=30,bs=4k,iodepth=8,numjobs=2,io=1500", true);
}
