// The FTL's data structures on their own: the page map and reverse map with valid counts,
// superblock free lists and the GC reserve, victim selection by each policy, and the write
// buffer's LPA index (insert, overwrite, delete with backward shift), the ring buffer's
// pointers and rate limiter, GC pacing's arithmetic, the epoch of the write buffer's walk over
// the pools.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <random>
#include <vector>

#include "hal_arena.h"

extern "C" {
#include "ftl-sw/place/lapt.h"
}

namespace {

// A context with a small geometry: 2 dies, 8 blocks per plane, 2 planes, 4 pages, 1 sector
// per page: superblocks of 8 sectors.
struct Ftl {
  std::unique_ptr<ftl> f{new ftl()};
  explicit Ftl(uint32_t wbuf_sectors = 600, uint32_t policy = SSD_GC_GREEDY, uint32_t pslc_blocks = 0,
               uint32_t wbuf_kind = SSD_WBUF_SLOTS, uint32_t cores = 1, uint32_t blocks = 8) {
    hal_arena_reset(64u << 20);
    f->heap = fw_heap{SSD_DRAM_BASE, 64u << 20, 0, 64u << 20};
    f->stats = static_cast<ssd_fw_stats*>(fw_alloc(f.get(), sizeof(ssd_fw_stats), 64));
    ftl_geo& g = f->geo;
    g.channels = 2; g.ways = 1; g.planes = 2; g.blocks = blocks; g.pages = 4; g.spp = 1;
    g.dies = 2; g.unit = 2; g.sb_sectors = 8; g.superblocks = 2 * blocks; g.phys_sectors = 16 * blocks;
    g.pslc_blocks = pslc_blocks; g.pslc_pages = 2; g.pools = pslc_blocks ? 4 : 2;
    g.usable_sectors = 128; g.logical_sectors = 100;
    f->cfg.gc_low_blocks = 2;
    f->cfg.gc_high_blocks = 3;
    f->cfg.wbuf_sectors = wbuf_sectors;
    f->cfg.wbuf_kind = wbuf_kind;
    f->cfg.gc_policy = policy;
    f->host_reserve = GC_RESERVE;
    map_init(f.get());
    blocks_init(f.get());
    victim_index_init(f.get());
    place_init(f.get());
    // The cores' own state, as boot lays it out (their rings are the platform tests' part).
    f->ncores = cores;
    wbuf_init(f.get(), cores);
    for (uint32_t k = 0; k < cores; k++) {
      fw_core* c = static_cast<fw_core*>(fw_alloc(f.get(), sizeof(fw_core), 64));
      c->id = k;
      c->stats = &f->stats->core[k];
      c->wait_write_head = c->wait_write_tail = NONE32;
      timer_init(&c->timer, k);
      f->core[k] = c;
      wbuf_init_part(f.get(), &c->wb, k);
    }
    f->cur = f->core[0];
  }
  ftl* operator->() { return f.get(); }
  wbuf_part* part(uint32_t k = 0) { return &f->core[k]->wb; }
  ftl* get() { return f.get(); }
};

// A superblock's state, valid count or programs in flight set as the firmware's setters do
// (gc/blocks.h): GC's victim index hears of it.
void set_state(ftl* f, uint32_t sb, sb_state s) { sb_set_state(f, sb, s); }
void set_valid(ftl* f, uint32_t sb, uint32_t v) {
  f->sb_valid[sb] = v;
  victim_index_touch(f, sb);
}
void set_progs(ftl* f, uint32_t sb, uint16_t n) {
  f->sb_progs_inflight[sb] = n;
  victim_index_touch(f, sb);
}

}  // namespace

// A firmware halt (hal_halt, as every fatal path in the FTL ends) fails the test that caused
// it, with its code and the firmware's message; a test that expects one says so.
TEST(HalArena, AHaltFailsTheTestUnlessExpected) {
  Ftl f;
  EXPECT_NONFATAL_FAILURE(
      {
        hal_puts("fw: out of DRAM heap\n");
        hal_halt(0xD0000123u);
      },
      "firmware halted with code 0xd0000123: fw: out of DRAM heap");
  hal_arena_expect_halts(true);
  hal_halt(0x6C000001u);
  ASSERT_EQ(hal_arena_halts().size(), 2u);
  EXPECT_EQ(hal_arena_halts()[1], 0x6C000001u);
}

