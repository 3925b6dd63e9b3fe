// Trace file line access: see trace_file.h.
#include "traces/trace_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>


#include "traces/text_fields.h"
#include "traces/workload.h"

namespace ssdvp::workload {

namespace {

// Longest line text quoted in an error message.
constexpr size_t kQuotedLineLimit = 200;
// Longest line read: no trace format comes near it, and a file without line breaks (a binary
// file given as a trace, /dev/zero) is refused instead of read whole into memory.
constexpr size_t kMaxLineBytes = 1 << 20;

// The compression whose magic number `head` starts with, or nullopt.
std::optional<Compression> compression_of(const unsigned char* head, size_t n) {
  auto starts = [&](std::initializer_list<unsigned char> magic) {
    if (n < magic.size()) return false;
    size_t i = 0;
    for (unsigned char m : magic)
      if (head[i++] != m) return false;
    return true;
  };
  if (starts({0x1F, 0x8B})) return Compression::Gzip;
  if (starts({0xFD, '7', 'z', 'X', 'Z', 0x00})) return Compression::Xz;
  if (starts({0x28, 0xB5, 0x2F, 0xFD})) return Compression::Zstd;
  if (starts({'B', 'Z', 'h'})) return Compression::Bzip2;
  return std::nullopt;
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
  const std::optional<Compression> compression = compression_of(head, size_t(file->gcount()));
  if (!compression) {
    file->clear();
    file->seekg(0);
    stream_ = std::move(file);
  } else {
    compression_ = compression_name(*compression);
    open_decompressed(*compression);
  }
  // Records or lines: either way they are read from the first byte again.
  binary_vscsi_version();
  if (compression) {
    open_decompressed(*compression);
  } else {
    stream_->clear();
    stream_->seekg(0);
  }
}

void TraceFile::open_decompressed(Compression c) {
  stream_.reset();
  try {
    decompressor_ = std::make_unique<DecompressingStreambuf>(path_, c);
  } catch (const std::runtime_error& e) {
    throw WorkloadError(path_ + ": " + e.what());
  }
  stream_ = std::make_unique<std::istream>(decompressor_.get());
}

TraceFile::TraceFile(std::string name, std::unique_ptr<std::istream> stream)
    : path_(std::move(name)), stream_(std::move(stream)) {
  // Only a stream that can be read again is looked at for binary records.
  if (stream_->tellg() != std::streampos(0)) return;
  binary_vscsi_version();
  stream_->clear();
  stream_->seekg(0);
}

// Looks at the first two records' version fields (libCacheSim's test): sets record_bytes_
// and vscsi_version_ for a binary vscsi trace; leaves the stream wherever the look left it.
bool TraceFile::binary_vscsi_version() {
  unsigned char head[2 * kVscsiV2Bytes] = {};
  stream_->read(reinterpret_cast<char*>(head), sizeof head);
  const size_t n = size_t(stream_->gcount());
  const auto version_at = [&](size_t offset) { return unsigned(head[offset + 1]); };   // u16 LE, >> 8
  if (n >= 2 * kVscsiV2Bytes && version_at(2) == 2 && version_at(kVscsiV2Bytes + 2) == 2) {
    record_bytes_ = kVscsiV2Bytes;
    vscsi_version_ = 2;
  } else if (n >= 2 * kVscsiV1Bytes && version_at(14) == 1 && version_at(kVscsiV1Bytes + 14) == 1) {
    record_bytes_ = kVscsiV1Bytes;
    vscsi_version_ = 1;
  }
  return record_bytes_ != 0;
}

bool TraceFile::next_content_line() {
  while (read_line()) {
    ++line_number_;
    if (!is_blank_or_comment(line_)) return true;
  }
  if (stream_->bad()) {
    const std::string why = decompressor_ && !decompressor_->error().empty() ? decompressor_->error() : "read error";
    throw WorkloadError(path_ + ": " + why + ", after " + (record_bytes_ ? "record " : "line ") +
                        std::to_string(line_number_));
  }
  return false;
}

// A binary vscsi record as a vscsi CSV line (reader_vscsi.cpp parses it, with time_unit=us):
// version,time,op,size,lbn with the record's time in microseconds.
bool TraceFile::read_record() {
  unsigned char r[kVscsiV2Bytes];
  stream_->read(reinterpret_cast<char*>(r), std::streamsize(record_bytes_));
  const size_t got = size_t(stream_->gcount());
  if (got == 0) return false;
  if (got < record_bytes_)
    throw WorkloadError(path_ + ": the last binary vscsi record (record " + std::to_string(line_number_ + 1) +
                        ") is cut short: " + std::to_string(got) + " of " + std::to_string(record_bytes_) +
                        " bytes (a truncated file?)");
  const auto u16 = [&](size_t o) { return unsigned(r[o]) | unsigned(r[o + 1]) << 8; };
  const auto u32 = [&](size_t o) { return uint32_t(u16(o)) | uint32_t(u16(o + 2)) << 16; };
  const auto u64 = [&](size_t o) { return uint64_t(u32(o)) | uint64_t(u32(o + 4)) << 32; };
  // v1: sn u32, len u32, nSG u32, cmd u16, ver u16, lbn u64, ts u64;
  // v2: cmd u16, ver u16, sn u32, len u32, nSG u32, lbn u64, ts u64, rt u64.
  const bool v2 = vscsi_version_ == 2;
  const unsigned cmd = u16(v2 ? 0 : 12), version = u16(v2 ? 2 : 14) >> 8;
  const uint32_t len = u32(v2 ? 8 : 4);
  const uint64_t lbn = u64(16), ts = u64(24);   // the same offsets in both
  char text[96];
  std::snprintf(text, sizeof text, "%u,%llu,%x,%lu,%llu", version, static_cast<unsigned long long>(ts), cmd,
                static_cast<unsigned long>(len), static_cast<unsigned long long>(lbn));
  line_ = text;
  return true;
}

// std::getline, bounded: istream::getline into a buffer of kMaxLineBytes (+1 for its NUL).
bool TraceFile::read_line() {
  if (record_bytes_) return read_record();
  if (buffer_.empty()) buffer_.resize(kMaxLineBytes + 1);
  stream_->getline(buffer_.data(), std::streamsize(buffer_.size()));
  const size_t extracted = size_t(stream_->gcount());
  if (stream_->fail() && !stream_->bad() && !stream_->eof() && extracted == kMaxLineBytes) {
    throw WorkloadError(path_ + ":" + std::to_string(line_number_ + 1) + ": a line longer than " +
                        std::to_string(kMaxLineBytes) + " bytes: not a trace file?");
  }
  if (stream_->bad()) return false;                      // a read or decompression error
  if (extracted == 0 && stream_->fail()) return false;   // end of file
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
