// Synthetic trace lines of every format the readers know (and binary vscsi records), for the
// streaming test and the reader benchmark: line i is a 4 KiB-aligned read or write at a
// pseudo-random offset, in bursts of 100 requests 10 us apart at the start of each second
// (so formats with one-second times see them change), in the format's own units and spelling.
//
// Models: what each line says, worked out from the numbers written into it with the format's
// own conversions (sectors to bytes, filetime ticks, whole seconds, ...), for the test to
// compare with what a reader makes of it.
// Leaves out: flushes, trims, unaligned or varied lengths, devices and pids other than one.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "traces/workload.h"

namespace ssdvp::workload::test {

// The request line i describes.
struct SyntheticRequest {
  Op op = Op::Read;
  uint64_t offset = 0;   // bytes
  uint32_t length = 0;   // bytes
  uint64_t time_ns = 0;  // on the trace's own clock, as written (a replay rebases it to line 0)
};

// The formats append_synthetic_line() writes: the trace_formats() names plus "vscsi-binary".
const std::vector<std::string>& synthetic_formats();
// Appends line (or, for vscsi-binary, record) i of `format` to `out`; returns what it says.
SyntheticRequest append_synthetic_line(const std::string& format, uint64_t i, std::string& out);

}  // namespace ssdvp::workload::test