// The largest DRAM (dram.size_mib = 3072, from 0x4000_0000) ends at 2^32, where an end address
// wraps to 0: every allocation reaching the top halted "out of DRAM heap".  Its last byte can
// be allocated; one byte more halts and the firmware stops.
TEST(FtlHeap, TheLargestDramIsUsableToItsLastByte) {
  hal_arena_reset(size_t(3072) << 20);
  std::unique_ptr<ftl> f{new ftl()};
  f->heap = fw_heap{SSD_DRAM_BASE, 0xC0000000u, 0xC0000000u - 8192u - 8u, 0xC0000000u};
  void* p = fw_alloc(f.get(), 4096, 4096);   // aligned up over the last 8 bytes before it
  EXPECT_EQ(hal_dram_addr(p), 0xFFFFE000u);
  void* q = fw_alloc(f.get(), 4096, 64);
  EXPECT_EQ(hal_dram_addr(q), 0xFFFFF000u);
  EXPECT_EQ(f->heap.used, 0xC0000000u);
  EXPECT_TRUE(hal_arena_halts().empty());
  EXPECT_EXIT(
      {
        hal_arena_expect_halts(true);
        fw_alloc(f.get(), 1, 1);
      },
      ::testing::ExitedWithCode(kFirmwareStoppedExit), "");
}

// Allocations read as zeros.  Where the platform says the DRAM was zeroed at power-on, memory
// the heap never handed out is not written (a byte planted there shows it: the platform's
// promise is what keeps it zero in a real run); memory handed out again after the heap was
// rewound (a recovery scan's) is cleared.  Without the promise, everything is cleared.
TEST(FtlHeap, OnlyMemoryHandedOutBeforeIsClearedOnADramZeroedAtPowerOn) {
  for (bool zeroed : {true, false}) {
    SCOPED_TRACE(zeroed ? "DRAM zeroed at power-on" : "DRAM as found");
    hal_arena_reset(size_t(1) << 20);
    std::unique_ptr<ftl> f{new ftl()};
    f->heap = fw_heap{SSD_DRAM_BASE, 1u << 20, 256, zeroed ? 256u : 1u << 20};
    auto* planted = static_cast<uint8_t*>(hal_dram_ptr(SSD_DRAM_BASE + 1024));
    planted[0] = 0xA5;
    auto* a = static_cast<uint8_t*>(fw_alloc(f.get(), 2048, 64));   // [256, 2304): over the planted byte
    EXPECT_EQ(hal_dram_addr(a), SSD_DRAM_BASE + 256);
    EXPECT_EQ(planted[0], zeroed ? 0xA5 : 0x00);
    EXPECT_EQ(f->heap.zero_from, zeroed ? 2304u : 1u << 20);
    for (uint32_t i = 0; i < 2048; i++) a[i] = 0x5A;   // used, then given back
    f->heap.used = 1024;
    auto* b = static_cast<uint8_t*>(fw_alloc(f.get(), 4096, 64));   // [1024, 5120): half used before
    EXPECT_EQ(hal_dram_addr(b), SSD_DRAM_BASE + 1024);
    for (uint32_t i = 0; i < 1280; i++) ASSERT_EQ(b[i], 0) << "byte " << i << " was used before and not cleared";
    EXPECT_EQ(f->heap.zero_from, zeroed ? 5120u : 1u << 20);
  }
}

// The 32-bit OOB versions: the firmware halts with its reason before they could wrap or reach
// erased flash's all ones (recovery would then keep an older version).
TEST(FtlVersions, RunningOutHaltsInsteadOfWrapping) {
  Ftl f;
  f->version_seq = VERSION_LIMIT - 2u * VERSION_STEP;
  EXPECT_EQ(next_version(f.get()), VERSION_LIMIT - VERSION_STEP);
  EXPECT_EQ(next_version(f.get()), VERSION_LIMIT);
  EXPECT_TRUE(hal_arena_halts().empty());
  hal_arena_expect_halts(true);
  next_version(f.get());
  ASSERT_EQ(hal_arena_halts().size(), 1u);
  EXPECT_EQ(hal_arena_halts()[0], SSD_HALT_VERSIONS_EXHAUSTED);
}

TEST(FtlMap, SetMovesValidityAndInvalidates) {
  Ftl f;
  map_set(f.get(), 5, 17);
  EXPECT_EQ(f->l2p[5], 17u);
  EXPECT_EQ(f->p2l[17], 5u);
  EXPECT_EQ(f->sb_valid[2], 1u);
  map_set(f.get(), 5, 40);              // rewrite elsewhere
  EXPECT_EQ(f->p2l[17], NONE32);
  EXPECT_EQ(f->sb_valid[2], 0u);
  EXPECT_EQ(f->sb_valid[5], 1u);
  map_invalidate(f.get(), 40);
  map_invalidate(f.get(), 40);          // twice is harmless
  EXPECT_EQ(f->sb_valid[5], 0u);
}

