// Latency histogram with bounded relative error (log-linear buckets: exact below 128 ns,
// then 64 buckets per power of two, < 1.6% bucket width), exact count, mean, min and max.
// Percentiles return the middle of the bucket holding that rank, clamped to [min, max].
#pragma once

#include <cstdint>
#include <ostream>
#include <vector>

namespace ssdvp {

class LatencyHistogram {
 public:
  LatencyHistogram();
  void record(uint64_t ns);
  void merge(const LatencyHistogram& o);

  uint64_t count() const { return count_; }
  double mean() const { return count_ ? double(sum_) / double(count_) : 0.0; }
  uint64_t min() const { return count_ ? min_ : 0; }
  uint64_t max() const { return max_; }
  // p in [0, 100].
  uint64_t percentile(double p) const;
  // CSV: low_ns,high_ns,count,cumulative (only non-empty buckets).
  void write_csv(std::ostream& out) const;

  static uint32_t bucket_of(uint64_t ns);
  static uint64_t bucket_low(uint32_t b);
  static uint64_t bucket_high(uint32_t b);  // exclusive

 private:
  std::vector<uint64_t> buckets_;
  uint64_t count_ = 0, sum_ = 0, min_ = UINT64_MAX, max_ = 0;
};

}  // namespace ssdvp
