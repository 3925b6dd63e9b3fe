// Latency histogram: exact count/mean/min/max, percentiles within the bucket error.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <sstream>
#include <vector>

#include "models/common/latency_histogram.h"

using ssdvp::LatencyHistogram;

TEST(LatencyHistogram, BucketsAreContiguousAndNarrow) {
  for (uint32_t b = 0; b + 1 < 3776; b++) {
    ASSERT_EQ(LatencyHistogram::bucket_high(b), LatencyHistogram::bucket_low(b + 1)) << b;
    ASSERT_EQ(LatencyHistogram::bucket_of(LatencyHistogram::bucket_low(b)), b);
    if (b >= 128) {
      const double w = double(LatencyHistogram::bucket_high(b) - LatencyHistogram::bucket_low(b));
      ASSERT_LE(w / double(LatencyHistogram::bucket_low(b)), 1.0 / 64 + 1e-12);
    }
  }
}

TEST(LatencyHistogram, PercentilesMatchSortedData) {
  std::mt19937_64 rng(3);
  std::lognormal_distribution<double> dist(11.0, 1.5);
  std::vector<uint64_t> v;
  LatencyHistogram h;
  for (int i = 0; i < 200000; i++) {
    uint64_t x = uint64_t(dist(rng));
    v.push_back(x);
    h.record(x);
  }
  std::sort(v.begin(), v.end());
  for (double p : {50.0, 90.0, 99.0, 99.9, 99.99}) {
    const uint64_t exact = v[size_t(std::ceil(p / 100 * v.size())) - 1];
    EXPECT_NEAR(double(h.percentile(p)), double(exact), double(exact) * 0.01 + 1) << p;
  }
  EXPECT_EQ(h.max(), v.back());
  EXPECT_EQ(h.min(), v.front());
  EXPECT_EQ(h.count(), v.size());
  std::ostringstream csv;
  h.write_csv(csv);
  EXPECT_EQ(csv.str().rfind("low_ns,high_ns,count,cumulative\n", 0), 0u);
}

TEST(LatencyHistogram, SmallValuesAreExact) {
  LatencyHistogram h;
  for (uint64_t i = 1; i <= 100; i++) h.record(i);
  EXPECT_EQ(h.percentile(50), 50u);
  EXPECT_EQ(h.percentile(100), 100u);
  EXPECT_DOUBLE_EQ(h.mean(), 50.5);
}