TEST(FtlBlocks, FreeListsPerPoolAndGcReserve) {
  Ftl f;
  EXPECT_EQ(f->pool[0].free_count, 8u);
  EXPECT_EQ(f->pool[1].free_count, 8u);
  // Host superpages: 4 per superblock; the host may not take the last GC_RESERVE blocks.
  uint32_t host_pages = 0;
  while (blocks_next_superpage(f.get(), 0, 0) != NONE32) host_pages++;
  EXPECT_EQ(host_pages, (8u - GC_RESERVE) * 4u);
  EXPECT_EQ(f->pool[0].free_count, GC_RESERVE);
  // GC may still take the reserve.
  const uint32_t ppa = blocks_next_superpage(f.get(), 0, 1);
  ASSERT_NE(ppa, NONE32);
  EXPECT_EQ(ppa_sb(f.get(), ppa) / f->geo.blocks, 0u);
  // Die 1 untouched; superpage addresses are on die 1's superblocks.
  const uint32_t p1 = blocks_next_superpage(f.get(), 1, 0);
  EXPECT_EQ(sb_die(f.get(), ppa_sb(f.get(), p1)), 1u);
  EXPECT_EQ(p1 % 8, 0u);
  EXPECT_EQ(blocks_next_superpage(f.get(), 1, 0), p1 + 2);
}

// A pSLC cache: each die's first blocks form a pool of their own (SLC mode, half the pages),
// with its own free list; the native pool holds the rest, and GC of one never takes the
// other's blocks.
TEST(FtlBlocks, PslcBlocksFormTheirOwnPoolOnEachDie) {
  Ftl f(600, SSD_GC_GREEDY, 2);
  for (uint32_t d = 0; d < 2; d++) {
    EXPECT_EQ(f->pool[d].die, d);
    EXPECT_EQ(f->pool[d].span_first, d * 8u + 2u);
    EXPECT_EQ(f->pool[d].blocks, 6u);
    EXPECT_EQ(f->pool[d].free_count, 6u);
    EXPECT_EQ(f->pool[d].sb_capacity, 8u);
    EXPECT_EQ(f->pool[2 + d].die, d);
    EXPECT_EQ(f->pool[2 + d].span_first, d * 8u);
    EXPECT_EQ(f->pool[2 + d].span, 2u);   // a static cache: its own blocks only
    EXPECT_EQ(f->pool[2 + d].blocks, 2u);
    EXPECT_EQ(f->pool[2 + d].pages, 2u);
    EXPECT_EQ(f->pool[2 + d].sb_capacity, 4u);
  }
  EXPECT_EQ(sb_pool(f.get(), 0), 2u);
  EXPECT_EQ(sb_pool(f.get(), 1), 2u);
  EXPECT_EQ(sb_pool(f.get(), 2), 0u);
  EXPECT_EQ(sb_pool(f.get(), 9), 3u);
  EXPECT_EQ(sb_pool(f.get(), 10), 1u);
  // The SLC-mode pool of die 1 fills its two superblocks, two superpages each.
  std::vector<uint32_t> ppas;
  for (uint32_t ppa; (ppa = blocks_next_superpage(f.get(), 3, STREAM_GC)) != NONE32;) ppas.push_back(ppa);
  EXPECT_EQ(ppas, (std::vector<uint32_t>{64, 66, 72, 74}));
  EXPECT_EQ(f->pool[3].free_count, 0u);
  EXPECT_EQ(f->pool[1].free_count, 6u);
  // A native superpage of die 1 comes from block 2 on.
  EXPECT_EQ(ppa_sb(f.get(), blocks_next_superpage(f.get(), 1, STREAM_HOST)), 10u);
  // Greedy GC of the native pool never picks the (emptier) SLC-mode blocks.
  for (uint32_t sb = 8; sb < 16; sb++) set_state(f.get(), sb, SB_FULL);
  for (uint32_t sb = 8; sb < 16; sb++) set_valid(f.get(), sb, sb < 10 ? 0u : 5u);
  set_valid(f.get(), 13, 3);
  EXPECT_EQ(gc_pick_victim(f.get(), 1), 13u);
  EXPECT_EQ(gc_pick_victim(f.get(), 3), 8u);   // without placement: greedy there too, a tie
}

TEST(FtlGc, GreedyPicksFewestValidAndSkipsBusyOrOpenBlocks) {
  Ftl f;
  for (uint32_t b = 0; b < 4; b++) set_state(f.get(), b, SB_FULL);
  set_valid(f.get(), 0, 6); set_valid(f.get(), 1, 2); set_valid(f.get(), 2, 8); set_valid(f.get(), 3, 3);
  EXPECT_EQ(gc_pick_victim(f.get(), 0), 1u);
  set_progs(f.get(), 1, 1);   // a program still in flight: never a victim
  EXPECT_EQ(gc_pick_victim(f.get(), 0), 3u);
  set_state(f.get(), 3, SB_OPEN);
  EXPECT_EQ(gc_pick_victim(f.get(), 0), 0u);
  set_valid(f.get(), 0, 8);   // all full of valid data: nothing to gain
  EXPECT_EQ(gc_pick_victim(f.get(), 0), NONE32);
  EXPECT_EQ(gc_pick_victim(f.get(), 1), NONE32);    // other die: nothing full
}

