// Fuzzing harness: a platform TOML file, and --set overrides, through the configuration
// loader, the schema checks and PlatformParams::from (the cross-key checks).
//
// Input: the TOML text, optionally followed by a line "--set" and one KEY=VALUE override per
// line.  A bad file or override must end in ConfigError naming the key (or the file:line of a
// TOML syntax error); nothing else may escape; what is accepted must keep the promises the
// harness checks (host.cpu.types percentages, host.thread_cpus in range).
// Leaves out: what the platform does with accepted parameters (elaboration: one per process),
// the firmware's own checks of the configuration it reads at boot.
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_check.h"
#include "models/common/config.h"
#include "models/common/params.h"

using ssdvp::fuzz::check;
using ssdvp::fuzz::note;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  std::string toml = input;
  std::vector<std::string> overrides;
  const size_t marker = input.find("\n--set\n");
  if (marker != std::string::npos) {
    toml = input.substr(0, marker + 1);
    for (size_t start = marker + 7; start < input.size();) {
      const size_t end = input.find('\n', start);
      overrides.push_back(input.substr(start, end == std::string::npos ? std::string::npos : end - start));
      if (end == std::string::npos) break;
      start = end + 1;
    }
  }
  try {
    const ssdvp::Config config = ssdvp::Config::load_text(toml, "fuzz.toml", overrides);
    config.echo();
    const ssdvp::PlatformParams params = ssdvp::PlatformParams::from(config);
    check(params.nand.dies() > 0, "a platform without dies");
    for (const auto& [io, cpu] : params.host.cpu_types)
      check(io <= 100 && cpu <= 100 && io + cpu == 100, "host.cpu.types accepted a split that is not two percentages adding up to 100");
    for (uint32_t cpu : params.host.thread_cpus) check(cpu < params.host.cpus, "host.thread_cpus accepted a CPU the host does not have");
    note("accepted");
  } catch (const ssdvp::ConfigError& e) {
    const std::string what = e.what();
    note("ConfigError: " + what);
    check(what.rfind("fuzz.toml", 0) == 0 || what.rfind("--set", 0) == 0 || what.find("nand") != std::string::npos ||
              what.find("default") != std::string::npos,
          "an error that names neither the file, an override nor a key: " + what);
  }
  return 0;
}
