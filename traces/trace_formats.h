// The trace formats the readers understand, and format auto-detection.
//
// Models: a table of formats, each with its spec name, the columns it offers for stream
// mapping, a sniffing test for auto-detection and a parser factory.  Adding a reader means
// writing reader_NAME.cpp that defines NAME_trace_format() and listing it in trace_formats().
// Compressed traces are the file layer's (trace_file.h).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "traces/trace_file.h"
#include "traces/trace_line_parser.h"

namespace ssdvp::workload {

struct TraceFormat {
  std::string_view name;    // format= value
  std::string_view alias;   // second accepted name ("" if none)
  std::string_view layout;  // one-line field description for messages and docs; a line that
                            // is exactly it (a header naming the columns) is skipped and detected
  bool has_device = false;  // offers streams=by_device
  bool has_pid = false;     // offers streams=by_pid
  bool has_action = false;  // accepts action= (blkparse event selection)
  // true when `line` (a content line) is in this format; used by format=auto.
  bool (*looks_like)(std::string_view line) = nullptr;
  std::unique_ptr<TraceLineParser> (*make_parser)(const TraceParserOptions& options) = nullptr;
};

const TraceFormat& disksim_trace_format();
const TraceFormat& msr_trace_format();
const TraceFormat& umass_trace_format();
const TraceFormat& blkparse_trace_format();
const TraceFormat& blkparse_events_trace_format();
const TraceFormat& alibaba_trace_format();
const TraceFormat& tencent_trace_format();
const TraceFormat& vscsi_trace_format();

// All formats, in the order auto-detection tries them.
const std::vector<const TraceFormat*>& trace_formats();

// The format named `name` (or its alias), or nullptr.
const TraceFormat* find_trace_format(std::string_view name);

// The format of the first content line of `path` that some format recognises (at most the
// first 64 content lines are looked at).  Throws WorkloadError "PATH:LINE: ..." when none
// is recognised and "PATH: ..." for an unreadable or empty file.
const TraceFormat& detect_trace_format(const std::string& path);
// The same for an open trace, read from its current line on (messages name file.path()).
const TraceFormat& detect_trace_format(TraceFile& file);

}  // namespace ssdvp::workload
