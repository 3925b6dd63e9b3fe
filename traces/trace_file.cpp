// Trace file line access: see trace_file.h.
#include "traces/trace_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <boost/iostreams/device/file.hpp>
#include <boost/iostreams/filter/bzip2.hpp>
#include <boost/iostreams/filter/gzip.hpp>
#include <boost/iostreams/filter/lzma.hpp>
#include <boost/iostreams/filter/zstd.hpp>
#include <boost/iostreams/filtering_stream.hpp>

#include "traces/text_fields.h"
#include "traces/workload.h"

namespace ssdvp::workload {

namespace {

// Longest line text quoted in an error message.
constexpr size_t kQuotedLineLimit = 200;
// Longest line read: no trace format comes near it, and a file without line breaks (a binary
// file given as a trace, /dev/zero) is refused instead of read whole into memory.
constexpr size_t kMaxLineBytes = 1 << 20;

// The compression whose magic number `head` starts with, or "".
std::string compression_of(const unsigned char* head, size_t n) {
  auto starts = [&](std::initializer_list<unsigned char> magic) {
    if (n < magic.size()) return false;
    size_t i = 0;
    for (unsigned char m : magic)
      if (head[i++] != m) return false;
    return true;
  };
  if (starts({0x1F, 0x8B})) return "gzip";
  if (starts({0xFD, '7', 'z', 'X', 'Z', 0x00})) return "xz";
  if (starts({0x28, 0xB5, 0x2F, 0xFD})) return "zstd";
  if (starts({'B', 'Z', 'h'})) return "bzip2";
  return "";
}

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
  unsigned char head[6] = {};
  file->read(reinterpret_cast<char*>(head), sizeof head);
  compression_ = compression_of(head, size_t(file->gcount()));
  if (compression_.empty()) {
    file->clear();
    file->seekg(0);
    stream_ = std::move(file);
    return;
  }
  namespace io = boost::iostreams;
  auto in = std::make_unique<io::filtering_istream>();
  if (compression_ == "gzip") in->push(io::gzip_decompressor());
  else if (compression_ == "xz") in->push(io::lzma_decompressor());
  else if (compression_ == "zstd") in->push(io::zstd_decompressor());
  else in->push(io::bzip2_decompressor());
  in->push(io::file_source(path_, std::ios::in | std::ios::binary));
  stream_ = std::move(in);
}

TraceFile::TraceFile(std::string name, std::unique_ptr<std::istream> stream)
    : path_(std::move(name)), stream_(std::move(stream)) {}

bool TraceFile::next_content_line() {
  while (read_line()) {
    ++line_number_;
    if (!is_blank_or_comment(line_)) return true;
  }
  if (stream_->bad())
    throw WorkloadError(path_ + ": read error after line " + std::to_string(line_number_) +
                        (compression_.empty() ? "" : " (" + compression_ + " data corrupt or truncated)"));
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
