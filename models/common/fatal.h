// Fatal simulation errors (a firmware bug the hardware caught, a firmware halt, a model
// invariant broken): recorded with their message, and the simulation is stopped so that
// `ssdvp run` can report them and exit non-zero.
#pragma once

#include <string>
#include <vector>

namespace ssdvp {

void report_fatal(const std::string& message);
const std::vector<std::string>& fatal_errors();

}  // namespace ssdvp
