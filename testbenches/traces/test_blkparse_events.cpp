// Processed blkparse events (WiscSee form): D/C selection, op names, pid streams, errors.
#include <gtest/gtest.h>

#include "trace_test_support.h"

namespace ssdvp::workload::test {
namespace {

const char* const kTrace =
    "100 D read 4096 8192 0.500000000 0 False\n"
    "0 C read 4096 8192 0.600000000 0.1 False\n"
    "200 D write 0 4096 0.700000000 0.2 True\n"
    "200 D discard 8192 4096 0.800000000 1e-01 False\n"
    "300 D FLUSH 0 0 0.900000000 0.1 True\n"
    "100 D trim 12288 512 1.000000000 0.1 False\n";

TEST(BlkparseEventsReader, UsesIssueLinesByDefault) {
  TempTrace trace(kTrace, ".txt");
  const auto workload = make_workload("trace:" + trace.path() + ",format=blkparse-events", {});
  const std::vector<Request> requests = drain(*workload);
  ASSERT_EQ(requests.size(), 5u);
  EXPECT_EQ(requests[0].op, Op::Read);
  EXPECT_EQ(requests[0].offset, 4096u);
  EXPECT_EQ(requests[0].length, 8192u);
  EXPECT_EQ(requests[0].arrival_ns, 0u);
  EXPECT_EQ(requests[1].op, Op::Write);
  EXPECT_EQ(requests[1].arrival_ns, 200000000u);
  EXPECT_EQ(requests[2].op, Op::Trim);
  EXPECT_EQ(requests[2].offset, 8192u);
  EXPECT_EQ(requests[2].length, 4096u);
  EXPECT_EQ(requests[3].op, Op::Flush);
  EXPECT_EQ(requests[3].length, 0u);
  EXPECT_EQ(requests[3].arrival_ns, 400000000u);
  EXPECT_EQ(requests[4].op, Op::Trim);
  EXPECT_EQ(requests[4].arrival_ns, 500000000u);
}

TEST(BlkparseEventsReader, CompletionLinesWithActionC) {
  TempTrace trace(kTrace, ".txt");
  const auto workload = make_workload("trace:" + trace.path() + ",action=C", {});
  const std::vector<Request> requests = drain(*workload);
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].offset, 4096u);
}

TEST(BlkparseEventsReader, StreamsByPid) {
  TempTrace trace(kTrace, ".txt");
  const auto workload = make_workload("trace:" + trace.path() + ",streams=by_pid", {});
  ASSERT_EQ(workload->streams(), 3u);
  EXPECT_EQ(drain(*workload, 2).at(0).op, Op::Flush);
  const std::vector<Request> pid200 = drain(*workload, 1);
  ASSERT_EQ(pid200.size(), 2u);
  EXPECT_EQ(pid200[1].op, Op::Trim);
  EXPECT_EQ(drain(*workload, 0).size(), 2u);
}

TEST(BlkparseEventsReader, MalformedLinesNamePathAndLine) {
  const struct {
    const char* line;
    const char* message;
  } cases[] = {
      {"100 X read 0 4096 0.1 0 False", "unknown action 'X' (D or C)"},
      {"100 D readx 0 4096 0.1 0 False", "unknown op 'readx' (read, write, discard, trim, flush)"},
      {"100 D read 0 4096 0.1 0",
       "expected 8 fields (pid action op byte_offset size_bytes time_s delta_s sync), found 7"},
      {"100 D write 0 0 0.1 0 False", "size is 0 for a write"},
      {"100 D discard 0 0 0.1 0 False", "size is 0 for a trim"},
      {"100 D write 0 4096 x 0 False", "time_s 'x' is not a non-negative number"},
  };
  for (const auto& c : cases) {
    TempTrace trace(std::string(kTrace) + c.line + "\n", ".txt");
    const std::string message = workload_error(
        [&] { build_and_drain("trace:" + trace.path() + ",format=blkparse-events"); });
    EXPECT_EQ(message.rfind(trace.path() + ":7: " + c.message, 0), 0u) << message;
  }
}

TEST(BlkparseEventsReader, SkipBadCounts) {
  TempTrace trace(std::string(kTrace) + "1 D zap 0 1 2 0 False\n1 D read 0 0 2 0 False\n", ".txt");
  const auto workload = make_workload("trace:" + trace.path() + ",skip_bad=1", {});
  EXPECT_EQ(drain(*workload).size(), 5u);
  EXPECT_EQ(workload->skipped_lines(), 2u);
}

}  // namespace
}  // namespace ssdvp::workload::test
