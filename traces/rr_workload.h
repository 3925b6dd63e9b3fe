// Ratio-of-random read mix from the predictive read-ahead paper (dtree-readahead, §4): a
// single read stream in which each request, with probability ratio %, jumps to a random
// block and otherwise continues sequentially after the previous request.
//
// Models: random jumps drawn uniformly, with repeats, from a fixed pool of blocks at the
// start of the range.  The paper only says its random requests are "random with repeats";
// its LRU hit ratio at RR=100 (45.55 % with a 2 MiB buffer) fixes the pool: under uniform
// draws an LRU buffer of C blocks hits C / pool, so the default pool is 2 MiB / 0.4555.
// Sequential steps wrap at the end of the range.  Closed loop, queue depth 1 by default.
// Leaves out: writes; the paper's RR=50 LRU figure (32 %) is not matched by any simple
// pool model that also gives 45.55 % at RR=100 (this one gives ~44 %; see docs/traces.md).
#pragma once

#include <optional>
#include <string>

#include "traces/random.h"
#include "traces/workload.h"

namespace ssdvp::workload {

struct RrConfig {
  double ratio = 0;  // percent of requests that jump to a random pool block
  uint64_t requests = 100000;
  uint32_t block_size = 2 << 20;  // bs, bytes per request
  uint64_t pool_blocks = 0;       // random jumps land in [offset, offset + pool_blocks * bs)
  uint64_t offset = 0;
  uint64_t size = 0;  // sequential range [offset, offset + size)
  unsigned iodepth = 1;
  uint64_t seed = 0;
};

// Parses `spec` (starting with "rr:"); throws WorkloadError naming the key and the spec.
RrConfig parse_rr_config(const std::string& spec, const WorkloadContext& context);

class RrWorkload : public Workload {
 public:
  RrWorkload(const RrConfig& config, uint64_t context_seed);

  unsigned streams() const override { return 1; }
  std::optional<Request> next(unsigned stream) override;
  bool closed_loop() const override { return true; }
  unsigned queue_depth() const override { return config_.iodepth; }
  std::string describe() const override;
  WorkloadExtent extent() const override { return {config_.requests, 0}; }

 private:
  RrConfig config_;
  Rng rng_;
  uint64_t issued_ = 0;
  uint64_t next_sequential_;  // where a sequential request goes: after the previous request
};

}  // namespace ssdvp::workload
