// The power-cut checker catches a loss: deliberately broken drives (ftl.test_defect) each lose
// durable data in their own way, and the run must say so (recovery.check.lost, the first lost
// sectors named) and exit 4.  Without these, "0 sectors lost" in every other power-cut test
// would also be what a checker that never looked said.  The same cut on the drive as built is
// the control: it loses nothing, so the loss is the defect's.
#include <gtest/gtest.h>

#include <string>

#include "model/power_cut_support.h"

using ssdvp::test::Cut;
using ssdvp::test::cut_run;
using ssdvp::test::expect_recovered;

namespace {

// The broken drive's run: exit 4, sectors lost, each named as `kind` says.
void expect_loss(const Cut& c, const std::string& kind) {
  EXPECT_EQ(c.status, 4) << c.err;
  ASSERT_TRUE(c.after.contains("recovery")) << c.err;
  const auto& chk = c.after["recovery"]["check"];
  EXPECT_GT(chk["lost"].get<uint64_t>(), 0u) << chk.dump();
  ASSERT_FALSE(chk["first_lost"].empty()) << chk.dump();
  bool named = false;
  for (const auto& e : chk["first_lost"]) named |= e.get<std::string>().find(kind) != std::string::npos;
  EXPECT_TRUE(named) << "no lost sector named as '" << kind << "': " << chk["first_lost"].dump();
  EXPECT_EQ(chk["sectors_checked"].get<uint64_t>(), c.after["ftl"]["logical_sectors"].get<uint64_t>());
}

// Writes and flushes, no trims: what a flush promised is all there is to lose.
constexpr const char* kFlushed = "fio:rw=randwrite,bsrange=4k-32k,iodepth=16,io=40000,fsync=16";

}  // namespace

TEST(PowerCutDefects, FlushAcknowledgedBeforeItsDataIsProgrammed) {
  expect_recovered(cut_run("defect-control-flush", "ops:9000", {}, kFlushed));
  expect_loss(cut_run("defect-flush", "ops:9000", {"ftl.test_defect=flush-before-program"}, kFlushed), "older than durable write");
}

TEST(PowerCutDefects, WriteCacheOffAcknowledgedBeforeProgramming) {
  // The write cache off: every acknowledged write is durable, so the early one is lost.
  const std::string w = "fio:rw=randwrite,bs=4k,iodepth=8,io=20000";
  expect_loss(cut_run("defect-wt", "ops:6000", {"device.volatile_write_cache=false", "ftl.test_defect=flush-before-program"}, w),
              "older than durable write");
}

TEST(PowerCutDefects, RecoverySkipsTheOpenSuperblocks) {
  expect_recovered(cut_run("defect-control-open", "ops:9000", {}, kFlushed));
  expect_loss(cut_run("defect-open", "ops:9000", {"ftl.test_defect=recovery-skips-open-superblock"}, kFlushed), "LBA ");
}

// The cut of PowerCut.TrimmedSectorsNeverComeBackOlder: a trimmed sector's newest version was
// erased by GC after the trim, an older one is still on flash; only the trim log keeps it out.
TEST(PowerCutDefects, TrimLogNotReplayed) {
  const Cut c = cut_run("defect-trim", "random:5", {"ftl.test_defect=trim-log-not-replayed"});
  expect_loss(c, "older version");
  EXPECT_GT(c.after["recovery"]["trim_records_found"].get<uint64_t>(), 0u);
}

TEST(PowerCutDefects, UnknownDefectIsRefusedNamingTheKey) {
  const Cut c = cut_run("defect-bad", "ops:10", {"ftl.test_defect=lose-everything"});
  EXPECT_EQ(c.status, 2);
  EXPECT_NE(c.err.find("ftl.test_defect"), std::string::npos) << c.err;
}
