// The read-ahead pieces on their own: the pattern analyser's tree (main pattern, branching,
// re-entry, root drop, the sequential rule, prediction, its memory budget) and the read
// cache's LRU order, pins and invalidation.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <vector>

#include "hal_arena.h"

extern "C" {
#include "ftl-sw/readahead/pattern_tree.h"
}

namespace {

struct Tree {
  std::vector<uint32_t> mem;
  pattern_tree t{};
  Tree(uint32_t m, uint32_t n, uint32_t seq_run = 200, uint32_t min_repeats = 2, uint32_t bytes = 1u << 16) {
    mem.resize(bytes / 4);
    pt_init(&t, mem.data(), bytes, m, n, seq_run, min_repeats);
  }
  void feed(std::initializer_list<uint32_t> addrs) {
    for (uint32_t a : addrs) pt_note(&t, a, 1);
  }
  uint32_t root_addr() const { return t.node[t.root].addr; }
  uint32_t cursor_addr() const { return t.node[t.cursor].addr; }
  // The node reached from the root along `path` (its first element is the root's address).
  uint32_t at(std::initializer_list<uint32_t> path) const {
    auto it = path.begin();
    if (t.root == PT_NONE || t.node[t.root].addr != *it) return PT_NONE;
    uint32_t n = t.root;
    for (++it; it != path.end() && n != PT_NONE; ++it) n = pt_child(&t, n, *it);
    return n;
  }
  bool predicts(uint32_t* addr, int* sequential = nullptr) const {
    uint32_t len;
    int seq;
    bool yes = pt_predict(&t, addr, &len, &seq) != 0;
    if (sequential) *sequential = seq;
    return yes;
  }
};

}  // namespace

// The paper's example sizes (m = n = 5): the first five addresses are the main pattern in
// order; a later pattern re-enters at the root and branches off where it diverges.
TEST(PatternTree, FirstNAddressesFormTheMainPatternAndLaterOnesBranch) {
  Tree tr(5, 5);
  tr.feed({1, 2, 3, 5, 7});
  ASSERT_NE(tr.at({1, 2, 3, 5, 7}), PT_NONE);
  EXPECT_EQ(pt_depth_of(&tr.t, tr.at({1, 2, 3, 5, 7})), 5u);
  EXPECT_EQ(tr.t.leaves, 1u);
  tr.feed({1});                      // the pattern is n long: a new one starts at the root
  EXPECT_EQ(tr.t.cursor, tr.t.root);
  tr.feed({3, 4});                   // diverges at the root: a second branch
  EXPECT_NE(tr.at({1, 3, 4}), PT_NONE);
  EXPECT_EQ(tr.t.leaves, 2u);
  EXPECT_EQ(tr.t.used, 7u);
}

// An address with no place (pattern at depth n, address nowhere in the tree) drops the root
// and its branches; the longest remaining branch is the main pattern; later the same happens
// to a branch that grew longer than the main pattern.
TEST(PatternTree, AnAddressWithNoPlaceDropsTheRootAndKeepsTheLongestBranch) {
  Tree tr(5, 5);
  tr.feed({1, 2, 3, 5, 7, 1, 3, 4, 4, 9});   // main 1 2 3 5 7; branch 1 3 4 4 9
  ASSERT_NE(tr.at({1, 3, 4, 4, 9}), PT_NONE);
  tr.feed({8});
  EXPECT_EQ(tr.t.drops, 1u);
  EXPECT_EQ(tr.root_addr(), 2u);             // main pattern now 2 3 5 7
  EXPECT_NE(tr.at({2, 3, 5, 7}), PT_NONE);
  EXPECT_NE(tr.at({2, 8}), PT_NONE);          // the cursor was dropped: 8 branches off the root
  EXPECT_EQ(tr.t.used, 5u);                    // 1 and the branch 3 4 4 9 are free again
  tr.feed({10, 11, 12});                      // branch 2 8 10 11 12: longer than the main
  tr.feed({13});
  EXPECT_EQ(tr.t.drops, 2u);
  EXPECT_EQ(tr.root_addr(), 8u);
  EXPECT_NE(tr.at({8, 10, 11, 12, 13}), PT_NONE);
  EXPECT_EQ(tr.t.used, 5u);
  EXPECT_EQ(tr.t.leaves, 1u);
}

