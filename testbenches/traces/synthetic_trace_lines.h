// Synthetic trace lines of every format the readers know (and binary vscsi records), for the
// streaming test and the reader benchmark: line i is a 4 KiB-aligned read or write at a
// pseudo-random offset, times increasing, in the format's own units and spelling.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ssdvp::workload::test {

// The formats synthetic_line() writes: the trace_formats() names plus "vscsi-binary".
const std::vector<std::string>& synthetic_formats();
// Appends line (or, for vscsi-binary, record) i of `format` to `out`.
void append_synthetic_line(const std::string& format, uint64_t i, std::string& out);

}  // namespace ssdvp::workload::test