// The victim index (gc/victim_index.h) against a brute-force greedy pick after every one of
// many random changes: pools of 45 superblocks (not a power of two), states, valid counts and
// programs in flight changing as the firmware changes them, ties included (valid counts of 0..8).
TEST(FtlGc, VictimIndexAgreesWithBruteForceAfterRandomChanges) {
  Ftl f(600, SSD_GC_GREEDY, 0, SSD_WBUF_SLOTS, 1, 45);
  std::mt19937 rng(7);
  const uint32_t capacity = f->pool[0].sb_capacity;
  auto brute = [&](uint32_t pool) {
    uint32_t best = NONE32;
    for (uint32_t sb = pool * 45; sb < pool * 45 + 45; sb++) {
      if (f->sb_state[sb] != SB_FULL || f->sb_progs_inflight[sb] || f->sb_valid[sb] >= capacity) continue;
      if (best == NONE32 || f->sb_valid[sb] < f->sb_valid[best]) best = sb;
    }
    return best;
  };
  uint32_t picks = 0;
  for (int step = 0; step < 20000; step++) {
    const uint32_t sb = rng() % 90;
    switch (rng() % 6) {
      case 0: set_state(f.get(), sb, sb_state(rng() % 5)); break;
      case 1: if (f->sb_valid[sb] < capacity) sb_valid_inc(f.get(), sb); break;
      case 2: case 3: if (f->sb_valid[sb] > 0) sb_valid_dec(f.get(), sb); break;   // invalidations dominate
      case 4: if (f->sb_progs_inflight[sb] < 2) sb_progs_inc(f.get(), sb); break;
      default: if (f->sb_progs_inflight[sb] > 0) sb_progs_dec(f.get(), sb); break;
    }
    for (uint32_t pool = 0; pool < 2; pool++) {
      const uint32_t want = brute(pool);
      ASSERT_EQ(victim_index_best(f.get(), pool), want) << "step " << step << " pool " << pool;
      picks += want != NONE32;
    }
  }
  EXPECT_GT(picks, 10000u);   // most steps had a victim to agree on
  // and gc_pick_victim answers from it while the pool has a free superblock
  for (uint32_t sb = 0; sb < 45; sb++) set_state(f.get(), sb, SB_FULL);
  for (uint32_t sb = 0; sb < 45; sb++) set_progs(f.get(), sb, 0);
  for (uint32_t sb = 0; sb < 45; sb++) set_valid(f.get(), sb, 5);
  set_valid(f.get(), 44, 0);
  set_valid(f.get(), 7, 0);
  EXPECT_EQ(gc_pick_victim(f.get(), 0), 7u);
}

TEST(FtlGc, FifoPicksOldestAndCostBenefitWeighsAge) {
  Ftl fifo(600, SSD_GC_FIFO);
  for (uint32_t b = 0; b < 3; b++) set_state(fifo.get(), b, SB_FULL);
  set_valid(fifo.get(), 0, 1); set_valid(fifo.get(), 1, 7); set_valid(fifo.get(), 2, 4);
  fifo->sb_closed_seq[0] = 50; fifo->sb_closed_seq[1] = 10; fifo->sb_closed_seq[2] = 30;
  fifo->write_seq = 100;
  EXPECT_EQ(gc_pick_victim(fifo.get(), 0), 1u);

  Ftl cb(600, SSD_GC_COST_BENEFIT);
  for (uint32_t b = 0; b < 2; b++) set_state(cb.get(), b, SB_FULL);
  cb->write_seq = 1000;
  set_valid(cb.get(), 0, 4); cb->sb_closed_seq[0] = 990;  // half valid, young
  set_valid(cb.get(), 1, 5); cb->sb_closed_seq[1] = 10;   // more valid, much older
  EXPECT_EQ(gc_pick_victim(cb.get(), 0), 1u);
}

TEST(FtlWriteBuffer, IndexSurvivesRandomInsertOverwriteDelete) {
  Ftl f(4096);
  std::map<uint32_t, uint32_t> ref;   // lpa -> slot
  std::mt19937 rng(11);
  // 4000 steps, about 3000 insertions: within the 4096 slots (slots are only freed by program
  // completions, which need the platform).
  for (int i = 0; i < 4000; i++) {
    const uint32_t lpa = rng() % 700;
    if (rng() % 4 == 0) {
      wbuf_discard_lpa(f.get(), lpa);
      ref.erase(lpa);
    } else {
      uint32_t slot;
      ASSERT_TRUE(wbuf_alloc(f.get(), f.part(), 1, &slot));
      wbuf_commit_sector(f.get(), slot, lpa, 1, 0);
      ref[lpa] = slot;
    }
    if (i % 37 == 0)
      for (uint32_t l = 0; l < 700; l++) {
        auto it = ref.find(l);
        ASSERT_EQ(wbuf_lookup(f.get(), l), it == ref.end() ? NONE32 : it->second) << "lpa " << l << " step " << i;
      }
  }
  EXPECT_EQ(f.part()->live_count, ref.size());
}

