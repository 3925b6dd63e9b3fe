// Fuzzing harness: a workload spec string through make_workload (fio:, rr:, phases "A;B",
// and the trace: option list), then the first requests of every stream.
//
// Covers: SpecOptions (key=value lists, byte sizes, percentages, reals), parse_fio_config,
// parse_rr_config, request extents, random distributions (zipf, pareto, hotcold), the phase
// list, parse_trace_options; the generators' first requests, which must lie inside the
// namespace when its capacity is known and have a length unless they are flushes.  Each spec
// is tried with a 16 GiB namespace and with an unknown one (capacity 0).  A bad spec must
// end in WorkloadError naming the spec.
// Leaves out: trace files (the harness runs in an empty scratch folder and ignores specs with
// a '/', so no trace opens; trace_reader.cpp fuzzes those), long runs of a generator (at most
// 64 streams x 64 requests).
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "fuzz_check.h"
#include "traces/workload.h"

using namespace ssdvp::workload;
using ssdvp::fuzz::check;
using ssdvp::fuzz::note;

namespace {

// An empty folder of this process as the working folder, so that a spec naming a file finds
// none; removed at exit.
struct EmptyFolder {
  std::string path;
  EmptyFolder() {
    const char* dir = std::getenv("TMPDIR");
    path = std::string(dir && *dir ? dir : "/tmp") + "/ssdvp-fuzz-spec-" + std::to_string(getpid());
    mkdir(path.c_str(), 0700);
    check(chdir(path.c_str()) == 0, "cannot enter " + path);
  }
  ~EmptyFolder() { rmdir(path.c_str()); }
};

void enter_empty_folder() { static const EmptyFolder folder; }

void run(const std::string& spec, uint64_t capacity) {
  WorkloadContext ctx;
  ctx.capacity_bytes = capacity;
  ctx.seed = 7;
  const std::string where = "capacity " + std::to_string(capacity) + ": ";
  try {
    const std::unique_ptr<Workload> w = make_workload(spec, ctx);
    w->describe();
    std::string first;   // the first requests' offsets (what a seed's fix decides)
    check(w->streams() >= 1, "a workload with no streams");
    for (unsigned s = 0; s < w->streams() && s < 64; s++) {
      for (unsigned n = 0; n < 64; n++) {
        const std::optional<Request> r = w->next(s);
        if (!r) break;
        check(r->op <= Op::Trim, "an operation outside Op");
        check(r->stream == s, "a request of another stream");
        if (r->op == Op::Flush) continue;
        check(r->length > 0, "a request of length 0 from '" + spec + "'");
        if (s == 0 && n < 4) first += " " + std::to_string(r->offset);
        if (capacity != 0)
          check(r->offset <= capacity && r->length <= capacity - r->offset,
                "request " + std::to_string(r->offset) + "+" + std::to_string(r->length) +
                    " beyond the capacity from '" + spec + "'");
      }
    }
    note(where + "accepted; first offsets" + first);
  } catch (const WorkloadError& e) {
    // Generator specs are named in the message; a trace names its file (and line).
    const std::string what = e.what();
    note(where + "WorkloadError: " + what);
    check(what.rfind("workload ", 0) == 0 || (spec.find("trace:") != std::string::npos && !what.empty()),
          "an error that names no workload: " + what);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  enter_empty_folder();
  const std::string spec(reinterpret_cast<const char*>(data), size);
  if (spec.find('/') != std::string::npos) return 0;   // no paths: see the header
  run(spec, 16ull << 30);
  run(spec, 0);
  return 0;
}
