// Names of the request operations and the extents of composite workloads: see workload.h.
#include "traces/workload.h"

#include <algorithm>

namespace ssdvp::workload {

WorkloadExtent combined_extent(const std::vector<WorkloadExtent>& parts, bool sequential) {
  WorkloadExtent sum;
  bool requests = true, durations = true;
  for (const WorkloadExtent& p : parts) {
    requests = requests && p.requests && !p.duration_ns;
    durations = durations && p.duration_ns;
    sum.requests += p.requests;
    sum.duration_ns = sequential ? sum.duration_ns + p.duration_ns : std::max(sum.duration_ns, p.duration_ns);
  }
  if (requests) return {sum.requests, 0};
  if (durations) return {0, sum.duration_ns};
  return {};
}

const char* op_name(Op op) {
  switch (op) {
    case Op::Read: return "read";
    case Op::Write: return "write";
    case Op::Flush: return "flush";
    case Op::Trim: return "trim";
    case Op::ZoneReset: return "zone_reset";
  }
  return "unknown";
}

uint16_t fdp_placement_id(const WorkloadContext& context, uint32_t index) {
  uint32_t rgif = 0;
  while ((1u << rgif) < context.fdp_groups) rgif++;
  const uint32_t handles = context.fdp_handles ? context.fdp_handles : 1;
  return uint16_t((index / handles) << (16 - rgif) | index % handles);
}

}  // namespace ssdvp::workload
