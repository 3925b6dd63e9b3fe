// What this build of ssdvp is: its version (git describe of the source tree at build time),
// a fingerprint of the executable (the build id that drive-state snapshots are keyed on), the
// libraries it was built with (SystemC, Verilator, Unicorn) and the default firmware image's
// fingerprint, for `ssdvp --version` and snapshot keys.
// Leaves out: a signed or reproducible-build identity (FNV-1a is a fingerprint, not a hash
// that resists forgery).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace ssdvp {

// FNV-1a, 64 bits: a fingerprint of files and text.
struct Fnv64 {
  uint64_t h = 0xcbf29ce484222325ull;
  void add(const char* p, size_t n) {
    for (size_t i = 0; i < n; i++) h = (h ^ uint8_t(p[i])) * 0x100000001b3ull;
  }
  void add(const std::string& s) { add(s.data(), s.size()); }
};

// The file's FNV-1a fingerprint as 16 hex digits; ConfigError if it cannot be read.
std::string file_fingerprint(const std::string& path);
// This executable's (/proc/self/exe), computed once.
const std::string& executable_fingerprint();

// `ssdvp --version`: one line per component.
std::string version_text();

}  // namespace ssdvp
