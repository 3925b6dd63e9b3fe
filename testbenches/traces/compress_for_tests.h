// Test data: text compressed the way the tools write it (gzip, xz, zstd, bzip2), with the
// codecs' own libraries, for the compressed-trace tests.
#pragma once

#include <string>

namespace ssdvp::workload::test {

// `kind`: "gzip", "xz", "zstd" or "bzip2".  One member (stream, frame) holding `text`.
std::string compress(const std::string& text, const std::string& kind);

}  // namespace ssdvp::workload::test
