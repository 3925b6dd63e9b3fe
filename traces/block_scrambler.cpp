// Keyed bijection of [0, n): see block_scrambler.h.
#include "traces/block_scrambler.h"

#include "traces/random.h"

namespace ssdvp::workload {

BlockScrambler::BlockScrambler(uint64_t range, uint64_t key) : range_(range), half_bits_(1) {
  // Smallest 2*half_bits_ with 2^(2*half_bits_) >= range.
  while (half_bits_ < 32 && (uint64_t{1} << (2 * half_bits_)) < range) ++half_bits_;
  half_mask_ = half_bits_ == 32 ? 0xFFFFFFFFULL : (uint64_t{1} << half_bits_) - 1;
  for (unsigned round = 0; round < 4; ++round) round_keys_[round] = mix_seeds(key, round);
}

uint64_t BlockScrambler::feistel(uint64_t value) const {
  uint64_t left = (value >> half_bits_) & half_mask_;
  uint64_t right = value & half_mask_;
  for (const uint64_t round_key : round_keys_) {
    const uint64_t mixed = splitmix64(right ^ round_key) & half_mask_;
    const uint64_t new_right = left ^ mixed;
    left = right;
    right = new_right;
  }
  return (left << half_bits_) | right;
}

uint64_t BlockScrambler::operator()(uint64_t index) const {
  // The Feistel network permutes [0, 2^(2*half_bits_)); walking the cycle from `index` until
  // it re-enters [0, range_) permutes [0, range_).  At most 4x the range, so few steps.
  uint64_t value = feistel(index);
  while (value >= range_) value = feistel(value);
  return value;
}

}  // namespace ssdvp::workload
