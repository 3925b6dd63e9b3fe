// Trace records in file order: see trace_record_reader.h.
#include "traces/trace_record_reader.h"

#include "traces/text_fields.h"

namespace ssdvp::workload {

namespace {

// The parser options for `file`: a binary vscsi trace's lines hold its records' microseconds.
TraceParserOptions options_for(const TraceFile& file, TraceParserOptions options) {
  if (file.binary_vscsi() != 0) options.time_unit = "us";
  return options;
}

}  // namespace

TraceRecordReader::TraceRecordReader(std::string path, const TraceFormat& format,
                                     const TraceParserOptions& options, bool skip_bad)
    : TraceRecordReader(TraceFile(std::move(path)), format, options, skip_bad) {}

TraceRecordReader::TraceRecordReader(TraceFile file, const TraceFormat& format,
                                     const TraceParserOptions& options, bool skip_bad)
    : file_(std::move(file)),
      parser_(format.make_parser(options_for(file_, options))),
      header_(format.layout),
      device_(options.device),
      skip_bad_(skip_bad) {}

std::optional<TraceRecord> TraceRecordReader::next() {
  while (file_.next_content_line()) {
    if (trim(file_.line()) == header_) continue;
    try {
      std::optional<TraceRecord> record = parser_->parse(file_.line());
      if (record && (device_.empty() || record->device == device_)) return record;
    } catch (const TraceLineError& error) {
      if (!skip_bad_) file_.fail_at_line(error.what());
      ++skipped_lines_;
    }
  }
  return std::nullopt;
}

}  // namespace ssdvp::workload
