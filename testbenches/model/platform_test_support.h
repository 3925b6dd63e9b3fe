// Helpers for tests that build a whole platform (one per process).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "platforms/ssd_platform.h"

namespace ssdvp::test {

// A small platform that preconditions and runs in well under a second per 10k requests.
std::vector<std::string> small_platform();

struct Run {
  std::unique_ptr<SsdPlatform> platform;
  nlohmann::json results;
};

// Builds the platform from defaults + `sets`, runs `workload`, returns both.
Run run_platform(std::vector<std::string> sets, const std::string& workload, bool precondition = true);

// Checks every run must pass: completed, no fatal errors, integrity without mismatches.
void expect_clean(const nlohmann::json& r);

double ns(const sc_core::sc_time& t);

}  // namespace ssdvp::test
