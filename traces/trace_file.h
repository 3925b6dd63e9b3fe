// A trace file read one content line at a time (blank lines and '#' comments skipped), with
// errors that point at the file and line.
//
// Models: streaming line access with bounded memory (one line at a time, at most 1 MiB: a
// longer one is an error), however large the file; error messages "PATH:LINE: what is wrong (line text)" and "PATH: what is wrong".
// The lines come from the file at PATH or from any stream given with a name for the messages
// (the fuzzing harnesses feed trace bytes from memory).
// Compressed files are read through their decompressor, chosen by the file's first bytes
// (not its name): gzip, xz, zstd and bzip2 (Boost.Iostreams); a corrupt stream is an error
// naming the file.  Weak: a stream cut short ends where it was cut (a partial last line is a
// malformed line; a cut at a line's end goes unnoticed): Boost's filters do not report a
// missing end marker.
// Leaves out: parsing (TraceLineParser), seeking.
#pragma once

#include <cstdint>
#include <istream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

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

  // Throws WorkloadError "PATH:LINE: what (current line)".
  [[noreturn]] void fail_at_line(const std::string& what) const;

 private:
  std::string path_;
  std::string compression_;
  std::unique_ptr<std::istream> stream_;
  // Reads the next line into line_ (without its '\n'); false at end of file.  Throws for a
  // line longer than the limit (trace_file.cpp).
  bool read_line();

  std::string line_;
  std::vector<char> buffer_;   // read_line's, allocated at the first line
  uint64_t line_number_ = 0;
};

}  // namespace ssdvp::workload
