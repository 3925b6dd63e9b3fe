// Zipf-distributed ranks: P(k) proportional to k^-theta for k in 1..n.
//
// Models: Hörmann & Derflinger's rejection-inversion sampler ("Rejection-inversion to generate
// variates from monotone discrete distributions", ACM TOMACS 1996), as used by Apache Commons
// RNG: O(1) expected time and O(1) memory for any n and any theta > 0 (theta = 1 included).
// Leaves out: theta <= 0.
#pragma once

#include <cstdint>

#include "traces/random.h"

namespace ssdvp::workload {

class ZipfSampler {
 public:
  ZipfSampler(uint64_t n, double theta);
  // A rank in [1, n]; rank 1 is the most likely.
  uint64_t sample(Rng& rng) const;

 private:
  double h(double x) const;
  double h_integral(double x) const;
  double h_integral_inverse(double x) const;

  uint64_t n_;
  double theta_;
  double h_integral_x1_;
  double h_integral_n_;
  double s_;
};

}  // namespace ssdvp::workload
