// Trace format table and auto-detection: see trace_formats.h.
#include "traces/trace_formats.h"

#include "traces/text_fields.h"
#include "traces/workload.h"

namespace ssdvp::workload {

namespace {

// Content lines format=auto looks at before giving up.
constexpr int kDetectionLines = 64;

// A line no text trace has: a NUL, or more than one byte in twenty a control character other
// than tab and CR (a program, an image, a file compressed in a format the reader does not open).
bool looks_binary(std::string_view line) {
  size_t control = 0;
  for (const char c : line) {
    const auto b = static_cast<unsigned char>(c);
    if (b == 0) return true;
    if ((b < 0x20 && b != '\t' && b != '\r') || b == 0x7F) control++;
  }
  return control * 20 > line.size();
}

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
    if (first_content_line == 0 && looks_binary(file.line())) {
      throw WorkloadError(path + ":" + std::to_string(file.line_number()) +
                          ": a binary file, not a text trace (a trace is text, a request a line, or such a file "
                          "compressed with gzip, xz, zstd or bzip2: docs/traces.md)");
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
