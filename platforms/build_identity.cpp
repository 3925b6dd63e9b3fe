// What this build is: see build_identity.h.
#include "platforms/build_identity.h"

#include <fstream>
#include <vector>

#include <fmt/format.h>
#include <systemc>
#include <unicorn/unicorn.h>

#include "models/common/config.h"
#include "platforms/ssdvp_version.h"   // generated at build time: SSDVP_GIT_VERSION

namespace ssdvp {

std::string file_fingerprint(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(path + ": cannot read it to fingerprint the build");
  Fnv64 f;
  std::vector<char> buf(1 << 20);
  while (in.read(buf.data(), std::streamsize(buf.size())) || in.gcount() > 0) f.add(buf.data(), size_t(in.gcount()));
  return fmt::format("{:016x}", f.h);
}

const std::string& executable_fingerprint() {
  static const std::string fp = file_fingerprint("/proc/self/exe");
  return fp;
}

std::string version_text() {
  unsigned major = 0, minor = 0;
  uc_version(&major, &minor);
  std::string firmware;
  try {
    firmware = file_fingerprint(SSDVP_DEFAULT_FIRMWARE) + " (" + SSDVP_DEFAULT_FIRMWARE + ")";
  } catch (const ConfigError&) {
    firmware = std::string("not found (") + SSDVP_DEFAULT_FIRMWARE + ")";
  }
  return fmt::format(
      "ssdvp {} (results format 1)\n"
      "build {}\n"
      "SystemC {}\n"
      "Verilator {} (the RTL channel's model)\n"
      "Unicorn {}.{}.{} (the RV32 cores; the library reports {}.{})\n"
      "firmware image {}",
      SSDVP_GIT_VERSION, executable_fingerprint(), sc_core::sc_release(), SSDVP_VERILATOR_VERSION, UC_VERSION_MAJOR, UC_VERSION_MINOR,
      UC_VERSION_PATCH, major, minor,
      firmware);
}

}  // namespace ssdvp
