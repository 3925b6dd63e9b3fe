// "Did you mean ...?" for a name the user mistyped: an unknown configuration key, a workload
// option, a platform or a command-line option.
//
// Models: the closest candidates by edit distance (insertions, deletions, substitutions and
// swaps of two neighbouring characters, case ignored), within a distance that grows with the
// name's length, and a candidate that contains the name or is contained in it (a dropped or
// extra section such as "gc_policy" for "ftl.gc_policy").
// Leaves out: keyboard layouts and phonetic likeness.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ssdvp::workload {

// The candidates closest to `name` (at most three, best first); empty when none is close.
std::vector<std::string> nearest_names(std::string_view name, const std::vector<std::string>& candidates);

// "; did you mean 'a'?" / "; did you mean 'a' or 'b'?" for the nearest names, or "" when none.
std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace ssdvp::workload
