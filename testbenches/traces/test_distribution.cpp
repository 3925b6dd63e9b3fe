// Building blocks of the generators: the block scrambler is a bijection, the zipf sampler
// follows k^-theta, the random numbers are exact and reproducible.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "traces/block_scrambler.h"
#include "traces/random.h"
#include "traces/zipf_sampler.h"

namespace ssdvp::workload::test {
namespace {

TEST(BlockScrambler, IsABijectionOfTheRange) {
  for (const uint64_t range : {1ull, 2ull, 3ull, 5ull, 1000ull, 4096ull, 4097ull, 65537ull}) {
    const BlockScrambler scramble(range, 42);
    std::vector<bool> hit(range, false);
    for (uint64_t i = 0; i < range; ++i) {
      const uint64_t block = scramble(i);
      ASSERT_LT(block, range);
      ASSERT_FALSE(hit[block]) << "range " << range << " index " << i;
      hit[block] = true;
    }
  }
}

TEST(BlockScrambler, KeyChangesThePermutation) {
  const BlockScrambler a(100000, 1);
  const BlockScrambler b(100000, 2);
  int same = 0;
  for (uint64_t i = 0; i < 1000; ++i) same += a(i) == b(i);
  EXPECT_LT(same, 10);
}

TEST(ZipfSampler, FollowsPowerLaw) {
  for (const double theta : {0.5, 1.0, 1.2, 2.0}) {
    constexpr uint64_t kRanks = 100;
    constexpr int kSamples = 400000;
    const ZipfSampler zipf(kRanks, theta);
    Rng rng(7);
    std::vector<int> counts(kRanks + 1, 0);
    for (int i = 0; i < kSamples; ++i) {
      const uint64_t rank = zipf.sample(rng);
      ASSERT_GE(rank, 1u);
      ASSERT_LE(rank, kRanks);
      ++counts[rank];
    }
    double norm = 0;
    for (uint64_t k = 1; k <= kRanks; ++k) norm += std::pow(static_cast<double>(k), -theta);
    // Every rank expected at least 100 times is within 5 binomial standard deviations of
    // k^-theta / norm (a rank with no hits fails: 5 sigma is at most half of 100); the
    // remaining tail as a whole likewise.
    double tail_expected = 0;
    int tail_counted = 0;
    for (uint64_t k = 1; k <= kRanks; ++k) {
      const double p = std::pow(static_cast<double>(k), -theta) / norm;
      if (p * kSamples < 100) {
        tail_expected += p;
        tail_counted += counts[k];
        continue;
      }
      const double sigma = std::sqrt(p * (1 - p) / kSamples);
      EXPECT_NEAR(counts[k] / static_cast<double>(kSamples), p, 5 * sigma) << "theta " << theta << " rank " << k;
    }
    const double tail_sigma = std::sqrt(tail_expected * (1 - tail_expected) / kSamples);
    EXPECT_NEAR(tail_counted / static_cast<double>(kSamples), tail_expected, 5 * tail_sigma + 1e-12)
        << "theta " << theta << " tail";
  }
}

TEST(Rng, BelowIsUniformAndSeeded) {
  Rng a(5);
  Rng b(5);
  Rng c(6);
  EXPECT_EQ(a.next(), b.next());
  EXPECT_NE(a.next(), c.next());
  std::vector<int> counts(3, 0);
  for (int i = 0; i < 30000; ++i) ++counts[a.below(3)];
  for (const int count : counts) EXPECT_NEAR(count, 10000, 400);
  for (int i = 0; i < 1000; ++i) {
    const double u = a.unit();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
  }
}

}  // namespace
}  // namespace ssdvp::workload::test