// The ring (ftl.write_buffer = ring) hands out entries in ring order only, and an entry's
// space comes back only when the sync pointer reaches it: entries given back out of order
// (their programs completed early) stay unusable while an older one is not yet on flash, so
// no entry still waiting for its program is ever handed out again.  The writer's submission
// is stood in for by the test (the platform tests run the real writer).
TEST(FtlRingBuffer, NeverHandsOutAnEntryNotYetGivenBack) {
  Ftl f(600, SSD_GC_GREEDY, 0, SSD_WBUF_RING);
  ASSERT_EQ(f->wb.space, &wbuf_ring);
  std::vector<uint32_t> order;
  for (uint32_t lpa = 0;; lpa++) {
    uint32_t s;
    if (!wbuf_alloc(f.get(), f.part(), 1, &s)) break;
    ASSERT_EQ(s, lpa % 600) << "entries are handed out in ring order";
    wbuf_commit_sector(f.get(), s, lpa, 1, 0);
    order.push_back(s);
  }
  ASSERT_EQ(order.size(), 600u);
  f.part()->ring.inflight = 600;                         // as if the writer had taken them all
  std::mt19937 rng(5);
  std::vector<uint32_t> pending(order.begin() + 1, order.end());   // all but the oldest
  std::shuffle(pending.begin(), pending.end(), rng);
  std::vector<uint8_t> on_flash(600, 0);
  for (size_t i = 0; i < pending.size(); i++) {
    wbuf_map_applied(f.get(), pending[i]);           // its program completed
    on_flash[pending[i]] = 1;
    uint32_t s;
    ASSERT_FALSE(wbuf_alloc(f.get(), f.part(), 1, &s)) << "the oldest entry is not on flash: no space, step " << i;
  }
  EXPECT_EQ(f.part()->ring.used, 600u);
  wbuf_map_applied(f.get(), order[0]);               // the oldest: the sync pointer sweeps all
  EXPECT_EQ(f.part()->ring.used, 0u);
  EXPECT_EQ(f.part()->free_count, 600u);
  // Now out of order again: entries 0..9 handed out, 5..9 given back: nothing comes back
  // until 0..4 are.
  std::vector<uint32_t> got(10);
  ASSERT_TRUE(wbuf_alloc(f.get(), f.part(), 10, got.data()));
  for (uint32_t i = 0; i < 10; i++) wbuf_commit_sector(f.get(), got[i], 1000 + i, 10, 0);
  f.part()->ring.inflight += 10;
  for (uint32_t i = 5; i < 10; i++) wbuf_map_applied(f.get(), got[i]);
  EXPECT_EQ(f.part()->ring.used, 10u);
  for (uint32_t i = 0; i < 5; i++) wbuf_map_applied(f.get(), got[i]);
  EXPECT_EQ(f.part()->ring.used, 0u);
}

