#include "models/host/throughput_series.h"

#include <fmt/format.h>

namespace ssdvp {

void ThroughputSeries::record(workload::Op op, uint64_t t_ns, uint64_t bytes) {
  if (!on()) return;
  const size_t i = size_t(t_ns / interval_ns_);
  if (i >= buckets_.size()) buckets_.resize(i + 1);
  buckets_[i].bytes[size_t(op)] += bytes;
  buckets_[i].requests[size_t(op)]++;
}

void ThroughputSeries::write_csv(std::ostream& out) const {
  out << "t_ms,read_mib_s,write_mib_s,read_iops,write_iops,trim_iops,flush_iops\n";
  const double per_s = 1e9 / double(interval_ns_);
  const auto r = size_t(workload::Op::Read), w = size_t(workload::Op::Write);
  for (size_t i = 0; i < buckets_.size(); i++) {
    const Bucket& b = buckets_[i];
    out << fmt::format("{:.6g},{:.6g},{:.6g},{:.6g},{:.6g},{:.6g},{:.6g}\n", double((i + 1) * interval_ns_) / 1e6,
                       double(b.bytes[r]) * per_s / 1048576.0, double(b.bytes[w]) * per_s / 1048576.0,
                       double(b.requests[r]) * per_s, double(b.requests[w]) * per_s,
                       double(b.requests[size_t(workload::Op::Trim)]) * per_s,
                       double(b.requests[size_t(workload::Op::Flush)]) * per_s);
  }
}

}  // namespace ssdvp
