// trace: spec options: parsing, validation against the format, file errors.
#include <gtest/gtest.h>

#include "trace_test_support.h"

namespace ssdvp::workload::test {
namespace {

TEST(TraceOptions, InvalidOptionsNameSpecAndKey) {
  TempTrace trace("100 0 8 8 1\n");
  const std::string base = "trace:" + trace.path();
  const struct {
    std::string spec;
    std::string message;
  } cases[] = {
      {base + ",colour=red",
       "unknown option 'colour' (known: format, scale, skip_bad, max, streams, action, replay, iodepth, fdp, device, volume, "
       "time_unit)"},
      {base + ",replay=later", "replay=later: must be open (at the trace's times) or closed (keep iodepth outstanding)"},
      {base + ",iodepth=8", "iodepth=8: only with replay=closed (an open-loop replay issues at the trace's times)"},
      {base + ",replay=closed,iodepth=0", "iodepth=0: must be 1 ... 65535"},
      {base + ",replay=closed,scale=2", "scale=2: has no meaning with replay=closed (time stamps are ignored)"},
      {base + ",format=csv",
       "format=csv: unknown trace format (auto, blkparse, blkparse-events, disksim, msr, umass, alibaba, vscsi, "
       "tencent)"},
      {base + ",scale=-1", "scale=-1: must be >= 0"},
      {base + ",scale=fast", "scale=fast: not a number"},
      {base + ",skip_bad=maybe", "skip_bad=maybe: must be 1, true, yes or on (set), or 0, false, no or off (not set)"},
      {base + ",max=0", "max=0: must be greater than 0"},
      {base + ",max=-3", "max=-3: not a non-negative integer"},
      {base + ",streams=by_cpu", "streams=by_cpu: must be single, by_device (by_volume) or by_pid"},
      {base + ",device=1,volume=1", "volume=1: give device= or volume=, not both"},
      {base + ",device=", "device=: must name a device (the value of the trace's device column)"},
      {base + ",action=DQ", "action=DQ: must be one blkparse action letter, e.g. D or Q"},
      {base + ",time_unit=h", "time_unit=h: must be s, ms, us or ns"},
      {base + ",time_unit=us", "time_unit=: format disksim has one time unit (docs/traces.md); only vscsi takes time_unit="},
      {base + ",max=1,max=2", "option 'max' given twice"},
      {base + ",verbose", "'verbose' is not key=value"},
      {base + ",streams=by_pid", "streams=by_pid: format disksim has no pid column"},
      {base + ",action=Q", "action=: format disksim has no event actions"},
      {"trace:,format=msr", "no trace file path"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(workload_error([&] { make_workload(c.spec, {}); }),
              "workload '" + c.spec + "': " + c.message);
  }
}

TEST(TraceOptions, FormatWithoutDeviceColumnRejectsByDevice) {
  TempTrace trace("39949 D read 299008 4096 0.000000000 0 False\n");
  const std::string spec = "trace:" + trace.path() + ",streams=by_device";
  EXPECT_EQ(
      workload_error([&] { make_workload(spec, {}); }),
      "workload '" + spec + "': streams=by_device: format blkparse-events has no device column");
  const std::string action_spec = "trace:" + trace.path() + ",action=Q";
  EXPECT_EQ(
      workload_error([&] { make_workload(action_spec, {}); }),
      "workload '" + action_spec + "': action=: format blkparse-events has only actions D and C");
}

// replay=closed: the same requests in the same order, times ignored, the queue depth given.
TEST(TraceOptions, ClosedReplayKeepsOrderAndIgnoresTimes) {
  TempTrace trace("100 0 8 8 1\n5000000 0 64 16 0\n9000000 0 32 8 1\n");
  const auto open = make_workload("trace:" + trace.path(), {});
  const auto closed = make_workload("trace:" + trace.path() + ",replay=closed,iodepth=16", {});
  EXPECT_FALSE(open->closed_loop());
  EXPECT_TRUE(closed->closed_loop());
  EXPECT_EQ(closed->queue_depth(), 16u);
  EXPECT_NE(closed->describe().find("replay=closed iodepth=16"), std::string::npos) << closed->describe();
  for (int i = 0; i < 3; i++) {
    const auto a = open->next(0), b = closed->next(0);
    ASSERT_TRUE(a && b);
    EXPECT_EQ(a->offset, b->offset);
    EXPECT_EQ(a->length, b->length);
    EXPECT_EQ(a->op, b->op);
  }
  EXPECT_FALSE(closed->next(0));
  EXPECT_EQ(make_workload("trace:" + trace.path() + ",replay=closed", {})->queue_depth(), 1u);
}

TEST(TraceOptions, MissingFileNamesThePath) {
  const std::string message =
      workload_error([] { make_workload("trace:/nonexistent/dir/x.trace,format=disksim", {}); });
  EXPECT_EQ(message.rfind("/nonexistent/dir/x.trace: cannot open trace file (", 0), 0u) << message;
  EXPECT_EQ(workload_error([] { make_workload("trace:/tmp", {}); }),
            "/tmp: is a directory, not a trace file");
}

TEST(TraceOptions, DescribeIsOneLine) {
  TempTrace trace("100 0 8 8 1\n");
  const auto workload = make_workload("trace:" + trace.path() + ",scale=2,max=5", {});
  EXPECT_EQ(workload->describe(),
            "trace " + trace.path() + " format=disksim scale=2 streams=single (1) max=5");
  EXPECT_EQ(workload->queue_depth(), 1u);
}

TEST(TraceOptions, NextOnMissingStreamThrows) {
  TempTrace trace("100 0 8 8 1\n");
  const auto workload = make_workload(trace.path(), {});
  EXPECT_THROW(workload->next(1), std::out_of_range);
}

}  // namespace
}  // namespace ssdvp::workload::test
