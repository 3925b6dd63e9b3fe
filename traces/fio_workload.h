// fio-like closed-loop generator: numjobs streams, each keeping iodepth requests outstanding.
//
// Models: sequential jobs (job j starts at offset + j * size / numjobs, advances by bs and
// wraps at the end of the range), random jobs (bs-long requests at offset + k * align, k drawn
// from the configured distribution over the whole range), read/write mixing by rwmixread, a
// fixed number of requests per job.  Each job has its own random stream derived from
// (context seed, seed=, job number), so runs are reproducible and jobs independent; all jobs
// share one scramble key, so they agree on which blocks are hot.
// Time and pace, each job on its own clock from its first request (in a phased workload, from
// the start of its phase): runtime ends a job's requests (in-flight ones complete), time_based
// repeats its I/O until then; rate_iops and rate issue a direction's n-th request no earlier
// than n / rate after the start, as fio's linear rate_process (a direction is chosen first by
// rwmixread, then waits for its slot); thinktime, as fio, waits for every outstanding request of
// the job after each thinktime_blocks requests, then thinks, then goes on (iodepth beyond
// thinktime_blocks is never reached).  The wait is a sleep: no host CPU time is charged for it.
// Leaves out: per-direction sequential cursors of fio's rw=rw (one cursor is shared), random
// maps (random jobs may repeat blocks).  Durability mix: fsync=N (a flush
// after every N writes of a job, not counted in io=), fua_percent, trim_percent (that share
// of write requests trims its range instead).
#pragma once

#include <functional>
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
  // now_ns: the simulation's clock (WorkloadContext::now_ns); needed by runtime, rate and thinktime.
  // spec: for messages.
  FioWorkload(const FioConfig& config, uint64_t context_seed, std::function<uint64_t()> now_ns = {},
              std::string spec = "fio:");

  unsigned streams() const override { return config_.numjobs; }
  std::optional<Request> next(unsigned stream) override;
  bool closed_loop() const override { return true; }
  unsigned queue_depth() const override { return config_.iodepth; }
  std::string describe() const override;
  // time_based: its runtime; else its requests (and flushes), which runtime may cut short.
  WorkloadExtent extent() const override;

 private:
  struct Job {
    Rng rng;
    uint64_t cursor;     // next sequential offset
    uint64_t remaining;  // requests still to issue
    unsigned writes_since_flush = 0;   // fsync=N
    size_t next_pid = 0;               // fdp_pli_select=roundrobin
    uint64_t run_left = 0;             // run_length: bytes left of the current run ...
    uint64_t run_cursor = 0;           // ... and its next offset
    std::optional<uint64_t> start_ns = std::nullopt;   // time and pace: the job's first request
    uint64_t sent[3] = {};             // requests of each direction (read, write, trim) so far ...
    uint64_t sent_bytes[3] = {};       // ... and their bytes
    uint64_t since_think = 0;          // requests since the last think
  };

  // Sets the request's pacing (rate, thinktime) and counts it.
  void pace(Job& job, Request& request) const;
  uint64_t now(const char* why) const;

  Op next_op(Rng& rng) const;

  FioConfig config_;
  BlockDistribution distribution_;
  std::vector<Job> jobs_;
  std::function<uint64_t()> now_ns_;
  std::string spec_;
};

}  // namespace ssdvp::workload
