#include "models/host/host_series.h"

#include <fmt/format.h>

namespace ssdvp {

void HostSeries::close_open_interval() {
  if (open_ >= buckets_.size()) return;
  Bucket& b = buckets_[open_];
  for (size_t k = 0; k < kOps; k++) {
    if (!open_latency_[k].count()) continue;
    b.p50_ns[k] = open_latency_[k].percentile(50);
    b.p99_ns[k] = open_latency_[k].percentile(99);
    open_latency_[k] = LatencyHistogram();
  }
}

void HostSeries::record(workload::Op op, uint64_t t_ns, uint64_t bytes, uint64_t latency_ns) {
  if (!on()) return;
  const size_t i = std::max(size_t(t_ns / interval_ns_), open_);
  if (i != open_) {
    close_open_interval();
    open_ = i;
  }
  if (i >= buckets_.size()) buckets_.resize(i + 1);
  buckets_[i].bytes[size_t(op)] += bytes;
  buckets_[i].requests[size_t(op)]++;
  open_latency_[size_t(op)].record(latency_ns);
}

void HostSeries::write_csv(std::ostream& out) const {
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

nlohmann::json HostSeries::ops_json() const {
  const double per_s = 1e9 / double(interval_ns_);
  nlohmann::json ops = nlohmann::json::object();
  for (size_t k = 0; k < kOps; k++) {
    uint64_t total = 0;
    for (const Bucket& b : buckets_) total += b.requests[k];
    if (!total) continue;
    nlohmann::json requests = nlohmann::json::array(), bytes = requests, iops = requests, mib_s = requests,
                   p50 = requests, p99 = requests;
    for (size_t i = 0; i < buckets_.size(); i++) {
      const Bucket& b = buckets_[i];
      requests.push_back(b.requests[k]);
      bytes.push_back(b.bytes[k]);
      iops.push_back(double(b.requests[k]) * per_s);
      mib_s.push_back(double(b.bytes[k]) * per_s / 1048576.0);
      const bool open = i == open_;
      if (!b.requests[k]) {
        p50.push_back(nullptr);
        p99.push_back(nullptr);
      } else {
        p50.push_back(double(open ? open_latency_[k].percentile(50) : b.p50_ns[k]) / 1e3);
        p99.push_back(double(open ? open_latency_[k].percentile(99) : b.p99_ns[k]) / 1e3);
      }
    }
    ops[workload::op_name(workload::Op(k))] = {{"requests", requests}, {"bytes", bytes}, {"iops", iops}, {"mib_s", mib_s},
                     {"p50_us", p50}, {"p99_us", p99}};
  }
  return ops;
}

}  // namespace ssdvp
