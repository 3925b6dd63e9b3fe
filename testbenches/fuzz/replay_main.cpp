// main() for a fuzzing harness built without libFuzzer (the gcc build's regression tests):
// runs LLVMFuzzerTestOneInput once on every file named on the command line or found in a
// folder named there, in name order, and prints how many it ran.  A crash, a sanitizer report
// (in a sanitized build) or a harness check aborts it, which fails the test.
//
// `--expect DIR`: the expected behaviour of regression seeds.  DIR/SEED (SEED an input's file
// name) holds lines, each of which must appear in what the harness noted of that input
// (fuzz_check.h: note): "ConfigError: ... channel.bus_mbps", "halted 0xf1a5ffff", ...; lines
// starting with '#' are comments.  Every input named crash-* must have one, and every
// expectation must name an input: a seed that found a bug asserts what its fix does, so it
// fails with the fix reverted even in this unsanitized build.
// Leaves out: mutation, coverage, timing (that is libFuzzer's part: scripts/fuzz.sh).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

namespace fs = std::filesystem;

// The lines of `path` an outcome must contain (comments and blank lines left out).
std::vector<std::string> expected_lines(const fs::path& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') lines.push_back(line);
  return lines;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<fs::path> inputs;
  fs::path expect_dir;
  for (int i = 1; i < argc; i++) {
    const std::string a = argv[i];
    if (a == "--expect" && i + 1 < argc) {
      expect_dir = argv[++i];
      if (!fs::is_directory(expect_dir)) {
        std::fprintf(stderr, "--expect %s: no such folder\n", expect_dir.c_str());
        return 2;
      }
      continue;
    }
    const fs::path arg = a;
    if (fs::is_directory(arg)) {
      for (const auto& entry : fs::directory_iterator(arg))
        if (entry.is_regular_file()) inputs.push_back(entry.path());
    } else if (fs::is_regular_file(arg)) {
      inputs.push_back(arg);
    } else {
      std::fprintf(stderr, "%s: no such file or folder\n", argv[i]);
      return 2;
    }
  }
  std::sort(inputs.begin(), inputs.end());
  if (inputs.empty()) {
    std::fprintf(stderr, "no inputs to replay\n");
    return 2;
  }
  ssdvp::fuzz::recording() = !expect_dir.empty();
  int failures = 0, checked = 0;
  std::set<std::string> names;
  for (const fs::path& path : inputs) {
    std::ifstream in(path, std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), {});
    std::fprintf(stderr, "replay %s\n", path.c_str());
    ssdvp::fuzz::outcome().clear();
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    const std::string name = path.filename().string();
    names.insert(name);
    if (expect_dir.empty()) continue;
    const fs::path want = expect_dir / name;
    if (!fs::exists(want)) {
      if (name.rfind("crash-", 0) == 0) {
        std::fprintf(stderr, "%s: a crash seed without an expectation (%s): say what its fix does\n", path.c_str(),
                     want.c_str());
        failures++;
      }
      continue;
    }
    checked++;
    for (const std::string& line : expected_lines(want))
      if (ssdvp::fuzz::outcome().find(line) == std::string::npos) {
        std::fprintf(stderr, "%s: expected '%s' (%s); the harness noted:\n%s", path.c_str(), line.c_str(), want.c_str(),
                     ssdvp::fuzz::outcome().c_str());
        failures++;
      }
  }
  if (!expect_dir.empty())
    for (const auto& entry : fs::directory_iterator(expect_dir))
      if (!names.count(entry.path().filename().string())) {
        std::fprintf(stderr, "%s: an expectation for no input\n", entry.path().c_str());
        failures++;
      }
  std::printf("replayed %zu inputs, %d with expectations, %d expectations not met\n", inputs.size(), checked, failures);
  return failures ? 1 : 0;
}
