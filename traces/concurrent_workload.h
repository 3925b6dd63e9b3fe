// Jobs side by side: "spec1&spec2&..." runs the generators at the same time, as the jobs of one
// fio job file do (each job its own streams: job 1's streams first, then job 2's, ...), e.g. a
// cache's small-object writes beside its large sequential log writes (docs/fdp.md's CacheLib-like
// mix, each job with its own FDP placement identifier).
// Every job must be closed-loop with the same queue depth (the driver keeps one depth per
// stream); a job that runs out leaves the others running.
// Leaves out: rate limits between the jobs (each keeps its depth outstanding), traces as jobs.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "traces/workload.h"

namespace ssdvp::workload {

class ConcurrentWorkload : public Workload {
 public:
  // `specs`: the jobs' specs (at least two).
  ConcurrentWorkload(const std::vector<std::string>& specs, const WorkloadContext& ctx);

  unsigned streams() const override { return unsigned(job_of_.size()); }
  std::optional<Request> next(unsigned stream) override;
  bool closed_loop() const override { return true; }
  unsigned queue_depth() const override { return depth_; }
  std::string describe() const override;
  void validate() const override {
    for (const auto& job : jobs_) job->validate();
  }
  WorkloadExtent extent() const override {
    std::vector<WorkloadExtent> parts;
    for (const auto& job : jobs_) parts.push_back(job->extent());
    return combined_extent(parts, false);
  }
  std::vector<std::string> part_names() const override;
  bool zoned() const override {
    for (const auto& job : jobs_)
      if (!job->zoned()) return false;
    return true;
  }

 private:
  std::vector<std::unique_ptr<Workload>> jobs_;
  std::vector<unsigned> job_of_, first_of_;   // per stream: its job; per job: its first stream
  std::vector<uint16_t> first_part_;          // per job: its first part (part_names)
  unsigned depth_ = 1;
};

// The part names of `parts` (phases or jobs, `kind`), each part's own parts flattened into the
// list ("phase 1, job 2: ..."); `first` gets the index of each part's first one.
std::vector<std::string> flattened_part_names(const std::vector<std::unique_ptr<Workload>>& parts, const char* kind,
                                              std::vector<uint16_t>* first);

}  // namespace ssdvp::workload