// GC pacing (gc/pacing.h), its arithmetic on a pool of 8 superblocks (gc_low_blocks 2,
// gc_high_blocks 3, host reserve 1, superpages of 2 sectors): between the marks GC's copies
// wait once they are ahead of V/I per sector written into the pool (a victim's first
// superpage never waits); at the host reserve host data waits once it is more than a
// superpage ahead of what GC reclaimed; what the last victim left unpaid carries over, at
// most a superpage.
TEST(FtlGcPacing, CopiesAndWritesFollowEachOtherAtTheVictimsRatio) {
  Ftl f;
  f->cfg.gc_pacing = 1;
  ftl* F = f.get();
  pool_state& ps = f->pool[0];
  // Host superpages until the pool is below gc_low_blocks: GC is listed.
  while (ps.free_count >= f->cfg.gc_low_blocks) ASSERT_NE(blocks_next_superpage(F, 0, STREAM_HOST), NONE32);
  ASSERT_EQ(ps.free_count, 1u);
  ASSERT_EQ(f->gc_npools, 1u);
  EXPECT_EQ(ps.pace.consumed, 2u) << "only the superpage that took it below the mark";
  const uint32_t victim = 0;                       // the first superblock the host filled
  set_valid(F, victim, 6);                         // V = 6, I = 2: 3 copies per sector written
  ps.victim = victim;
  gc_pace_victim(F, 0, victim);
  EXPECT_EQ(ps.pace.consumed, 2u) << "no last victim: all of it is owed";
  // Below gc_low_blocks GC is urgent: its copies never wait.
  gc_pace_copied(F, 0, 8);
  EXPECT_FALSE(gc_pace_hold(F, 0));
  // At the host reserve host data waits while it is more than a superpage ahead of GC: 8
  // copied paid for 8 x 2 / 6 = 2.67 sectors, so 4 written may go, 6 may not.
  ASSERT_NE(blocks_next_superpage(F, 0, STREAM_HOST), NONE32);   // 4 written
  EXPECT_FALSE(gc_pace_host_waits(F, 0));
  ASSERT_NE(blocks_next_superpage(F, 0, STREAM_HOST), NONE32);   // 6 written
  EXPECT_TRUE(gc_pace_host_waits(F, 0));
  EXPECT_TRUE(gc_pace_host_waits(F, 0));
  EXPECT_EQ(f->stats->gc_pace_host_waits, 1u) << "a wait is counted once, when it begins";
  gc_pace_copied(F, 0, 4);                         // 12 copied paid for 4: 6 is a superpage ahead
  EXPECT_FALSE(gc_pace_host_waits(F, 0));
  // An erase brings the pool back to gc_low_blocks: from here GC's copies follow the writes.
  blocks_put_free(F, 7);
  ASSERT_EQ(ps.free_count, f->cfg.gc_low_blocks);
  EXPECT_FALSE(gc_pace_host_waits(F, 0)) << "above the reserve host data never waits";
  for (uint32_t copied = 12; copied <= 18; copied += 2) {   // 6 written: 18 copies, one superpage ahead
    EXPECT_FALSE(gc_pace_hold(F, 0)) << copied;
    gc_pace_copied(F, 0, 2);
  }
  EXPECT_TRUE(gc_pace_hold(F, 0));
  EXPECT_TRUE(gc_pace_hold(F, 0));
  EXPECT_EQ(f->stats->gc_pace_holds, 1u) << "a hold is counted once, when it begins";
  ASSERT_NE(blocks_next_superpage(F, 0, STREAM_HOST), NONE32);   // 8 written: 24 copies
  for (uint32_t copied = 20; copied <= 24; copied += 2) {
    EXPECT_FALSE(gc_pace_hold(F, 0)) << copied;
    gc_pace_copied(F, 0, 2);
  }
  EXPECT_TRUE(gc_pace_hold(F, 0));
  EXPECT_EQ(f->stats->gc_pace_holds, 2u);
  const uint64_t consumed = ps.pace.consumed;
  blocks_next_superpage(F, 0, STREAM_GC);          // GC's own copies are not consumption
  EXPECT_EQ(ps.pace.consumed, consumed);
  // The next victim inherits the unpaid writes (26 copied paid for 26 x 2 / 6 = 8), at most
  // a superpage (2 sectors); a victim with nothing valid pays its I.
  ps.pace.consumed = 9;
  gc_pace_victim(F, 0, 1);
  EXPECT_EQ(ps.pace.consumed, 1u);
  EXPECT_EQ(ps.pace.copied, 0u);
  gc_pace_copied(F, 0, 26);
  ps.pace.consumed = 40;
  gc_pace_victim(F, 0, 1);
  EXPECT_EQ(ps.pace.consumed, 2u) << "a superpage at most";
  ps.pace.valid = 0;
  ps.pace.invalid = 8;
  ps.pace.consumed = 9;
  gc_pace_victim(F, 0, 2);
  EXPECT_EQ(ps.pace.consumed, 1u);
  gc_pace_idle(F, 0);
  EXPECT_EQ(ps.pace.consumed, 0u);
  // Without pacing nothing is counted and nothing waits.
  Ftl g;
  while (g->pool[0].free_count > g->host_reserve) blocks_next_superpage(g.get(), 0, STREAM_HOST);
  EXPECT_EQ(g->pool[0].pace.consumed, 0u);
  g->pool[0].victim = 0;
  gc_pace_victim(g.get(), 0, 0);
  gc_pace_copied(g.get(), 0, 8);
  EXPECT_FALSE(gc_pace_hold(g.get(), 0));
  EXPECT_FALSE(gc_pace_host_waits(g.get(), 0));
}

