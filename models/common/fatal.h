// Fatal simulation errors (a firmware bug the hardware caught, a firmware halt, a model
// invariant broken, bad input found at run time): recorded with their message, and the
// simulation is stopped so that `ssdvp run` can report them and exit non-zero.
#pragma once

#include <string>
#include <vector>

namespace ssdvp {

void report_fatal(const std::string& message);
const std::vector<std::string>& fatal_errors();
// Bad input found only once the simulation runs (a workload that does not fit the namespace the
// firmware reported): a fatal error as above, and also listed here, so that the run exits 2 (bad
// input) rather than 3 (did not complete) and no figures of nothing are shown.
void report_input_error(const std::string& message);
const std::vector<std::string>& input_errors();

}  // namespace ssdvp
