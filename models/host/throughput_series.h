// Host throughput over simulated time: the bytes and requests of each operation that
// completed in every fixed interval of the measured phase (sim.series_interval_ms), written
// as throughput.csv.  This is the curve drive reviews plot (write speed over a long write
// falling off when an SLC cache fills).
// Leaves out: latency per interval, device-side series (GC, cache fill): issue 17's timeline.
#pragma once

#include <cstdint>
#include <ostream>
#include <vector>

#include "traces/workload.h"

namespace ssdvp {

class ThroughputSeries {
 public:
  explicit ThroughputSeries(uint64_t interval_ns = 0) : interval_ns_(interval_ns) {}
  bool on() const { return interval_ns_ != 0; }
  uint64_t interval_ns() const { return interval_ns_; }
  // A request of `op` moving `bytes` completed `t_ns` after the measured phase began.
  void record(workload::Op op, uint64_t t_ns, uint64_t bytes);
  size_t intervals() const { return buckets_.size(); }
  // One row per interval up to the last completion: t_ms (the interval's end), then per
  // operation MiB/s and requests/s; the last interval may be partial (its rate is over the
  // whole interval).
  void write_csv(std::ostream& out) const;

 private:
  struct Bucket {
    uint64_t bytes[4] = {0, 0, 0, 0};
    uint64_t requests[4] = {0, 0, 0, 0};
  };
  uint64_t interval_ns_;
  std::vector<Bucket> buckets_;
};

}  // namespace ssdvp
