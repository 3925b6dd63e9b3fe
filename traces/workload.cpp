// Names of the request operations: see workload.h.
#include "traces/workload.h"

namespace ssdvp::workload {

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