// m bounds the branches: with m = 2, a third divergence cannot branch off the root; the
// address is nowhere in the tree, so the root goes instead.
TEST(PatternTree, BranchesStayWithinM) {
  Tree tr(2, 4);
  tr.feed({1, 2, 3, 4, 1, 5, 6, 7, 1});
  EXPECT_EQ(tr.t.leaves, 2u);
  EXPECT_EQ(tr.t.cursor, tr.t.root);
  tr.feed({9});
  EXPECT_EQ(tr.t.drops, 1u);
  EXPECT_EQ(tr.root_addr(), 2u);              // main pattern 2 3 4 (branch 5 6 7 went with 1)
  EXPECT_NE(tr.at({2, 9}), PT_NONE);
  EXPECT_EQ(tr.at({1}), PT_NONE);
  EXPECT_EQ(tr.t.leaves, 2u);
  EXPECT_EQ(tr.t.used, 4u);
}

// A branch predicts once the input has taken it min_repeats times.
TEST(PatternTree, PredictsTheMostFollowedBranchAfterMinRepeats) {
  Tree twice(5, 5, 200, 2);
  twice.feed({5, 6, 7, 8, 9, 5});
  uint32_t next = 0;
  EXPECT_FALSE(twice.predicts(&next));        // 5 -> 6 seen once
  twice.feed({6, 7, 8, 9, 5});
  ASSERT_TRUE(twice.predicts(&next));
  EXPECT_EQ(next, 6u);
  Tree once(5, 5, 200, 1);
  once.feed({5, 6, 7, 8, 9, 5});
  ASSERT_TRUE(once.predicts(&next));
  EXPECT_EQ(next, 6u);
  // The most-followed child wins: 5 -> 6 twice, 5 -> 4 three times.
  Tree best(5, 3, 200, 1);
  best.feed({5, 6, 1, 5, 6, 1, 5, 4, 2, 5, 4, 2, 5, 4, 2, 5});
  ASSERT_TRUE(best.predicts(&next));
  EXPECT_EQ(next, 4u);
}

// n consecutive sequential requests predict sequentially (the paper's 200; 3 here).
TEST(PatternTree, SequentialRunPredictsTheNextAddress) {
  Tree tr(16, 16, 3, 2);
  uint32_t next = 0;
  int sequential = 0;
  tr.feed({40, 10, 11, 12});
  EXPECT_FALSE(tr.predicts(&next));           // two in a row
  tr.feed({13});
  ASSERT_TRUE(tr.predicts(&next, &sequential));
  EXPECT_TRUE(sequential);
  EXPECT_EQ(next, 14u);
  tr.feed({30});                               // the run breaks
  EXPECT_FALSE(tr.predicts(&next));
  // Requests longer than one address: sequential means starting where the last one ended.
  Tree longer(16, 16, 2, 2);
  pt_note(&longer.t, 100, 8);
  pt_note(&longer.t, 108, 8);
  pt_note(&longer.t, 116, 8);
  uint32_t len = 0;
  ASSERT_TRUE(pt_predict(&longer.t, &next, &len, &sequential));
  EXPECT_EQ(next, 124u);
  EXPECT_EQ(len, 8u);
}

// A long random run never takes more nodes than the budget, and the tree stays consistent.
TEST(PatternTree, MemoryBudgetHoldsOnALongRandomRun) {
  const uint32_t bytes = 20000;
  Tree tr(4096, 4096, 200, 2, bytes);
  EXPECT_LE(pt_bytes_for(tr.t.nnodes), bytes);
  EXPECT_GT(pt_bytes_for(tr.t.nnodes + 1), bytes);
  std::mt19937 rng(7);
  std::uniform_int_distribution<uint32_t> pick(0, 5000);
  for (int i = 0; i < 200000; i++) pt_note(&tr.t, pick(rng), 1);
  EXPECT_EQ(tr.t.used_max, tr.t.nnodes);
  EXPECT_LE(tr.t.used, tr.t.nnodes);
  EXPECT_GT(tr.t.drops, 0u);
  // Every used node is reachable from the root exactly once.
  uint32_t reachable = 0;
  std::vector<uint32_t> stack{tr.t.root};
  while (!stack.empty()) {
    uint32_t n = stack.back();
    stack.pop_back();
    reachable++;
    for (uint32_t c = tr.t.node[n].child; c != PT_NONE; c = tr.t.node[c].sibling) {
      ASSERT_EQ(tr.t.node[c].parent, n);
      ASSERT_EQ(pt_child(&tr.t, n, tr.t.node[c].addr), c);
      stack.push_back(c);
    }
  }
  EXPECT_EQ(reachable, tr.t.used);
}

