// The request records of a trace file in file order: a TraceFile read through one format's
// line parser, with malformed lines either fatal or skipped and counted (skip_bad).
//
// Models: the per-line error policy of every reader.  A binary vscsi file's lines carry its
// records' microseconds, so its parser reads them with time_unit=us (trace_file.h).
// Leaves out: time rebasing and scaling, stream numbering, request limits (TraceWorkload).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "traces/trace_file.h"
#include "traces/trace_formats.h"

namespace ssdvp::workload {

class TraceRecordReader {
 public:
  TraceRecordReader(std::string path, const TraceFormat& format, const TraceParserOptions& options,
                    bool skip_bad);
  // The records of an already open trace (a file or a stream).
  TraceRecordReader(TraceFile file, const TraceFormat& format, const TraceParserOptions& options,
                    bool skip_bad);

  // The next request record, or nullopt at end of file.  The record's views stay valid until
  // the next call.  A malformed line throws WorkloadError "PATH:LINE: what (line)" unless
  // skip_bad is on, in which case it is counted and skipped.  A header line (the format's
  // layout) is passed over, and with options.device so are records of other devices.
  std::optional<TraceRecord> next();
  uint64_t skipped_lines() const { return skipped_lines_; }
  // true for a binary vscsi trace (its records' times are microseconds, whatever time_unit= says).
  bool binary_vscsi() const { return file_.binary_vscsi() != 0; }
  [[noreturn]] void fail_at_line(const std::string& what) const { file_.fail_at_line(what); }

 private:
  TraceFile file_;
  std::unique_ptr<TraceLineParser> parser_;
  std::string_view header_;
  std::string device_;
  bool skip_bad_;
  uint64_t skipped_lines_ = 0;
};

}  // namespace ssdvp::workload
