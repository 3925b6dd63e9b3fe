// Trace file line access: see trace_file.h.
#include "traces/trace_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "traces/text_fields.h"
#include "traces/workload.h"

namespace ssdvp::workload {

namespace {

// Longest line text quoted in an error message.
constexpr size_t kQuotedLineLimit = 200;

}  // namespace

TraceFile::TraceFile(std::string path) : path_(std::move(path)) {
  std::error_code error;
  if (std::filesystem::is_directory(path_, error)) {
    throw WorkloadError(path_ + ": is a directory, not a trace file");
  }
  auto file = std::make_unique<std::ifstream>(path_, std::ios::in | std::ios::binary);
  if (!*file) {
    throw WorkloadError(path_ + ": cannot open trace file (" + std::strerror(errno) + ")");
  }
  stream_ = std::move(file);
}

TraceFile::TraceFile(std::string name, std::unique_ptr<std::istream> stream)
    : path_(std::move(name)), stream_(std::move(stream)) {}

bool TraceFile::next_content_line() {
  while (std::getline(*stream_, line_)) {
    ++line_number_;
    if (!is_blank_or_comment(line_)) return true;
  }
  if (stream_->bad())
    throw WorkloadError(path_ + ": read error after line " + std::to_string(line_number_));
  return false;
}

void TraceFile::fail_at_line(const std::string& what) const {
  std::string_view line = trim(line_);
  std::string text = printable(line.substr(0, kQuotedLineLimit));
  if (line.size() > kQuotedLineLimit) text += "...";
  throw WorkloadError(path_ + ":" + std::to_string(line_number_) + ": " + what + " (" + text + ")");
}

}  // namespace ssdvp::workload
