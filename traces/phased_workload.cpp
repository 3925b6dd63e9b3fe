#include "traces/phased_workload.h"

#include <algorithm>

namespace ssdvp::workload {

PhasedWorkload::PhasedWorkload(const std::vector<std::string>& specs, const WorkloadContext& ctx) {
  for (size_t i = 0; i < specs.size(); i++) {
    const std::string& spec = specs[i];
    if (spec.empty()) throw WorkloadError("workload phase " + std::to_string(i + 1) + " is empty");
    if (spec.find(';') != std::string::npos) throw WorkloadError("workload '" + spec + "': nested phases");
    auto w = make_workload(spec, ctx);
    if (!w->closed_loop())
      throw WorkloadError("workload '" + spec + "' (phase " + std::to_string(i + 1) +
                          "): phases must be closed-loop generators (fio:, rr:), not traces");
    if (i > 0 && w->queue_depth() != depth_)
      throw WorkloadError("workload '" + spec + "' (phase " + std::to_string(i + 1) + "): iodepth " +
                          std::to_string(w->queue_depth()) + " differs from phase 1's " + std::to_string(depth_) +
                          " (the driver keeps one queue depth)");
    depth_ = w->queue_depth();
    streams_ = std::max(streams_, w->streams());
    phases_.push_back(std::move(w));
  }
  phase_of_.assign(streams_, 0);
}

std::optional<Request> PhasedWorkload::next(unsigned stream) {
  for (size_t& p = phase_of_.at(stream); p < phases_.size(); p++) {
    if (stream >= phases_[p]->streams()) continue;
    if (auto r = phases_[p]->next(stream)) return r;
  }
  return std::nullopt;
}

std::string PhasedWorkload::describe() const {
  std::string s;
  for (size_t i = 0; i < phases_.size(); i++) s += (i ? " ; then " : "") + phases_[i]->describe();
  return s;
}

}  // namespace ssdvp::workload
