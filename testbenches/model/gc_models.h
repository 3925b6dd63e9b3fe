// Analytic write amplification of garbage collection under uniform random overwrites, one
// model per cleaning policy; `u` is the utilisation: logical pages / physical pages that
// can hold data.  Header-only, no platform: the WAF tests and the models' own checks use it.
//
// * FIFO (Desnoyers, "Analytic modeling of SSD write performance", SYSTOR 2012): the fraction
//   of still-valid pages in a cleaned block X0 solves X0 = exp(-(1 - X0) / u), i.e.
//   X0 = -W0(-e^{-1/u} / u) u, and WA = 1 / (1 - X0).  Exact for FIFO in the limit of many
//   blocks; independent of the block size.
// * Greedy (the mean-field limit of Van Houdt, "A mean field model for a class of garbage
//   collection algorithms in flash-based solid state drives", SIGMETRICS 2013, for d = all
//   blocks): with N -> infinity blocks of b pages, a block with j valid pages loses one at
//   rate j per valid page written, so the fraction of blocks at level j > k is proportional
//   to 1/j (harmonic), where k is the lowest populated level; GC takes blocks that fell to
//   k - 1 and some at k.  Balancing blocks, valid pages and freed pages gives the GC rate R
//   (blocks per host write) for the k whose R lies in [1/(b-k+1), 1/(b-k)], and WA = R b.
//   It depends on b: greedy beats FIFO by more for small blocks and tends to FIFO's WA as
//   b grows.
// Leaves out: finite block counts (the tests bound that effect), hot/cold data, the open
// blocks being filled while their pages are invalidated.
#pragma once

#include <cmath>
#include <stdexcept>

namespace ssdvp::test {

// Principal branch of Lambert W on [-1/e, 0), by Newton's method.
inline double lambert_w0(double x) {
  double w = -0.5;
  for (int i = 0; i < 100; i++) {
    const double e = std::exp(w);
    const double f = w * e - x;
    w -= f / (e * (w + 1));
  }
  return w;
}

inline double fifo_waf(double u) {
  const double alpha = 1.0 / u;
  const double x0 = -lambert_w0(-alpha * std::exp(-alpha)) / alpha;
  return 1.0 / (1.0 - x0);
}

inline double greedy_waf(double u, unsigned b) {
  if (!(u > 0 && u < 1) || b < 2) throw std::invalid_argument("greedy_waf: u in (0,1), b >= 2");
  double h_tail = 0;   // H_b - H_k, built from k = b downwards
  for (unsigned k = b - 1; k >= 1; k--) {
    h_tail += 1.0 / double(k + 1);
    const double r = (1.0 / (u * b) - 1.0 / k) / (h_tail - double(b - k) / k);
    if (r >= 1.0 / double(b - k + 1) - 1e-12 && r <= 1.0 / double(b - k) + 1e-12) return r * b;
  }
  throw std::invalid_argument("greedy_waf: no fixed point (utilisation too low for the block size)");
}

}  // namespace ssdvp::test
