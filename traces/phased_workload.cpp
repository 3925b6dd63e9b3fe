#include "traces/phased_workload.h"

#include "traces/concurrent_workload.h"

#include <algorithm>

namespace ssdvp::workload {

PhasedWorkload::PhasedWorkload(const std::vector<std::string>& specs, const WorkloadContext& ctx) {
  for (const std::string& spec : specs)
    if (spec.find(';') != std::string::npos) throw WorkloadError("workload '" + spec + "': nested phases");
  phases_ = make_closed_loop_parts(specs, ctx, "phase", false);
  depth_ = phases_[0]->queue_depth();
  for (const auto& w : phases_) streams_ = std::max(streams_, w->streams());
  phase_of_.assign(streams_, 0);
  flattened_part_names(phases_, "phase", &first_part_);
}

std::vector<std::string> PhasedWorkload::part_names() const { return flattened_part_names(phases_, "phase", nullptr); }

std::optional<Request> PhasedWorkload::next(unsigned stream) {
  for (size_t& p = phase_of_.at(stream); p < phases_.size(); p++) {
    if (stream >= phases_[p]->streams()) continue;
    if (auto r = phases_[p]->next(stream)) {
      r->part = uint16_t(first_part_[p] + r->part);
      return r;
    }
  }
  return std::nullopt;
}

std::string PhasedWorkload::describe() const {
  std::string s;
  for (size_t i = 0; i < phases_.size(); i++) s += (i ? " ; then " : "") + phases_[i]->describe();
  return s;
}

}  // namespace ssdvp::workload
