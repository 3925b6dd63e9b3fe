// Deterministic pseudo-random numbers for the workload generators.
//
// Models: xoshiro256** seeded through splitmix64, with exact uniform integers (rejection, no
// modulo bias) and 53-bit uniform reals.  Written out rather than taken from <random> so a
// seed gives the same workload with every standard library.
// Leaves out: cryptographic quality, jump-ahead.
#pragma once

#include <cstdint>

namespace ssdvp::workload {

// Combines seeds into one well-mixed 64-bit seed (order matters).
uint64_t mix_seeds(uint64_t a, uint64_t b);
uint64_t mix_seeds(uint64_t a, uint64_t b, uint64_t c);

// One splitmix64 step on `x`: a bijective 64-bit finaliser.
uint64_t splitmix64(uint64_t x);

class Rng {
 public:
  explicit Rng(uint64_t seed);
  uint64_t next();
  // Uniform in [0, bound); bound > 0.
  uint64_t below(uint64_t bound);
  // Uniform in [0, 1).
  double unit();

 private:
  uint64_t state_[4];
};

}  // namespace ssdvp::workload
