// Where `ssdvp run --power-cut AT` (and --recovery-cut) cuts the power: a simulated time, the
// N-th flash operation, or a flash operation drawn at random once a run without the cut has
// told how many there are.
// Leaves out: the cut itself (SsdPlatform::cut_power) and the runs around it (ssdvp_main.cpp).
#pragma once

#include <cstdint>
#include <string>

#include "platforms/ssd_platform.h"

namespace ssdvp {

struct CutPoint {
  uint64_t ns = 0, ops = 0, seed = 0;
  bool random = false;
  // The cut as RunOptions, `total` flash operations to draw a random one from.
  void apply(RunOptions& opt, uint64_t total) const;
};

// AT: "5ms", "250us", "800ns", "1.5s"; "ops:N" (at the completion of the N-th flash operation);
// "random:SEED" (a flash operation drawn uniformly).  `what` names the option in ConfigError.
CutPoint parse_cut_point(const std::string& what, const std::string& at);

}  // namespace ssdvp
