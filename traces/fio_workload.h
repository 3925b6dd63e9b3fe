// fio-like closed-loop generator: numjobs streams, each keeping iodepth requests outstanding.
//
// Models: sequential jobs (job j starts at offset + j * size / numjobs, advances by bs and
// wraps at the end of the range), random jobs (bs-long requests at offset + k * align, k drawn
// from the configured distribution over the whole range), read/write mixing by rwmixread, a
// fixed number of requests per job.  Each job has its own random stream derived from
// (context seed, seed=, job number), so runs are reproducible and jobs independent; all jobs
// share one scramble key, so they agree on which blocks are hot.
// Leaves out: per-direction sequential cursors of fio's rw=rw (one cursor is shared), random
// maps (random jobs may repeat blocks), time-based runs.  Durability mix: fsync=N (a flush
// after every N writes of a job, not counted in io=), fua_percent, trim_percent (that share
// of write requests trims its range instead).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "traces/block_distribution.h"
#include "traces/fio_config.h"
#include "traces/random.h"
#include "traces/workload.h"

namespace ssdvp::workload {

class FioWorkload : public Workload {
 public:
  FioWorkload(const FioConfig& config, uint64_t context_seed);

  unsigned streams() const override { return config_.numjobs; }
  std::optional<Request> next(unsigned stream) override;
  bool closed_loop() const override { return true; }
  unsigned queue_depth() const override { return config_.iodepth; }
  std::string describe() const override;

 private:
  struct Job {
    Rng rng;
    uint64_t cursor;     // next sequential offset
    uint64_t remaining;  // requests still to issue
    unsigned writes_since_flush = 0;   // fsync=N
    size_t next_pid = 0;               // fdp_pli_select=roundrobin
    uint64_t run_left = 0;             // run_length: bytes left of the current run ...
    uint64_t run_cursor = 0;           // ... and its next offset
  };

  Op next_op(Rng& rng) const;

  FioConfig config_;
  BlockDistribution distribution_;
  std::vector<Job> jobs_;
};

}  // namespace ssdvp::workload
