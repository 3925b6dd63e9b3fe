// The FTL's flash side (ftl-sw/core/flash_port.h): a flash completion reaches the owner its
// kind registered, with the controller's status and completion time; a failure goes to the
// owner's failure handler only when the owner takes that failure; a completion of a kind no
// module owns, or a failure its owner does not take, halts the firmware with its code.  The
// completion ring is laid out in the test HAL's DRAM as the controller would fill it.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "hal_arena.h"

namespace {

struct Call {
  uint32_t tag;
  uint16_t status;
  uint64_t t_done;
  bool failed;
};
std::vector<Call> g_calls;

void owner_done(ftl* f, uint32_t tag, const flash_result* r) {
  g_calls.push_back({tag, r->status, r->t_done, false});
  fop_release(f, tag);
}
void owner_failed(ftl* f, uint32_t tag, const flash_result* r) {
  g_calls.push_back({tag, r->status, r->t_done, true});
  fop_release(f, tag);
}
const flash_owner kReadOwner = {SSD_FRSN_PREFETCH, 0, owner_done, nullptr};
const flash_owner kProgramOwner = {SSD_FRSN_GC, SSD_FST_PROGRAM_FAIL, owner_done, owner_failed};

constexpr uint32_t kRing = 64;   // completions; the head is reported to the controller every 16

// One firmware core with a completion ring, one die, a few operation tags.
struct Port {
  std::unique_ptr<ftl> f{new ftl()};
  Port() {
    hal_arena_reset(16u << 20);
    g_calls.clear();
    f->heap = fw_heap{SSD_DRAM_BASE, 16u << 20, 0, 16u << 20};
    f->stats = static_cast<ssd_fw_stats*>(fw_alloc(f.get(), sizeof(ssd_fw_stats), 64));
    f->die_ops = static_cast<uint16_t*>(fw_alloc(f.get(), 16, 16));
    fw_core* c = static_cast<fw_core*>(fw_alloc(f.get(), sizeof(fw_core), 64));
    c->fcpl = static_cast<ssd_flash_cpl*>(fw_alloc(f.get(), kRing * sizeof(ssd_flash_cpl), 64));
    c->fcpl_pos = ring_pos{0, 0, kRing, 1, 0};
    f->core[0] = f->cur = c;
    f->ncores = 1;
    f->fop_free = NONE32;
    for (uint32_t t = 8; t-- > 0;) {
      f->fop[t].next_free = f->fop_free;
      f->fop_free = t;
    }
  }
  // An operation of `kind` in flight on die 0, as flash_submit leaves it.
  uint32_t issue(uint8_t kind) {
    const uint32_t tag = fop_alloc(f.get(), kind);
    f->fop[tag].die = 0;
    f->die_ops[0]++;
    return tag;
  }
  // The controller posts a completion.
  void complete(uint32_t tag, uint16_t status, uint64_t t_done) {
    ring_pos& p = f->cur->fcpl_pos;
    ssd_flash_cpl& e = f->cur->fcpl[p.tail % kRing];
    e.tag = tag;
    e.status = status;
    e.t_done_lo = uint32_t(t_done);
    e.t_done_hi = uint32_t(t_done >> 32);
    e.phase = uint16_t(p.tail / kRing % 2 == 0 ? 1 : 0);
    p.tail++;
  }
  ftl* operator->() { return f.get(); }
};

}  // namespace

TEST(FlashPort, ACompletionReachesTheOwnerItsKindRegistered) {
  Port p;
  flash_register(p.f.get(), FOP_PREFETCH, &kReadOwner);
  const uint32_t tag = p.issue(FOP_PREFETCH);
  EXPECT_EQ(p->fop[tag].reason, SSD_FRSN_PREFETCH);   // the reason the owner registered
  p.complete(tag, SSD_FST_ECC_CORRECTED, 0x100000005ull);
  EXPECT_EQ(flash_poll(p.f.get()), 1);
  ASSERT_EQ(g_calls.size(), 1u);
  EXPECT_EQ(g_calls[0].tag, tag);
  EXPECT_EQ(g_calls[0].status, SSD_FST_ECC_CORRECTED);
  EXPECT_EQ(g_calls[0].t_done, 0x100000005ull);
  EXPECT_FALSE(g_calls[0].failed);
  EXPECT_EQ(p->die_ops[0], 0u);
  EXPECT_EQ(p->fops_inflight, 0u);
  EXPECT_EQ(flash_poll(p.f.get()), 0);   // nothing more posted
}

TEST(FlashPort, AFailureGoesToTheOwnerThatTakesIt) {
  Port p;
  flash_register(p.f.get(), FOP_GC_PROG, &kProgramOwner);
  const uint32_t ok = p.issue(FOP_GC_PROG), bad = p.issue(FOP_GC_PROG);
  p.complete(ok, SSD_FST_OK, 7);
  p.complete(bad, SSD_FST_PROGRAM_FAIL, 9);
  EXPECT_EQ(flash_poll(p.f.get()), 2);
  ASSERT_EQ(g_calls.size(), 2u);
  EXPECT_FALSE(g_calls[0].failed);
  EXPECT_TRUE(g_calls[1].failed);
  EXPECT_EQ(g_calls[1].tag, bad);
  EXPECT_EQ(g_calls[1].status, SSD_FST_PROGRAM_FAIL);
}

TEST(FlashPort, ACompletionOfAKindNoModuleOwnsHalts) {
  Port p;
  const uint32_t tag = p.issue(FOP_MAP_READ);
  EXPECT_EQ(p->fop[tag].reason, SSD_FRSN_UNKNOWN);
  p.complete(tag, SSD_FST_OK, 1);
  EXPECT_EXIT(
      {
        hal_arena_expect_halts(true);
        flash_poll(p.f.get());
      },
      ::testing::ExitedWithCode(kFirmwareStoppedExit), "stopped after halt 0xf1a70006");
}

TEST(FlashPort, AFailureTheOwnerDoesNotTakeHalts) {
  Port p;
  flash_register(p.f.get(), FOP_PREFETCH, &kReadOwner);
  const uint32_t tag = p.issue(FOP_PREFETCH);
  p.complete(tag, SSD_FST_ERASE_FAIL, 1);
  EXPECT_EXIT(
      {
        hal_arena_expect_halts(true);
        flash_poll(p.f.get());
      },
      ::testing::ExitedWithCode(kFirmwareStoppedExit), "stopped after halt 0xf1a50004");
}
