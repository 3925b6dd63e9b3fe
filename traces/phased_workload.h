// Phases: "spec1;spec2;..." runs the workloads one after the other, e.g. the PTSD
// experiment's random writes then random reads.  Each stream moves on to the next phase when
// its own requests of the current one are all issued (per stream, no barrier across streams:
// fio's stonewall between jobs is not modelled; with numjobs=1 the phases are strictly
// sequential, up to the queue depth of requests overlapping at the switch).
// Every phase must be closed-loop with the same queue depth (the driver keeps one depth).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "traces/workload.h"

namespace ssdvp::workload {

class PhasedWorkload : public Workload {
 public:
  // `specs`: the phases' specs in order (at least two).
  PhasedWorkload(const std::vector<std::string>& specs, const WorkloadContext& ctx);

  unsigned streams() const override { return streams_; }
  std::optional<Request> next(unsigned stream) override;
  bool closed_loop() const override { return true; }
  unsigned queue_depth() const override { return depth_; }
  std::string describe() const override;
  void validate() const override {
    for (const auto& phase : phases_) phase->validate();
  }
  WorkloadExtent extent() const override {
    std::vector<WorkloadExtent> parts;
    for (const auto& phase : phases_) parts.push_back(phase->extent());
    return combined_extent(parts, true);
  }
  std::vector<std::string> part_names() const override;
  bool zoned() const override {
    for (const auto& phase : phases_)
      if (!phase->zoned()) return false;
    return true;
  }

 private:
  std::vector<std::unique_ptr<Workload>> phases_;
  std::vector<size_t> phase_of_;   // per stream: the phase it is in
  std::vector<uint16_t> first_part_;   // per phase: its first part (part_names)
  unsigned streams_ = 0, depth_ = 1;
};

}  // namespace ssdvp::workload
