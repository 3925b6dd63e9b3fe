// Helpers for the workload tests: see trace_test_support.h.
#include "trace_test_support.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <memory>

#include <unistd.h>

namespace ssdvp::workload::test {

TempTrace::TempTrace(const std::string& content, const std::string& suffix) {
  static std::atomic<int> counter{0};
  const testing::TestInfo* info = testing::UnitTest::GetInstance()->current_test_info();
  // Suite, test and process in the name: ctest -j runs same-named tests of other suites at once.
  path_ = testing::TempDir() + "ssdvp_" + (info != nullptr ? std::string(info->test_suite_name()) + "." + info->name() : "trace") +
          "_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + suffix;
  std::ofstream out(path_, std::ios::binary);
  out << content;
}

TempTrace::~TempTrace() {
  std::remove(path_.c_str());
}

std::string sample_path(const std::string& name) {
  return std::string(SSDVP_TRACE_SAMPLES_DIR) + "/" + name;
}

std::vector<Request> drain(Workload& workload, unsigned stream) {
  std::vector<Request> requests;
  while (const std::optional<Request> request = workload.next(stream)) requests.push_back(*request);
  return requests;
}

std::vector<Request> take(Workload& workload, size_t count, unsigned stream) {
  std::vector<Request> requests;
  while (requests.size() < count) {
    const std::optional<Request> request = workload.next(stream);
    if (!request) break;
    requests.push_back(*request);
  }
  return requests;
}

std::string workload_error(const std::function<void()>& action) {
  try {
    action();
  } catch (const WorkloadError& error) {
    return error.what();
  } catch (const std::exception& error) {
    return std::string("<other: ") + error.what() + ">";
  }
  return "<no exception>";
}

void build_and_drain(const std::string& spec, const WorkloadContext& context) {
  const std::unique_ptr<Workload> workload = make_workload(spec, context);
  for (unsigned stream = 0; stream < workload->streams(); ++stream) drain(*workload, stream);
}

}  // namespace ssdvp::workload::test
