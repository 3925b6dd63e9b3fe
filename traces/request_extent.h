// The block size and address range a generator draws from (bs=, offset=, size=), parsed and
// checked the same way for every generator.
#pragma once

#include <cstdint>

#include "traces/spec_options.h"

namespace ssdvp::workload {

struct RequestExtent {
  uint32_t block_size = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
};

// Reads bs (default `default_block_size`), offset (default 0) and size (default: the rest of
// the capacity) from `options`; fails naming the key for a bad value.  `capacity` 0 means
// unknown: size= is then required.
// capacity_is_upper_bound: `capacity` is the drive's raw capacity, not yet the namespace's (the
// messages say which).
RequestExtent parse_request_extent(const SpecOptions& options, uint64_t capacity, uint64_t default_block_size,
                                   bool capacity_is_upper_bound = false);

}  // namespace ssdvp::workload
