// Power-cut points: see cut_point.h.
#include "platforms/cut_point.h"

#include <algorithm>
#include <stdexcept>

#include "models/common/config.h"
#include "traces/random.h"

namespace ssdvp {

void CutPoint::apply(RunOptions& opt, uint64_t total) const {
  opt.power_cut_ns = ns;
  opt.power_cut_ops = random ? 1 + workload::Rng(seed).below(std::max<uint64_t>(total, 1)) : ops;
}

CutPoint parse_cut_point(const std::string& what, const std::string& at) {
  const auto fail = [&]() -> CutPoint {
    throw ConfigError(what + " " + at + ": give a simulated time (e.g. 5ms, 250us, 800ns), ops:N or random:SEED");
  };
  CutPoint c;
  try {
    size_t used = 0;
    for (const char* prefix : {"ops:", "random:"}) {
      const std::string p = prefix;
      if (at.rfind(p, 0) != 0) continue;
      const std::string n = at.substr(p.size());
      if (n.empty() || n[0] == '-' || n[0] == '+') return fail();
      const uint64_t v = std::stoull(n, &used);
      if (used != n.size()) return fail();
      if (p == "ops:") {
        if (v == 0) return fail();
        c.ops = v;
      } else {
        c.random = true;
        c.seed = v;
      }
      return c;
    }
    const double v = std::stod(at, &used);
    const std::string unit = at.substr(used);
    const double ns = unit == "ms" ? v * 1e6 : unit == "us" ? v * 1e3 : unit == "ns" ? v : unit == "s" ? v * 1e9 : -1;
    if (!(ns >= 1 && ns < 1e18)) return fail();
    c.ns = uint64_t(ns + 0.5);
  } catch (const std::logic_error&) {
    return fail();
  }
  return c;
}

}  // namespace ssdvp
