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

}  // namespace ssdvp::workload
