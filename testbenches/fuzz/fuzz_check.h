// What every fuzzing harness does when the code under test breaks a promise that is not a
// crash (a request outside its range, an exception of a type the code under test does not
// throw for bad input): print what and abort, which libFuzzer and the gcc replay both report
// as a failure with the input.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace ssdvp::fuzz {

[[noreturn]] inline void broken(const std::string& what) {
  std::fprintf(stderr, "fuzz harness: %s\n", what.c_str());
  std::abort();
}

inline void check(bool ok, const std::string& what) {
  if (!ok) broken(what);
}

}  // namespace ssdvp::fuzz
