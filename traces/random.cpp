// Deterministic pseudo-random numbers: see random.h.
#include "traces/random.h"

namespace ssdvp::workload {

namespace {

uint64_t rotate_left(uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}

}  // namespace

uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

uint64_t mix_seeds(uint64_t a, uint64_t b) {
  return splitmix64(splitmix64(a) ^ rotate_left(b, 17));
}

uint64_t mix_seeds(uint64_t a, uint64_t b, uint64_t c) {
  return mix_seeds(mix_seeds(a, b), c);
}

Rng::Rng(uint64_t seed) {
  for (uint64_t& word : state_) {
    seed += 0x9E3779B97F4A7C15ULL;
    word = splitmix64(seed);
  }
}

uint64_t Rng::next() {
  const uint64_t result = rotate_left(state_[1] * 5, 7) * 9;
  const uint64_t t = state_[1] << 17;
  state_[2] ^= state_[0];
  state_[3] ^= state_[1];
  state_[1] ^= state_[2];
  state_[0] ^= state_[3];
  state_[2] ^= t;
  state_[3] = rotate_left(state_[3], 45);
  return result;
}

uint64_t Rng::below(uint64_t bound) {
  // Values below `threshold` would make some residues more likely; redraw them.
  const uint64_t threshold = (0 - bound) % bound;
  while (true) {
    const uint64_t value = next();
    if (value >= threshold) return value % bound;
  }
}

double Rng::unit() {
  return static_cast<double>(next() >> 11) * 0x1.0p-53;
}

}  // namespace ssdvp::workload
