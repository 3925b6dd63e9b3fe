// Trace reader speed (a benchmark, not a test): for every format, N synthetic lines
// (synthetic_trace_lines.h) written to a temporary file and replayed whole through
// make_workload (detection, parsing, the replay's bookkeeping), best of three; then the same
// for one format compressed each way.  Prints lines/s and MB/s of the file as read.
//   trace_reader_bench [LINES]   (default 2,000,000)
#include <unistd.h>
#include <zlib.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

#include "compress_for_tests.h"
#include "synthetic_trace_lines.h"
#include "traces/workload.h"

using namespace ssdvp::workload;
using namespace ssdvp::workload::test;

namespace {

double replay_seconds(const std::string& path, uint64_t expect) {
  double best = 1e9;
  for (int run = 0; run < 3; run++) {
    const auto t0 = std::chrono::steady_clock::now();
    auto w = make_workload("trace:" + path + ",streams=single,replay=closed", {});
    uint64_t n = 0;
    while (w->next(0)) n++;
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (n != expect) {
      std::fprintf(stderr, "%s: %llu requests, expected %llu\n", path.c_str(), (unsigned long long)n,
                   (unsigned long long)expect);
      std::exit(1);
    }
    if (s < best) best = s;
  }
  return best;
}

void row(const std::string& label, uint64_t lines, uint64_t file_bytes, uint64_t text_bytes, double s) {
  std::printf("%-24s %10llu %10.1f %8.3f %12.0f %10.1f\n", label.c_str(), (unsigned long long)lines,
              double(file_bytes) / 1e6, s, double(lines) / s, double(text_bytes) / 1e6 / s);
}

}  // namespace

int main(int argc, char** argv) {
  const uint64_t lines = argc > 1 ? std::stoull(argv[1]) : 2'000'000;
  const std::string path = "/tmp/ssdvp_trace_reader_bench_" + std::to_string(getpid());
  std::printf("%-24s %10s %10s %8s %12s %10s\n", "format", "lines", "file MB", "s", "lines/s", "text MB/s");
  std::string alibaba;
  for (const std::string& format : synthetic_formats()) {
    std::string text;
    for (uint64_t i = 0; i < lines; i++) append_synthetic_line(format, i, text);
    std::ofstream(path, std::ios::binary) << text;
    row(format, lines, text.size(), text.size(), replay_seconds(path, lines));
    if (format == "alibaba") alibaba = std::move(text);
  }
  for (const char* kind : {"gzip", "xz", "zstd", "bzip2"}) {
    const std::string packed = compress(alibaba, kind);
    std::ofstream(path, std::ios::binary) << packed;
    row(std::string("alibaba, ") + kind, lines, packed.size(), alibaba.size(), replay_seconds(path, lines));
  }
  std::remove(path.c_str());
  return 0;
}
