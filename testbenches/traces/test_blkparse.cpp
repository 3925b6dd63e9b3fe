// Raw blkparse text reader: action selection, RWBS mapping, summary lines, streams, errors.
#include <gtest/gtest.h>

#include "trace_test_support.h"

namespace ssdvp::workload::test {
namespace {

const char* const kTrace =
    "  8,0    3        1     0.000000000  4162  Q  WS 3417048 + 8 [jbd2/sda3-8]\n"
    "  8,0    3        2     0.000004000  4162  G  WS 3417048 + 8 [jbd2/sda3-8]\n"
    "  8,0    3        3     0.000005000  4162  P   N [jbd2/sda3-8]\n"
    "  8,0    3        4     0.000008000  4162  I  WS 3417048 + 8 [jbd2/sda3-8]\n"
    "  8,0    3        5     0.000010000  4162  D  WS 3417048 + 8 [jbd2/sda3-8]\n"
    "  8,0    1        1     0.000200000     0  C  WS 3417048 + 8 [0]\n"
    "  8,0    0        6     0.000300000  1234  Q   R 1000 + 16 [cat]\n"
    "  8,0    0        7     0.000310000  1234  D   R 1000 + 16 [cat]\n"
    "  8,0    0        0     0.000320000     0  m   N cfq1234 insert_request\n"
    "  8,0    2        8     0.000400000  4162  Q FWS [jbd2/sda3-8]\n"
    "  8,0    2        9     0.000410000  4162  D  FN [jbd2/sda3-8]\n"
    "  8,16   2       10     0.000500000   999  Q   D 2048 + 2048 [fstrim]\n"
    "  8,16   2       11     0.000510000   999  D   D 2048 + 2048 [fstrim]\n"
    "  8,0    1       12     0.000600000  4162  D FWFS 5000 + 8 [jbd2/sda3-8]\n"
    "  8,0    1       13     0.000700000  4162  D   N 0 + 0 [scsi_id]\n"
    "  8,0    3       14     0.000800000  4162  U   N [jbd2/sda3-8] 1\n"
    "\n"
    "CPU0 (8,0):\n"
    " Reads Queued:           1,        8KiB  Writes Queued:           2,        8KiB\n"
    " Read Dispatches:        1,        8KiB  Write Dispatches:        2,        8KiB\n"
    "Total (8,0):\n"
    " Reads Queued:           1,        8KiB  Writes Queued:           2,        8KiB\n"
    "\n"
    "Throughput (R/W): 0KiB/s / 0KiB/s\n"
    "Events (8,0): 16 entries\n"
    "Skips: 0 forward (0 -   0.0%)\n";

TEST(BlkparseReader, UsesIssueEventsByDefault) {
  TempTrace trace(kTrace, ".blkparse");
  const auto workload = make_workload("trace:" + trace.path() + ",format=blkparse", {});
  const std::vector<Request> requests = drain(*workload);
  ASSERT_EQ(requests.size(), 5u);
  EXPECT_EQ(requests[0].op, Op::Write);
  EXPECT_EQ(requests[0].offset, 3417048u * 512);
  EXPECT_EQ(requests[0].length, 8u * 512);
  EXPECT_EQ(requests[0].arrival_ns, 0u);
  EXPECT_EQ(requests[1].op, Op::Read);
  EXPECT_EQ(requests[1].offset, 1000u * 512);
  EXPECT_EQ(requests[1].length, 16u * 512);
  EXPECT_EQ(requests[1].arrival_ns, 300000u);
  EXPECT_EQ(requests[2].op, Op::Flush);
  EXPECT_EQ(requests[2].length, 0u);
  EXPECT_EQ(requests[2].arrival_ns, 400000u);
  EXPECT_EQ(requests[3].op, Op::Trim);
  EXPECT_EQ(requests[3].offset, 2048u * 512);
  EXPECT_EQ(requests[3].length, 2048u * 512);
  EXPECT_EQ(requests[3].arrival_ns, 500000u);
  EXPECT_EQ(requests[4].op, Op::Write);  // pre-flush + FUA write that carries data
  EXPECT_EQ(requests[4].offset, 5000u * 512);
  EXPECT_EQ(requests[4].arrival_ns, 590000u);
  EXPECT_EQ(workload->skipped_lines(), 0u);
}

TEST(BlkparseReader, QueueEventsWithActionQ) {
  TempTrace trace(kTrace, ".blkparse");
  const auto workload = make_workload("trace:" + trace.path() + ",action=Q", {});
  const std::vector<Request> requests = drain(*workload);
  ASSERT_EQ(requests.size(), 4u);
  EXPECT_EQ(requests[0].op, Op::Write);
  EXPECT_EQ(requests[1].op, Op::Read);
  EXPECT_EQ(requests[2].op, Op::Flush);  // "FWS" without a range: a pure pre-flush
  EXPECT_EQ(requests[3].op, Op::Trim);
  EXPECT_EQ(requests[3].arrival_ns, 500000u);
}

TEST(BlkparseReader, StreamsByDeviceAndByPid) {
  TempTrace trace(kTrace, ".blkparse");
  const auto by_device = make_workload("trace:" + trace.path() + ",streams=by_device", {});
  ASSERT_EQ(by_device->streams(), 2u);
  EXPECT_EQ(drain(*by_device, 0).size(), 4u);
  const std::vector<Request> sdb = drain(*by_device, 1);
  ASSERT_EQ(sdb.size(), 1u);
  EXPECT_EQ(sdb[0].op, Op::Trim);
  EXPECT_EQ(sdb[0].stream, 1u);

  const auto by_pid = make_workload("trace:" + trace.path() + ",streams=by_pid", {});
  ASSERT_EQ(by_pid->streams(), 3u);  // 4162, 1234, 999
  EXPECT_EQ(drain(*by_pid, 0).size(), 3u);
  EXPECT_EQ(drain(*by_pid, 1).size(), 1u);
  EXPECT_EQ(drain(*by_pid, 2).size(), 1u);
}

TEST(BlkparseReader, MalformedEventLinesNamePathAndLine) {
  const struct {
    const char* line;
    const char* message;
  } cases[] = {
      {"8,0 3 1 0.5 4162 D WS 3417048 + x [p]", "sectors 'x' is not a non-negative integer"},
      {"8,0 3 x 0.5 4162 D WS 3417048 + 8 [p]", "sequence 'x' is not a non-negative integer"},
      {"8,0 3 1 0.5 4162 D WZ 1 + 8 [p]", "unknown RWBS 'WZ'"},
      {"8,0 3 1 0.5 4162 D R 100", "expected 'sector + sectors' after RWBS R"},
      {"8,0 3 1 0.5 4162 D R 100 + 0 [p]", "size is 0 for a read"},
      {"8,0 3 1 0.5", "expected at least 6 fields"},
      {"8,0 3 1 0.5 4162 D", "expected at least 7 fields"},
      {"8,0 3 1 -0.5 4162 D R 100 + 8", "time '-0.5' is not a non-negative number"},
  };
  for (const auto& c : cases) {
    TempTrace trace(std::string("8,0 3 1 0.1 4162 D R 8 + 8 [p]\n") + c.line + "\n", ".blkparse");
    const std::string message =
        workload_error([&] { build_and_drain("trace:" + trace.path() + ",format=blkparse"); });
    EXPECT_EQ(message.rfind(trace.path() + ":2: " + c.message, 0), 0u) << message;
  }
}

TEST(BlkparseReader, SkipBadCounts) {
  TempTrace trace(std::string(kTrace) + "8,0 3 1 0.9 4162 D WZ 1 + 8 [p]\n", ".blkparse");
  const auto workload = make_workload("trace:" + trace.path() + ",skip_bad=1", {});
  EXPECT_EQ(drain(*workload).size(), 5u);
  EXPECT_EQ(workload->skipped_lines(), 1u);
}

}  // namespace
}  // namespace ssdvp::workload::test
