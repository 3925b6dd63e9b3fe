// A string as one POSIX shell word (single-quoted), for the child commands ssdvp's bench and
// power-cut drivers run through std::system.
#pragma once

#include <string>

namespace ssdvp {

inline std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace ssdvp
