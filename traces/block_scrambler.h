// A keyed bijection of [0, n) used to spread the hot ranks of a skewed distribution over the
// whole range (rank 0 is not block 0), like fio's scrambled zipf/pareto offsets.
//
// Models: a 4-round Feistel network on the smallest even bit width covering n, with cycle
// walking to stay inside [0, n); O(1) expected time, no memory.
// Leaves out: cryptographic strength (only the spreading matters).
#pragma once

#include <cstdint>

namespace ssdvp::workload {

class BlockScrambler {
 public:
  BlockScrambler(uint64_t range, uint64_t key);
  // The block that rank `index` (< range) maps to; distinct indexes give distinct blocks.
  uint64_t operator()(uint64_t index) const;

 private:
  uint64_t feistel(uint64_t value) const;

  uint64_t range_;
  unsigned half_bits_;
  uint64_t half_mask_;
  uint64_t round_keys_[4];
};

}  // namespace ssdvp::workload
