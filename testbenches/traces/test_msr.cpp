// MSR Cambridge CSV reader: filetime ticks, Read/Write in any case, byte offsets, errors.
#include <gtest/gtest.h>

#include "trace_test_support.h"

namespace ssdvp::workload::test {
namespace {

const char* const kTrace =
    "128166372003061629,hm,1,Read,383496192,32768,4022\n"
    "128166372003061639,hm,0,write,4096,512,100\n"
    "128166372016382155,web,1,READ,0,65536,3002\n";

TEST(MsrReader, MapsFieldsToRequests) {
  TempTrace trace(kTrace, ".csv");
  const auto workload = make_workload("trace:" + trace.path() + ",format=msr", {});
  const std::vector<Request> requests = drain(*workload);
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(requests[0].op, Op::Read);
  EXPECT_EQ(requests[0].offset, 383496192u);
  EXPECT_EQ(requests[0].length, 32768u);
  EXPECT_EQ(requests[0].arrival_ns, 0u);
  EXPECT_EQ(requests[1].op, Op::Write);
  EXPECT_EQ(requests[1].offset, 4096u);
  EXPECT_EQ(requests[1].length, 512u);
  EXPECT_EQ(requests[1].arrival_ns, 1000u);  // 10 ticks of 100 ns
  EXPECT_EQ(requests[2].op, Op::Read);
  EXPECT_EQ(requests[2].arrival_ns, (128166372016382155ull - 128166372003061629ull) * 100);
}

TEST(MsrReader, StreamsByHostAndDisk) {
  TempTrace trace(kTrace, ".csv");
  const auto workload = make_workload("trace:" + trace.path() + ",streams=by_device", {});
  ASSERT_EQ(workload->streams(), 3u);  // hm,1  hm,0  web,1
  EXPECT_EQ(drain(*workload, 2).at(0).offset, 0u);
  EXPECT_EQ(drain(*workload, 1).at(0).offset, 4096u);
  EXPECT_EQ(drain(*workload, 0).at(0).offset, 383496192u);
}

TEST(MsrReader, MalformedLinesNamePathAndLine) {
  const struct {
    const char* line;
    const char* message;
  } cases[] = {
      {"128166372003061629,hm,1,Read,383496192,32768",
       "expected 7 fields (Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime), found 6"},
      {"128166372003061629,hm,1,Flush,0,0,1", "unknown Type 'Flush' (Read or Write)"},
      {"128166372003061629,hm,1,Read,12z,4096,1", "Offset '12z' is not a non-negative integer"},
      {"128166372003061629,hm,1,Write,0,0,1", "size is 0 for a write"},
      {"1.5,hm,1,Write,0,512,1", "Timestamp '1.5' is not a non-negative integer"},
      {"128166372003061629,,1,Write,0,512,1", "Hostname is empty"},
  };
  for (const auto& c : cases) {
    TempTrace trace(std::string(kTrace) + c.line + "\n", ".csv");
    const std::string message =
        workload_error([&] { build_and_drain("trace:" + trace.path() + ",format=msr"); });
    EXPECT_EQ(message.rfind(trace.path() + ":4: " + c.message, 0), 0u) << message;
  }
}

TEST(MsrReader, SkipBadCounts) {
  TempTrace trace(
      std::string(kTrace) + "x,hm,1,Read,0,512,1\n128166372016382155,web,1,Read,0,0,1\n", ".csv");
  const auto workload = make_workload("trace:" + trace.path() + ",format=msr,skip_bad=1", {});
  EXPECT_EQ(drain(*workload).size(), 3u);
  EXPECT_EQ(workload->skipped_lines(), 2u);
}

}  // namespace
}  // namespace ssdvp::workload::test
