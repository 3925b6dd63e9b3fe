#include "models/common/latency_histogram.h"

#include <algorithm>
#include <cmath>

namespace ssdvp {

namespace {
constexpr uint32_t kExact = 128, kSub = 64, kBuckets = kExact + 57 * kSub;
}

LatencyHistogram::LatencyHistogram() : buckets_(kBuckets, 0) {}

uint32_t LatencyHistogram::bucket_of(uint64_t v) {
  if (v < kExact) return uint32_t(v);
  const uint32_t msb = 63u - uint32_t(__builtin_clzll(v));
  const uint32_t shift = msb - 6u;  // v >> shift in [64, 127]
  return kExact + (shift - 1u) * kSub + uint32_t((v >> shift) - kSub);
}

uint64_t LatencyHistogram::bucket_low(uint32_t b) {
  if (b < kExact) return b;
  const uint32_t shift = (b - kExact) / kSub + 1u;
  return (uint64_t((b - kExact) % kSub) + kSub) << shift;
}

uint64_t LatencyHistogram::bucket_high(uint32_t b) {
  if (b < kExact) return b + 1u;
  const uint32_t shift = (b - kExact) / kSub + 1u;
  return bucket_low(b) + (uint64_t(1) << shift);
}

void LatencyHistogram::record(uint64_t ns) {
  buckets_[bucket_of(ns)]++;
  count_++;
  sum_ += ns;
  min_ = std::min(min_, ns);
  max_ = std::max(max_, ns);
}

void LatencyHistogram::merge(const LatencyHistogram& o) {
  for (size_t i = 0; i < buckets_.size(); i++) buckets_[i] += o.buckets_[i];
  count_ += o.count_;
  sum_ += o.sum_;
  min_ = std::min(min_, o.min_);
  max_ = std::max(max_, o.max_);
}

uint64_t LatencyHistogram::percentile(double p) const {
  if (count_ == 0) return 0;
  uint64_t rank = uint64_t(std::ceil(p / 100.0 * double(count_)));
  rank = std::clamp<uint64_t>(rank, 1, count_);
  uint64_t seen = 0;
  for (uint32_t b = 0; b < buckets_.size(); b++) {
    seen += buckets_[b];
    if (seen >= rank) {
      const uint64_t mid = b < kExact ? b : (bucket_low(b) + bucket_high(b)) / 2;
      return std::clamp(mid, min_, max_);
    }
  }
  return max_;
}

void LatencyHistogram::write_csv(std::ostream& out) const {
  out << "low_ns,high_ns,count,cumulative\n";
  uint64_t seen = 0;
  for (uint32_t b = 0; b < buckets_.size(); b++) {
    if (!buckets_[b]) continue;
    seen += buckets_[b];
    out << bucket_low(b) << "," << bucket_high(b) << "," << buckets_[b] << ","
        << double(seen) / double(count_) << "\n";
  }
}

}  // namespace ssdvp
