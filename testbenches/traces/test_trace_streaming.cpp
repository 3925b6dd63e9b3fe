// The readers stream: a generated 10 M-line trace (gzip-compressed, so that the test needs no
// gigabyte of disk) is replayed whole while the process's peak memory grows by at most a few
// MiB; and the synthetic lines of every format (the benchmark's, bench_trace_readers.cpp)
// read as the requests they were written as.
#include <gtest/gtest.h>

#include <zlib.h>

#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "synthetic_trace_lines.h"
#include "trace_test_support.h"

namespace ssdvp::workload::test {
namespace {

// A line of /proc/self/status in KiB ("VmRSS", "VmHWM").
uint64_t status_kib(const std::string& key) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(key + ":", 0) == 0) return std::stoull(line.substr(key.size() + 1));
  throw std::runtime_error("no " + key + " in /proc/self/status");
}

// Writes `lines` synthetic lines of `format` gzip-compressed into `path`, a chunk at a time.
void write_gzip_trace(const std::string& path, const std::string& format, uint64_t lines) {
  gzFile out = gzopen(path.c_str(), "wb1");
  ASSERT_NE(out, nullptr);
  std::string chunk;
  for (uint64_t i = 0; i < lines; i++) {
    append_synthetic_line(format, i, chunk);
    if (chunk.size() > (1 << 20) || i + 1 == lines) {
      ASSERT_EQ(gzwrite(out, chunk.data(), unsigned(chunk.size())), int(chunk.size()));
      chunk.clear();
    }
  }
  ASSERT_EQ(gzclose(out), Z_OK);
}

TEST(TraceStreaming, TenMillionLinesReplayInBoundedMemory) {
  constexpr uint64_t kLines = 10'000'000;
  TempTrace trace("", ".gz");
  write_gzip_trace(trace.path(), "alibaba", kLines);
  // The peak from here on: the kernel resets VmHWM to the current RSS.
  std::ofstream("/proc/self/clear_refs") << "5";
  const uint64_t rss_before = status_kib("VmRSS");
  auto workload = make_workload("trace:" + trace.path() + ",streams=single,replay=closed", {});   // format=auto
  uint64_t requests = 0, bytes = 0;
  while (auto r = workload->next(0)) {
    requests++;
    bytes += r->length;
  }
  EXPECT_EQ(requests, kLines);
  EXPECT_EQ(bytes, kLines * 4096);
  const uint64_t growth_kib = status_kib("VmHWM") - rss_before;
  RecordProperty("peak_growth_kib", std::to_string(growth_kib));
  EXPECT_LT(growth_kib, 16u * 1024) << "peak memory grew by " << growth_kib << " KiB reading " << kLines << " lines";
}

// The requests read from `format`'s synthetic lines are the ones the lines say, in order:
// operation, offset, length and arrival (the time written, rebased to the first line).
void expect_synthetic_lines_read(const std::string& format) {
  std::string text;
  std::vector<SyntheticRequest> written;
  for (uint64_t i = 0; i < 1000; i++) written.push_back(append_synthetic_line(format, i, text));
  TempTrace trace(text, ".trace");
  const std::string name = format == "vscsi-binary" ? "vscsi" : format;
  const auto workload = make_workload("trace:" + trace.path() + ",streams=single", {});   // format=auto
  EXPECT_NE(workload->describe().find("format=" + name), std::string::npos) << workload->describe();
  const auto requests = drain(*workload);
  ASSERT_EQ(requests.size(), written.size()) << format;
  for (size_t i = 0; i < requests.size(); i++) {
    const Request& r = requests[i];
    const SyntheticRequest& w = written[i];
    ASSERT_STREQ(op_name(r.op), op_name(w.op)) << format << " line " << i;
    ASSERT_EQ(r.offset, w.offset) << format << " line " << i;
    ASSERT_EQ(r.length, w.length) << format << " line " << i;
    ASSERT_EQ(r.arrival_ns, w.time_ns - written[0].time_ns) << format << " line " << i;
    ASSERT_EQ(r.offset % 4096, 0u) << format << " line " << i;
  }
  // Bursts at each second's start: the last line is 9 s after the first in every format.
  EXPECT_GE(requests.back().arrival_ns, 9000000000u) << format;
}

TEST(TraceStreaming, SyntheticLinesOfEveryFormatAreRead) {
  for (const std::string& format : synthetic_formats()) expect_synthetic_lines_read(format);
}

}  // namespace
}  // namespace ssdvp::workload::test
