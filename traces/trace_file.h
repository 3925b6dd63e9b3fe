// A trace file read one content line at a time (blank lines and '#' comments skipped), with
// errors that point at the file and line.
//
// Models: streaming line access with bounded memory (one line at a time, at most 1 MiB: a
// longer one is an error), however large the file; error messages "PATH:LINE: what is wrong (line text)" and "PATH: what is wrong".
// The lines come from the file at PATH or from any stream given with a name for the messages
// (the fuzzing harnesses feed trace bytes from memory).
// Compressed files are read through their decompressor, chosen by the file's first bytes
// (not its name): gzip, xz, zstd and bzip2 (decompressing_streambuf.h); a corrupt stream, or
// one cut short (no end marker), is an error naming the file.
// Binary vscsi traces (VMware/CloudPhysics records of 32 bytes, version 1, or 40 bytes,
// version 2; recognised by the version field of their first two records, as libCacheSim
// does) are read a record at a time, each given as a CSV line of the vscsi format
// ("version,time,op,size,lbn", reader_vscsi.cpp) with the record's time in microseconds, as the
// record has it (libCacheSim's CSV has whole seconds; the record reader reads these lines with
// time_unit=us); line numbers count records.
// Leaves out: parsing (TraceLineParser), seeking.
#pragma once

#include <cstdint>
#include <istream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "traces/decompressing_streambuf.h"

namespace ssdvp::workload {

class TraceFile {
 public:
  // Throws WorkloadError naming `path` when it cannot be opened or is a directory.
  explicit TraceFile(std::string path);
  // Lines of `stream`; `name` stands for the path in messages.
  TraceFile(std::string name, std::unique_ptr<std::istream> stream);

  // Advances to the next content line; false at end of file.  Throws on a read error.
  bool next_content_line();
  std::string_view line() const { return line_; }
  uint64_t line_number() const { return line_number_; }
  const std::string& path() const { return path_; }
  // "gzip", "xz", "zstd", "bzip2", or "" for a plain file.
  const std::string& compression() const { return compression_; }
  // 1 or 2 for a binary vscsi trace, else 0.
  unsigned binary_vscsi() const { return vscsi_version_; }

  // Throws WorkloadError "PATH:LINE: what (current line)".
  [[noreturn]] void fail_at_line(const std::string& what) const;

 private:
  static constexpr size_t kVscsiV1Bytes = 32, kVscsiV2Bytes = 40;
  std::string path_;
  std::string compression_;
  std::unique_ptr<DecompressingStreambuf> decompressor_;   // compressed files: under stream_
  std::unique_ptr<std::istream> stream_;
  size_t record_bytes_ = 0;      // binary vscsi records: their size (0: lines)
  unsigned vscsi_version_ = 0;
  void open_decompressed(Compression c);
  bool binary_vscsi_version();
  bool read_record();
  // Reads the next line into line_ (without its '\n'); false at end of file.  Throws for a
  // line longer than the limit (trace_file.cpp).
  bool read_line();

  std::string line_;
  std::vector<char> buffer_;   // read_line's, allocated at the first line
  uint64_t line_number_ = 0;
};

}  // namespace ssdvp::workload
