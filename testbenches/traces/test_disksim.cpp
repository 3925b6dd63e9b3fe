// DiskSim/MQSim ASCII reader: field mapping, scaling, streams, clamping, limits and errors.
#include <gtest/gtest.h>

#include "trace_test_support.h"

namespace ssdvp::workload::test {
namespace {

const char* const kTrace =
    "# time_ns device lba size type\n"
    "\n"
    "1000 4 8 16 1\n"
    "1250 3 0 1 0\n"
    "  2000\t4  100 8 0  \n";

TEST(DiskSimReader, MapsFieldsToRequests) {
  TempTrace trace(kTrace);
  const auto workload = make_workload("trace:" + trace.path() + ",format=disksim", {});
  EXPECT_FALSE(workload->closed_loop());
  ASSERT_EQ(workload->streams(), 1u);
  const std::vector<Request> requests = drain(*workload);
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(requests[0].op, Op::Read);
  EXPECT_EQ(requests[0].offset, 8u * 512);
  EXPECT_EQ(requests[0].length, 16u * 512);
  EXPECT_EQ(requests[0].arrival_ns, 0u);
  EXPECT_EQ(requests[0].stream, 0u);
  EXPECT_EQ(requests[1].op, Op::Write);
  EXPECT_EQ(requests[1].offset, 0u);
  EXPECT_EQ(requests[1].length, 512u);
  EXPECT_EQ(requests[1].arrival_ns, 250u);
  EXPECT_EQ(requests[2].op, Op::Write);
  EXPECT_EQ(requests[2].offset, 100u * 512);
  EXPECT_EQ(requests[2].length, 8u * 512);
  EXPECT_EQ(requests[2].arrival_ns, 1000u);
  EXPECT_EQ(workload->skipped_lines(), 0u);
  EXPECT_EQ(workload->clamped_arrivals(), 0u);
}

TEST(DiskSimReader, ScalesArrivals) {
  TempTrace trace(kTrace);
  const auto workload = make_workload("trace:" + trace.path() + ",scale=0.5", {});
  const std::vector<Request> requests = drain(*workload);
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(requests[1].arrival_ns, 125u);
  EXPECT_EQ(requests[2].arrival_ns, 500u);
}

TEST(DiskSimReader, StreamsByDeviceInOrderOfFirstAppearance) {
  TempTrace trace(kTrace);
  const auto workload = make_workload("trace:" + trace.path() + ",streams=by_device", {});
  ASSERT_EQ(workload->streams(), 2u);
  // Asking for stream 1 first reads the device-4 request ahead and keeps it for stream 0.
  const std::vector<Request> device3 = drain(*workload, 1);
  ASSERT_EQ(device3.size(), 1u);
  EXPECT_EQ(device3[0].arrival_ns, 250u);
  EXPECT_EQ(device3[0].stream, 1u);
  const std::vector<Request> device4 = drain(*workload, 0);
  ASSERT_EQ(device4.size(), 2u);
  EXPECT_EQ(device4[0].arrival_ns, 0u);
  EXPECT_EQ(device4[1].arrival_ns, 1000u);
  EXPECT_EQ(device4[1].stream, 0u);
}

TEST(DiskSimReader, ClampsBackwardTimeAndCountsIt) {
  TempTrace trace("100 0 0 8 1\n300 0 8 8 1\n200 0 16 8 1\n400 0 24 8 1\n");
  const auto workload = make_workload(trace.path(), {});
  const std::vector<Request> requests = drain(*workload);
  ASSERT_EQ(requests.size(), 4u);
  EXPECT_EQ(requests[1].arrival_ns, 200u);
  EXPECT_EQ(requests[2].arrival_ns, 200u);  // clamped to the previous arrival
  EXPECT_EQ(requests[3].arrival_ns, 300u);
  EXPECT_EQ(workload->clamped_arrivals(), 1u);
}

TEST(DiskSimReader, MaxStopsAfterNRequests) {
  TempTrace trace(kTrace);
  const auto workload = make_workload("trace:" + trace.path() + ",max=2", {});
  EXPECT_EQ(drain(*workload).size(), 2u);
}

TEST(DiskSimReader, MalformedLinesNamePathAndLine) {
  const struct {
    const char* line;
    const char* message;
  } cases[] = {
      {"1000 4 8 16", "expected 5 fields (time_ns device lba_sector size_sectors type), found 4"},
      {"1000 4 8 16 1 7", "expected 5 fields"},
      {"1000 4 x8 16 1", "lba_sector 'x8' is not a non-negative integer"},
      {"1000 4 8 -16 1", "size_sectors '-16' is not a non-negative integer"},
      {"1000 4 8 0 1", "size is 0 for a read"},
      {"1000 4 8 16 2", "unknown type '2' (0 = write, 1 = read)"},
      {"-5 4 8 16 1", "time_ns '-5' is not a non-negative number"},
  };
  for (const auto& c : cases) {
    TempTrace trace(std::string("# header\n0 0 0 8 1\n") + c.line + "\n");
    const std::string message =
        workload_error([&] { build_and_drain("trace:" + trace.path() + ",format=disksim"); });
    EXPECT_EQ(message.rfind(trace.path() + ":3: " + c.message, 0), 0u) << message;
    EXPECT_NE(message.find(std::string("(") + c.line + ")"), std::string::npos) << message;
  }
}

TEST(DiskSimReader, SkipBadSkipsAndCounts) {
  TempTrace trace("0 0 0 8 1\nbad line\n10 0 8 8 0\n20 0 8 0 0\n30 0 8 8 9\n40 0 16 8 1\n");
  const auto workload = make_workload("trace:" + trace.path() + ",format=disksim,skip_bad=1", {});
  const std::vector<Request> requests = drain(*workload);
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(requests[2].arrival_ns, 40u);
  EXPECT_EQ(workload->skipped_lines(), 3u);
}

}  // namespace
}  // namespace ssdvp::workload::test
