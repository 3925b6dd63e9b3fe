// Jobs side by side: see concurrent_workload.h.
#include "traces/concurrent_workload.h"

namespace ssdvp::workload {

ConcurrentWorkload::ConcurrentWorkload(const std::vector<std::string>& specs, const WorkloadContext& ctx)
    : jobs_(make_closed_loop_parts(specs, ctx, "job", true)) {
  depth_ = jobs_[0]->queue_depth();
  for (size_t i = 0; i < jobs_.size(); i++) {
    first_of_.push_back(unsigned(job_of_.size()));
    for (unsigned s = 0; s < jobs_[i]->streams(); s++) job_of_.push_back(unsigned(i));
  }
  if (job_of_.size() > 4096) throw WorkloadError("workload: more than 4096 streams in all the jobs");
  flattened_part_names(jobs_, "job", &first_part_);
}

std::vector<std::string> flattened_part_names(const std::vector<std::unique_ptr<Workload>>& parts, const char* kind,
                                              std::vector<uint16_t>* first) {
  std::vector<std::string> names;
  if (first) first->clear();
  for (size_t i = 0; i < parts.size(); i++) {
    if (first) first->push_back(uint16_t(names.size()));
    const std::string mine = std::string(kind) + " " + std::to_string(i + 1);
    const std::vector<std::string> inner = parts[i]->part_names();
    if (inner.empty()) names.push_back(mine + ": " + parts[i]->describe());
    for (const std::string& n : inner) names.push_back(mine + ", " + n);
  }
  return names;
}

std::vector<std::string> ConcurrentWorkload::part_names() const { return flattened_part_names(jobs_, "job", nullptr); }

std::optional<Request> ConcurrentWorkload::next(unsigned stream) {
  const unsigned job = job_of_.at(stream);
  auto r = jobs_[job]->next(stream - first_of_[job]);
  if (r) {
    r->stream = uint16_t(stream);
    r->part = uint16_t(first_part_[job] + r->part);
  }
  return r;
}

std::string ConcurrentWorkload::describe() const {
  std::string s;
  for (size_t i = 0; i < jobs_.size(); i++) s += (i ? " & beside it " : "") + jobs_[i]->describe();
  return s;
}

}  // namespace ssdvp::workload
