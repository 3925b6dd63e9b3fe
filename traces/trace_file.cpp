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
// Longest line read: no trace format comes near it, and a file without line breaks (a binary
// file given as a trace, /dev/zero) is refused instead of read whole into memory.
constexpr size_t kMaxLineBytes = 1 << 20;

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
  while (read_line()) {
    ++line_number_;
    if (!is_blank_or_comment(line_)) return true;
  }
  if (stream_->bad())
    throw WorkloadError(path_ + ": read error after line " + std::to_string(line_number_));
  return false;
}

// std::getline, bounded: istream::getline into a buffer of kMaxLineBytes (+1 for its NUL).
bool TraceFile::read_line() {
  if (buffer_.empty()) buffer_.resize(kMaxLineBytes + 1);
  stream_->getline(buffer_.data(), std::streamsize(buffer_.size()));
  const size_t extracted = size_t(stream_->gcount());
  if (stream_->fail() && !stream_->bad() && !stream_->eof() && extracted == kMaxLineBytes) {
    throw WorkloadError(path_ + ":" + std::to_string(line_number_ + 1) + ": a line longer than " +
                        std::to_string(kMaxLineBytes) + " bytes: not a trace file?");
  }
  if (extracted == 0 && stream_->fail()) return false;   // end of file (or a read error)
  // The '\n' counts as extracted but is not stored; a last line without one stops at EOF.
  const size_t length = stream_->eof() ? extracted : extracted - 1;
  line_.assign(buffer_.data(), length);
  return true;
}

void TraceFile::fail_at_line(const std::string& what) const {
  std::string_view line = trim(line_);
  std::string text = printable(line.substr(0, kQuotedLineLimit));
  if (line.size() > kQuotedLineLimit) text += "...";
  throw WorkloadError(path_ + ":" + std::to_string(line_number_) + ": " + what + " (" + text + ")");
}

}  // namespace ssdvp::workload
