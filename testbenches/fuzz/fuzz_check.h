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

// What the code under test did with the input (accepted it, the error it gave, the firmware's
// halt code, a reply), a line per note, kept only while the corpus replay records it
// (replay_main.cpp): a regression seed's expected behaviour (expect/NAME/SEED) is checked
// against these lines, so a seed fails when its fix is reverted, not only when it crashes.
inline bool& recording() {
  static bool on = false;
  return on;
}
inline std::string& outcome() {
  static std::string lines;
  return lines;
}
inline void note(const std::string& line) {
  if (recording()) outcome() += line + "\n";
}

}  // namespace ssdvp::fuzz