// The write buffer's walk over the pools resumes where it stopped while pool_epoch stands
// (core/ftl.h, struct pool_walk): every change that can let a pool it passed over take host
// data must bump the epoch, and a change that can only keep a pool passed over need not.
TEST(FtlPoolWalk, EveryChangeThatCanLetAPoolTakeHostDataBumpsTheEpoch) {
  Ftl f;
  f->cfg.gc_pacing = 1;
  ftl* F = f.get();
  auto bumps = [&](const char* what, auto&& change) {
    const uint32_t e = F->pool_epoch;
    change();
    EXPECT_NE(F->pool_epoch, e) << what;
  };
  bumps("a stream opens a superblock", [&] { ASSERT_NE(blocks_next_superpage(F, 0, STREAM_HOST), NONE32); });
  const uint32_t open = F->pool[0].host_sb;
  blocks_close(F, open);
  bumps("a stream reopens a superblock", [&] { EXPECT_TRUE(blocks_reopen(F, open, STREAM_HOST, 1)); });
  uint32_t sb = NONE32;
  {
    const uint32_t e = F->pool_epoch;
    sb = blocks_take_free(F, 1);
    ASSERT_NE(sb, NONE32);
    EXPECT_EQ(F->pool_epoch, e) << "a superblock taken only keeps a pool passed over";
  }
  bumps("a superblock joins a free list", [&] { blocks_put_free(F, sb); });
  set_valid(F, 2, 6);
  bumps("GC's pace takes a victim", [&] { gc_pace_victim(F, 0, 2); });
  bumps("GC copies", [&] { gc_pace_copied(F, 0, 4); });
  {
    const uint32_t e = F->pool_epoch;
    gc_pace_consumed(F, 0, 2);
    EXPECT_EQ(F->pool_epoch, e) << "host data consumed only makes the pace wait more";
  }
  bumps("GC's pace goes idle", [&] { gc_pace_idle(F, 0); });
}

// pblk's rate limiter: with free superblocks below ftl.gc_high_blocks per pool, user writes
// get a share of the ring in proportion, never below a stripe and a largest command.
TEST(FtlRingBuffer, RateLimiterShrinksTheUsersShareWhenFreeBlocksAreShort) {
  Ftl f(1200, SSD_GC_GREEDY, 0, SSD_WBUF_RING);
  const uint32_t high = f->cfg.gc_high_blocks * f->geo.pools;   // 6
  f->free_superblocks = high / 2;                                  // half: 600 entries
  uint32_t s, taken = 0;
  while (wbuf_alloc(f.get(), f.part(), 1, &s)) wbuf_commit_sector(f.get(), s, taken++, 1, 0);
  EXPECT_EQ(taken, 600u);
  EXPECT_EQ(f->stats->ring_limiter_holds, 1u);
  EXPECT_EQ(f->stats->ring_user_limit_min, 600u);
  f->free_superblocks = 0;                                         // floor: stripe + MDTS
  EXPECT_EQ(f.part()->ring.stripe, f->geo.unit * f->geo.dies);
  Ftl g(1200, SSD_GC_GREEDY, 0, SSD_WBUF_RING);
  g->free_superblocks = 0;
  taken = 0;
  while (wbuf_alloc(g.get(), g.part(), 1, &s)) wbuf_commit_sector(g.get(), s, taken++, 1, 0);
  EXPECT_EQ(taken, g.part()->ring.stripe + SSD_MDTS_SECTORS);
  g->free_superblocks = high;                                      // enough again: the whole ring
  while (wbuf_alloc(g.get(), g.part(), 1, &s)) wbuf_commit_sector(g.get(), s, taken++, 1, 0);
  EXPECT_EQ(taken, 1200u);
}

// LAPT: the paper's sorted list, kept as a brute-force model beside the table: every block's
// counter (saturating at -31 and 30), a stable order among equal counters by the tie order
// (oldest first: a block reaching a value goes behind those there; recent first: in front),
// and the SLC-writable blocks, exactly the first N of that order.  Random counter sets with
// many ties; N from 0 to beyond the block count; both tie orders.
namespace {

struct LaptModel {
  std::vector<int> value;
  std::vector<uint32_t> order;   // rank order, first = hottest
  uint32_t tie;
  LaptModel(uint32_t n, uint32_t tie_order) : value(n, 0), tie(tie_order) {
    for (uint32_t b = 0; b < n; b++) order.push_back(b);
  }
  void change(uint32_t b, int v) {
    if (v == value[b]) return;
    order.erase(std::find(order.begin(), order.end(), b));
    value[b] = v;
    // the stable sort by counter, b placed among its equals by the tie order
    size_t at = 0;
    if (tie == LAPT_TIE_RECENT_FIRST)
      while (at < order.size() && value[order[at]] > v) at++;
    else
      while (at < order.size() && value[order[at]] >= v) at++;
    order.insert(order.begin() + long(at), b);
  }
};

void run_lapt_against_model(uint32_t nblocks, uint32_t top_n, uint32_t tie, unsigned seed) {
  std::vector<uint8_t> mem(lapt_bytes_for(nblocks) + 8);
  lapt t{};
  lapt_init(&t, mem.data(), nblocks * 128u - 5u, 128u, top_n, tie);
  ASSERT_EQ(t.nblocks, nblocks);
  LaptModel m(nblocks, tie);
  std::mt19937 rng(seed);
  for (int step = 0; step < 20000; step++) {
    const uint32_t b = rng() % nblocks;
    // Skewed: a few blocks mostly written, the rest mostly read, so counters spread out, reach
    // both bounds and tie often.
    const bool write = (b % 5 == 0) ? rng() % 10 < 9 : rng() % 10 < 3;
    const uint32_t lpa = b * 128u + rng() % 128u;
    if (lpa >= nblocks * 128u - 5u) continue;
    if (write) {
      lapt_note_write(&t, lpa);
      m.change(b, std::min(m.value[b] + 1, 30));
    } else {
      lapt_note_read(&t, lpa);
      m.change(b, std::max(m.value[b] - 1, -31));
    }
    if (step % 97 != 0 && step != 19999) continue;
    uint32_t writable = 0;
    for (uint32_t pos = 0; pos < nblocks; pos++) {
      const uint32_t x = m.order[pos];
      ASSERT_EQ(int(t.value[x]), m.value[x]) << "block " << x;
      ASSERT_EQ(lapt_position(&t, x), pos) << "block " << x << " of " << nblocks << " at step " << step;
      ASSERT_EQ(lapt_slc_writable(&t, x), pos < top_n ? 1 : 0)
          << "block " << x << " at position " << pos << ", N " << top_n << ", step " << step;
      writable += lapt_slc_writable(&t, x);
    }
    ASSERT_EQ(writable, std::min(top_n, nblocks));
  }
}

}  // namespace

