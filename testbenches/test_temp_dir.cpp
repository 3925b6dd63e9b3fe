// A temporary directory per test process (see test_temp_dir.h).
#include "test_temp_dir.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace ssdvp::test {

namespace {
std::string own_dir;
}

void use_own_temp_dir() {
  const char* base = std::getenv("TEST_TMPDIR");
  std::filesystem::path dir = (base != nullptr && base[0] != '\0') ? base : "/tmp";
  dir /= "ssdvp-tests";
  dir /= std::to_string(::getpid());
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    std::fprintf(stderr, "cannot make the test directory %s: %s\n", dir.c_str(), ec.message().c_str());
    std::exit(2);
  }
  own_dir = dir.string() + "/";
  ::setenv("TEST_TMPDIR", own_dir.c_str(), 1);
}

void remove_own_temp_dir(bool passed) {
  if (own_dir.empty()) return;
  if (!passed) {
    std::fprintf(stderr, "test files kept in %s\n", own_dir.c_str());
    return;
  }
  std::error_code ec;
  std::filesystem::remove_all(own_dir, ec);
}

}  // namespace ssdvp::test
