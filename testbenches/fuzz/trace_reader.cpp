// Fuzzing harness: the bytes of a trace file through every trace reader.
//
// Covers: format detection (detect_trace_format), each format's line parser with blkparse
// actions D, Q and C, the record reader's per-line error policy with skip_bad off and on, and
// the replay itself (TraceWorkload: time rebasing and scaling, stream numbering by device and
// pid) on the same bytes written to a scratch file.  A bad line must end in WorkloadError
// naming the file and line; records must keep their promises (a length for every request
// but a flush, views into the line).
// Leaves out: traces larger than libFuzzer's -max_len, read errors of the file system.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <unistd.h>

#include "fuzz_check.h"
#include "traces/trace_formats.h"
#include "traces/trace_record_reader.h"
#include "traces/trace_workload.h"

using namespace ssdvp::workload;
using ssdvp::fuzz::check;
using ssdvp::fuzz::note;

namespace {

TraceFile memory_trace(const std::string& bytes) {
  return TraceFile("fuzz.trace", std::make_unique<std::istringstream>(bytes));
}

// Every record of `bytes` in `format`; the error, if any, names the trace and a line.
void read_all(const std::string& bytes, const TraceFormat& format, char action, bool skip_bad) {
  TraceParserOptions options;
  options.action = action;
  try {
    TraceRecordReader reader(memory_trace(bytes), format, options, skip_bad);
    for (unsigned n = 0; n < 100000; n++) {
      const std::optional<TraceRecord> record = reader.next();
      if (!record) break;
      check(record->op == Op::Flush || record->length > 0, "a request of length 0 was accepted");
      check(record->op <= Op::Trim, "an operation outside Op");
    }
  } catch (const WorkloadError& e) {
    check(std::string(e.what()).rfind("fuzz.trace:", 0) == 0, std::string("error without the file: ") + e.what());
  }
}

// A scratch file of this process for the replay, which reads by path; removed at exit.
struct ScratchFile {
  std::string path;
  ScratchFile() {
    const char* dir = std::getenv("TMPDIR");
    path = std::string(dir && *dir ? dir : "/tmp") + "/ssdvp-fuzz-trace-" + std::to_string(getpid()) + ".trace";
  }
  ~ScratchFile() { std::remove(path.c_str()); }
};

const std::string& scratch_path() {
  static const ScratchFile file;
  return file.path;
}

void replay(const std::string& bytes, uint8_t selector) {
  {
    std::ofstream out(scratch_path(), std::ios::binary | std::ios::trunc);
    out << bytes;
  }
  static const char* const kOptions[] = {"", ",streams=by_device", ",streams=by_pid", ",scale=0.5",
                                         ",replay=closed,iodepth=4", ",max=3", ",skip_bad=1", ",scale=1e300"};
  std::string spec = "trace:" + scratch_path() + kOptions[selector & 7];
  if (selector & 8) spec += ",format=" + std::string(trace_formats()[(selector >> 4) % trace_formats().size()]->name);
  try {
    TraceWorkload workload(parse_trace_options(spec, 6), spec);
    workload.validate();
    uint64_t requests = 0;
    for (unsigned s = 0; s < workload.streams() && requests < 100000; s++) {
      uint64_t last_arrival = 0;
      while (const std::optional<Request> r = workload.next(s)) {
        check(r->arrival_ns >= last_arrival, "arrivals of a stream went backwards");
        last_arrival = r->arrival_ns;
        if (++requests >= 100000) break;
      }
    }
    note("replay '" + spec.substr(spec.find(',') == std::string::npos ? spec.size() : spec.find(',')) + "': " +
         std::to_string(requests) + " requests");
  } catch (const WorkloadError& e) {
    note("replay: WorkloadError: " + std::string(e.what()));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t selector = data[0];
  const std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    TraceFile file = memory_trace(bytes);
    detect_trace_format(file);
  } catch (const WorkloadError& e) {
    check(std::string(e.what()).rfind("fuzz.trace", 0) == 0, std::string("error without the file: ") + e.what());
  }
  for (const TraceFormat* format : trace_formats()) {
    read_all(bytes, *format, 'D', selector & 1);
    if (format->has_action) read_all(bytes, *format, (selector & 2) ? 'Q' : 'C', selector & 1);
  }
  replay(bytes, selector);
  return 0;
}
