// Helpers for the workload tests: temporary trace files, draining a workload, and checking
// that a call throws a WorkloadError whose message starts with (or contains) given text.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "traces/workload.h"

namespace ssdvp::workload::test {

// A file with the given content under the test temp directory, removed when destroyed.
class TempTrace {
 public:
  explicit TempTrace(const std::string& content, const std::string& suffix = ".trace");
  ~TempTrace();
  TempTrace(const TempTrace&) = delete;
  TempTrace& operator=(const TempTrace&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Absolute path of a file in traces/samples.
std::string sample_path(const std::string& name);

// All requests of `stream`, in order.
std::vector<Request> drain(Workload& workload, unsigned stream = 0);

// Up to `count` requests of `stream`.
std::vector<Request> take(Workload& workload, size_t count, unsigned stream = 0);

// The message of the WorkloadError `action` throws, or "<no exception>" / "<other: ...>".
std::string workload_error(const std::function<void()>& action);

// Builds the workload and drains stream 0, for error checks on whole files.
void build_and_drain(const std::string& spec, const WorkloadContext& context = {});

}  // namespace ssdvp::workload::test