namespace {

struct Cache {
  std::unique_ptr<ftl> f{new ftl()};
  explicit Cache(uint32_t entries) {
    hal_arena_reset(16u << 20);
    f->heap = fw_heap{SSD_DRAM_BASE, 16u << 20, 0, 16u << 20};
    f->stats = static_cast<ssd_fw_stats*>(fw_alloc(f.get(), sizeof(ssd_fw_stats), 64));
    rc_init(f.get(), entries);
  }
  read_cache* rc() { return &f->ra.rc; }
  uint32_t fill(uint32_t lpa, uint8_t flags = 0) {
    uint32_t i = rc_alloc(f.get(), lpa, flags);
    if (i != NONE32) rc_fill_done(f.get(), i, SSD_FST_OK, 1);
    return i;
  }
  // A host read of a cached sector: pinned while its data goes out, then kept (LRU).
  void read(uint32_t lpa) {
    uint32_t i = rc_lookup(rc(), lpa);
    ASSERT_NE(i, NONE32);
    rc_pin(rc(), i);
    rc_unpin(f.get(), i, 1);
  }
};

}  // namespace

TEST(ReadCache, ReplacesTheLeastRecentlyUsedSector) {
  Cache c(3);
  c.fill(10);
  c.fill(11);
  c.fill(12);
  c.read(10);                                  // 11 is now the least recently used
  c.fill(13);
  EXPECT_EQ(rc_lookup(c.rc(), 11), NONE32);
  EXPECT_NE(rc_lookup(c.rc(), 10), NONE32);
  c.fill(14);                                  // then 12
  EXPECT_EQ(rc_lookup(c.rc(), 12), NONE32);
  EXPECT_NE(rc_lookup(c.rc(), 10), NONE32);
  EXPECT_NE(rc_lookup(c.rc(), 13), NONE32);
}

TEST(ReadCache, PinnedSectorsAreNeverReplaced) {
  Cache c(2);
  uint32_t a = c.fill(1);
  c.fill(2);
  rc_pin(c.rc(), a);                           // a host DMA reads it
  c.fill(3);                                   // replaces 2, the only unpinned one
  EXPECT_NE(rc_lookup(c.rc(), 1), NONE32);
  EXPECT_EQ(rc_lookup(c.rc(), 2), NONE32);
  uint32_t b = rc_lookup(c.rc(), 3);
  rc_pin(c.rc(), b);
  EXPECT_EQ(rc_alloc(c.f.get(), 4, 0), NONE32);   // everything pinned
  EXPECT_EQ(rc_entry_of(c.rc(), rc_addr(c.rc(), b)), b);
  EXPECT_EQ(rc_entry_of(c.rc(), rc_addr(c.rc(), 0) - 4096u), NONE32);
}

// A write or trim makes cached data unreachable at once; a pinned entry is freed with its
// last pin, and counts as a wasted read-ahead if the host never read it.
TEST(ReadCache, InvalidationHidesPinnedDataAndFreesItLater) {
  Cache c(4);
  uint32_t a = c.fill(7);
  rc_pin(c.rc(), a);
  uint32_t p = rc_alloc(c.f.get(), 8, RC_PREFETCHED);   // a read-ahead still in flight
  rc_invalidate(c.f.get(), 6, 3);
  EXPECT_EQ(rc_lookup(c.rc(), 7), NONE32);
  EXPECT_EQ(rc_lookup(c.rc(), 8), NONE32);
  EXPECT_EQ(c.rc()->free_count, 2u);
  rc_unpin(c.f.get(), a, 1);
  rc_fill_done(c.f.get(), p, SSD_FST_OK, 1);
  EXPECT_EQ(c.rc()->free_count, 4u);
  EXPECT_EQ(c.f->stats->ra_prefetch_wasted, 1u);
  EXPECT_EQ(c.f->stats->ra_invalidated_sectors, 2u);
  c.fill(7);                                   // read again: the new data is cached
  EXPECT_NE(rc_lookup(c.rc(), 7), NONE32);
}
