// Zipf rejection-inversion sampler: see zipf_sampler.h.
#include "traces/zipf_sampler.h"

#include <cmath>

namespace ssdvp::workload {

namespace {

// log1p(x) / x, continuous at 0.
double log1p_over_x(double x) {
  if (std::abs(x) > 1e-8) return std::log1p(x) / x;
  return 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x));
}

// expm1(x) / x, continuous at 0.
double expm1_over_x(double x) {
  if (std::abs(x) > 1e-8) return std::expm1(x) / x;
  return 1 + x * 0.5 * (1 + x / 3 * (1 + 0.25 * x));
}

}  // namespace

ZipfSampler::ZipfSampler(uint64_t n, double theta) : n_(n), theta_(theta) {
  h_integral_x1_ = h_integral(1.5) - 1;
  h_integral_n_ = h_integral(static_cast<double>(n_) + 0.5);
  s_ = 2 - h_integral_inverse(h_integral(2.5) - h(2));
}

// h(x) = x^-theta, the (unnormalised) density.
double ZipfSampler::h(double x) const {
  return std::exp(-theta_ * std::log(x));
}

// H(x) = (x^(1-theta) - 1) / (1 - theta), an antiderivative of h (log x when theta = 1).
double ZipfSampler::h_integral(double x) const {
  const double log_x = std::log(x);
  return expm1_over_x((1 - theta_) * log_x) * log_x;
}

double ZipfSampler::h_integral_inverse(double x) const {
  double t = x * (1 - theta_);
  if (t < -1) t = -1;  // rounding can push t just below -1, where log1p is undefined
  return std::exp(log1p_over_x(t) * x);
}

uint64_t ZipfSampler::sample(Rng& rng) const {
  while (true) {
    // u is uniform in (H(1.5) - 1, H(n + 0.5)]; invert H and round to the nearest integer k.
    const double u = h_integral_n_ + rng.unit() * (h_integral_x1_ - h_integral_n_);
    const double x = h_integral_inverse(u);
    double k = std::floor(x + 0.5);
    if (k < 1) k = 1;
    if (k > static_cast<double>(n_)) k = static_cast<double>(n_);
    // Accept when u falls under the bar of width 1 and height h(k) centred on k.
    if (k - x <= s_ || u >= h_integral(k + 0.5) - h(k)) return static_cast<uint64_t>(k);
  }
}

}  // namespace ssdvp::workload