TEST(Lapt, OrdinalRankAgreesWithAStableSortOldestFirst) {
  for (const uint32_t nblocks : {1u, 7u, 64u, 300u})
    for (const uint32_t top_n : {0u, 1u, 5u, 16u, 64u, 400u}) run_lapt_against_model(nblocks, top_n, LAPT_TIE_OLDEST_FIRST, nblocks * 7 + top_n);
}

TEST(Lapt, OrdinalRankAgreesWithAStableSortRecentFirst) {
  for (const uint32_t nblocks : {1u, 7u, 64u, 300u})
    for (const uint32_t top_n : {0u, 1u, 5u, 16u, 64u, 400u}) run_lapt_against_model(nblocks, top_n, LAPT_TIE_RECENT_FIRST, nblocks * 11 + top_n);
}

// A table whose counters are all saturated (every block written 30 times and more): ties
// everywhere, and still exactly N blocks are SLC-writable (the competition rank made them all).
TEST(Lapt, SaturatedTableHasExactlyNSlcWritableBlocks) {
  for (const uint32_t tie : {LAPT_TIE_OLDEST_FIRST, LAPT_TIE_RECENT_FIRST}) {
    const uint32_t nblocks = 100, top_n = 16;
    std::vector<uint8_t> mem(lapt_bytes_for(nblocks));
    lapt t{};
    lapt_init(&t, mem.data(), nblocks * 64u, 64u, top_n, tie);
    for (int round = 0; round < 40; round++)
      for (uint32_t b = 0; b < nblocks; b++) lapt_note_write(&t, b * 64u);
    uint32_t writable = 0;
    for (uint32_t b = 0; b < nblocks; b++) {
      EXPECT_EQ(t.value[b], 30);
      writable += lapt_slc_writable(&t, b);
    }
    EXPECT_EQ(writable, top_n);
    // oldest first: the first 16 to reach 30 (blocks 0..15, written first in the last round
    // that changed them); recent first: the last 16 (84..99).
    for (uint32_t b = 0; b < nblocks; b++)
      EXPECT_EQ(lapt_slc_writable(&t, b), tie == LAPT_TIE_OLDEST_FIRST ? b < top_n : b >= nblocks - top_n) << b;
  }
}

TEST(Lapt, HotterBlocksRankFirst) {
  std::vector<uint8_t> mem(lapt_bytes_for(4));
  lapt t{};
  lapt_init(&t, mem.data(), 4 * 64, 64, 2, LAPT_TIE_OLDEST_FIRST);
  EXPECT_TRUE(lapt_slc_writable(&t, 0) && lapt_slc_writable(&t, 1));   // all tied at 0: index order
  EXPECT_FALSE(lapt_slc_writable(&t, 2) || lapt_slc_writable(&t, 3));
  lapt_note_write(&t, 2 * 64 + 3);
  lapt_note_write(&t, 2 * 64 + 4);
  lapt_note_write(&t, 1 * 64);
  lapt_note_read(&t, 3 * 64 + 63);
  EXPECT_EQ(lapt_position(&t, 2), 0u);   // +2
  EXPECT_EQ(lapt_position(&t, 1), 1u);   // +1
  EXPECT_EQ(lapt_position(&t, 0), 2u);   //  0
  EXPECT_EQ(lapt_position(&t, 3), 3u);   // -1
  EXPECT_TRUE(lapt_slc_writable(&t, 2) && lapt_slc_writable(&t, 1));
  EXPECT_FALSE(lapt_slc_writable(&t, 0) || lapt_slc_writable(&t, 3));
  EXPECT_EQ(lapt_bytes(&t), lapt_bytes_for(4) + sizeof(lapt));
}
