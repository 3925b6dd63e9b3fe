// Trace format table and auto-detection: see trace_formats.h.
#include "traces/trace_formats.h"

#include "traces/text_fields.h"
#include "traces/workload.h"

namespace ssdvp::workload {

namespace {

// Content lines format=auto looks at before giving up.
constexpr int kDetectionLines = 64;

}  // namespace

const std::vector<const TraceFormat*>& trace_formats() {
  static const std::vector<const TraceFormat*> formats = {
      &blkparse_trace_format(), &blkparse_events_trace_format(), &disksim_trace_format(),
      &msr_trace_format(),      &umass_trace_format(),          &alibaba_trace_format(),
      &vscsi_trace_format(),    &tencent_trace_format(),
  };
  return formats;
}

const TraceFormat* find_trace_format(std::string_view name) {
  for (const TraceFormat* format : trace_formats()) {
    if (name == format->name || (!format->alias.empty() && name == format->alias)) return format;
  }
  return nullptr;
}

const TraceFormat& detect_trace_format(const std::string& path) {
  TraceFile file(path);
  return detect_trace_format(file);
}

const TraceFormat& detect_trace_format(TraceFile& file) {
  const std::string& path = file.path();
  uint64_t first_content_line = 0;
  std::string first_text;
  for (int looked_at = 0; looked_at < kDetectionLines && file.next_content_line(); ++looked_at) {
    for (const TraceFormat* format : trace_formats()) {
      if (trim(file.line()) == format->layout || format->looks_like(file.line())) return *format;
    }
    if (first_content_line == 0) {
      first_content_line = file.line_number();
      first_text = printable(trim(file.line()).substr(0, 200));
    }
  }
  if (first_content_line == 0) {
    throw WorkloadError(path + ": no request lines to detect the trace format from");
  }
  throw WorkloadError(path + ":" + std::to_string(first_content_line) +
                      ": cannot detect the trace format; give format= (" + first_text + ")");
}

}  // namespace ssdvp::workload
