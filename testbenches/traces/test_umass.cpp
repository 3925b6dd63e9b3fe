// UMass/SPC CSV reader: sector LBAs, byte sizes, r/w opcodes, seconds, extra fields, errors.
#include <gtest/gtest.h>

#include "trace_test_support.h"

namespace ssdvp::workload::test {
namespace {

const char* const kTrace =
    "0,303567,3584,w,0.000000\n"
    "1,55590,3072,R,0.001500,extra,fields\n"
    "0,1,512,W,2.25\n";

TEST(UmassReader, MapsFieldsToRequests) {
  TempTrace trace(kTrace, ".spc");
  const auto workload = make_workload("trace:" + trace.path() + ",format=umass", {});
  const std::vector<Request> requests = drain(*workload);
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(requests[0].op, Op::Write);
  EXPECT_EQ(requests[0].offset, 303567u * 512);
  EXPECT_EQ(requests[0].length, 3584u);
  EXPECT_EQ(requests[0].arrival_ns, 0u);
  EXPECT_EQ(requests[1].op, Op::Read);
  EXPECT_EQ(requests[1].offset, 55590u * 512);
  EXPECT_EQ(requests[1].length, 3072u);
  EXPECT_EQ(requests[1].arrival_ns, 1500000u);
  EXPECT_EQ(requests[2].op, Op::Write);
  EXPECT_EQ(requests[2].arrival_ns, 2250000000u);
}

TEST(UmassReader, StreamsByAsu) {
  TempTrace trace(kTrace, ".spc");
  const auto workload =
      make_workload("trace:" + trace.path() + ",format=spc,streams=by_device", {});
  ASSERT_EQ(workload->streams(), 2u);
  EXPECT_EQ(drain(*workload, 0).size(), 2u);
  EXPECT_EQ(drain(*workload, 1).size(), 1u);
}

TEST(UmassReader, MalformedLinesNamePathAndLine) {
  const struct {
    const char* line;
    const char* message;
  } cases[] = {
      {"0,303567,3584,w", "expected at least 5 fields (ASU,LBA,Size,Opcode,Timestamp), found 4"},
      {"0,303567,3584,x,0.1", "unknown Opcode 'x' (r or w)"},
      {"0,303567,0,r,0.1", "size is 0 for a read"},
      {"0,303567,-1,r,0.1", "Size '-1' is not a non-negative integer"},
      {"0,303567,512,r,abc", "Timestamp 'abc' is not a non-negative number"},
  };
  for (const auto& c : cases) {
    TempTrace trace(std::string(kTrace) + "\n" + c.line + "\n", ".spc");
    const std::string message =
        workload_error([&] { build_and_drain("trace:" + trace.path() + ",format=umass"); });
    EXPECT_EQ(message.rfind(trace.path() + ":5: " + c.message, 0), 0u) << message;
  }
}

TEST(UmassReader, SkipBadCounts) {
  TempTrace trace(std::string(kTrace) + "0,1,512,q,3\n", ".spc");
  const auto workload = make_workload("trace:" + trace.path() + ",skip_bad=1,format=umass", {});
  EXPECT_EQ(drain(*workload).size(), 3u);
  EXPECT_EQ(workload->skipped_lines(), 1u);
}

}  // namespace
}  // namespace ssdvp::workload::test
