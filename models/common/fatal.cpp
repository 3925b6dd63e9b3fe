#include "models/common/fatal.h"

#include <systemc>

namespace ssdvp {

namespace {
std::vector<std::string>& errors() {
  static std::vector<std::string> e;
  return e;
}
}  // namespace

void report_fatal(const std::string& message) {
  errors().push_back(message);
  if (sc_core::sc_is_running()) sc_core::sc_stop();
}

const std::vector<std::string>& fatal_errors() { return errors(); }

namespace {
std::vector<std::string>& bad_input() {
  static std::vector<std::string> e;
  return e;
}
}  // namespace

void report_input_error(const std::string& message) {
  bad_input().push_back(message);
  report_fatal(message);
}

const std::vector<std::string>& input_errors() { return bad_input(); }

}  // namespace ssdvp
