#include "traces/request_extent.h"

#include <limits>
#include <string>

namespace ssdvp::workload {

namespace {
constexpr uint64_t kSector = 512;
}

RequestExtent parse_request_extent(const SpecOptions& options, uint64_t capacity, uint64_t default_block_size,
                                   bool capacity_is_upper_bound) {
  RequestExtent e;
  const std::string capacity_text =
      capacity_is_upper_bound ? "the drive's raw capacity (" + std::to_string(capacity) +
                                    " bytes; the namespace, smaller, is known once the firmware reports it)"
                              : "the namespace's capacity (" + std::to_string(capacity) + " bytes)";
  const uint64_t block_size = options.bytes("bs", default_block_size);
  if (block_size == 0 || block_size % kSector != 0) options.fail("bs", "block size must be a non-zero multiple of 512");
  if (block_size > std::numeric_limits<uint32_t>::max()) options.fail("bs", "block size must be below 4 GiB");
  e.block_size = static_cast<uint32_t>(block_size);

  e.offset = options.bytes_or_percent("offset", 0, capacity, kSector);
  if (e.offset % kSector != 0) options.fail("offset", "must be a multiple of 512");
  if (capacity != 0 && e.offset >= capacity)
    options.fail("offset", "at or beyond " + capacity_text);

  if (!options.has("size") && capacity == 0) options.fail("size= is needed because the namespace capacity is not known");
  e.size = options.bytes_or_percent("size", capacity - e.offset, capacity, kSector);
  if (e.size == 0) options.fail("size", "must be greater than 0");
  if (e.size < block_size) options.fail("size", "smaller than bs");
  if (capacity == 0 && e.size > std::numeric_limits<uint64_t>::max() - e.offset)
    options.fail("size", "offset + size is beyond 2^64 bytes");
  if (capacity != 0 && e.size > capacity - e.offset)
    options.fail("size", "offset + size exceeds " + capacity_text);
  return e;
}

}  // namespace ssdvp::workload
