// Jobs side by side: see concurrent_workload.h.
#include "traces/concurrent_workload.h"

namespace ssdvp::workload {

ConcurrentWorkload::ConcurrentWorkload(const std::vector<std::string>& specs, const WorkloadContext& ctx) {
  for (size_t i = 0; i < specs.size(); i++) {
    const std::string& spec = specs[i];
    if (spec.empty()) throw WorkloadError("workload job " + std::to_string(i + 1) + " is empty");
    WorkloadContext own = ctx;   // each job its own random streams, as fio seeds each job apart
    own.seed = ctx.seed + uint64_t(i) * 0x9E3779B97F4A7C15ull;
    auto w = make_workload(spec, own);
    if (!w->closed_loop())
      throw WorkloadError("workload '" + spec + "' (job " + std::to_string(i + 1) +
                          "): jobs side by side must be closed-loop generators (fio:, rr:), not traces");
    if (i > 0 && w->queue_depth() != depth_)
      throw WorkloadError("workload '" + spec + "' (job " + std::to_string(i + 1) + "): iodepth " +
                          std::to_string(w->queue_depth()) + " differs from job 1's " + std::to_string(depth_) +
                          " (the driver keeps one queue depth)");
    depth_ = w->queue_depth();
    first_of_.push_back(unsigned(job_of_.size()));
    for (unsigned s = 0; s < w->streams(); s++) job_of_.push_back(unsigned(i));
    jobs_.push_back(std::move(w));
  }
  if (job_of_.size() > 4096) throw WorkloadError("workload: more than 4096 streams in all the jobs");
}

std::optional<Request> ConcurrentWorkload::next(unsigned stream) {
  const unsigned job = job_of_.at(stream);
  auto r = jobs_[job]->next(stream - first_of_[job]);
  if (r) r->stream = uint16_t(stream);
  return r;
}

std::string ConcurrentWorkload::describe() const {
  std::string s;
  for (size_t i = 0; i < jobs_.size(); i++) s += (i ? " & beside it " : "") + jobs_[i]->describe();
  return s;
}

}  // namespace ssdvp::workload
