// The host's figures over simulated time: the bytes, requests and latency (p50, p99) of each
// operation that completed in every fixed interval of the measured phase
// (sim.series_interval_ms); written as run.json's series.ops and as throughput.csv.  This is
// the curve drive reviews plot (write speed over a long write falling off when an SLC cache
// fills, latency rising when GC starts).
// Leaves out: the device's figures over time (the platform samples them: run.json
// series.device), percentiles other than p50 and p99.
#pragma once

#include <array>
#include <cstdint>
#include <ostream>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/common/latency_histogram.h"
#include "traces/workload.h"

namespace ssdvp {

class HostSeries {
 public:
  explicit HostSeries(uint64_t interval_ns = 0) : interval_ns_(interval_ns) {}
  bool on() const { return interval_ns_ != 0; }
  uint64_t interval_ns() const { return interval_ns_; }
  // A request of `op` moving `bytes` completed `t_ns` after the measured phase began, with
  // this latency.  Completions come in time order.
  void record(workload::Op op, uint64_t t_ns, uint64_t bytes, uint64_t latency_ns);
  size_t intervals() const { return buckets_.size(); }
  // One row per interval up to the last completion: t_ms (the interval's end), then per
  // operation MiB/s and requests/s; the last interval may be partial (its rate is over the
  // whole interval).
  void write_csv(std::ostream& out) const;
  // Per operation that had requests: columns over the intervals of requests, bytes, iops,
  // mib_s, p50_us and p99_us (null in an interval without a completion of the operation).
  nlohmann::json ops_json() const;

 private:
  static constexpr size_t kOps = workload::kOps;
  struct Bucket {
    uint64_t bytes[kOps] = {};
    uint64_t requests[kOps] = {};
    uint64_t p50_ns[kOps] = {}, p99_ns[kOps] = {};
  };
  void close_open_interval();
  uint64_t interval_ns_;
  std::vector<Bucket> buckets_;
  // The interval completions go to now: its latencies, until a later one opens.
  size_t open_ = 0;
  std::array<LatencyHistogram, kOps> open_latency_;
};

}  // namespace ssdvp
