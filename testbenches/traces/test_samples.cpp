// The shipped sample traces, read whole.  Expected numbers come from awk, e.g.
//   awk 'NF{n++; r+=($5==1); w+=($5==0)} END{print n, r, w}' tpcc-small.trace
//   awk '$2=="D"{n++; c[$3]++} END{print n, c["read"], c["write"], c["discard"]}' sqlitewal...
#include <gtest/gtest.h>

#include <map>

#include "trace_test_support.h"

namespace ssdvp::workload::test {
namespace {

struct Summary {
  size_t requests = 0;
  std::map<Op, size_t> ops;
  uint64_t bytes = 0;
  uint64_t last_arrival_ns = 0;
  bool arrivals_sorted = true;
};

Summary summarise(Workload& workload, unsigned stream = 0) {
  Summary summary;
  for (const Request& request : drain(workload, stream)) {
    ++summary.requests;
    ++summary.ops[request.op];
    summary.bytes += request.length;
    if (request.arrival_ns < summary.last_arrival_ns) summary.arrivals_sorted = false;
    summary.last_arrival_ns = request.arrival_ns;
  }
  return summary;
}

TEST(SampleTraces, TpccSmall) {
  const auto workload = make_workload(sample_path("tpcc-small.trace"), {});
  Summary summary = summarise(*workload);
  EXPECT_EQ(summary.requests, 6999u);
  EXPECT_EQ(summary.ops[Op::Read], 4381u);
  EXPECT_EQ(summary.ops[Op::Write], 2618u);
  EXPECT_EQ(summary.bytes, 59718656u);
  EXPECT_EQ(summary.last_arrival_ns, 1075002000u - 938513000u);
  EXPECT_TRUE(summary.arrivals_sorted);
  EXPECT_EQ(workload->clamped_arrivals(), 0u);
}

TEST(SampleTraces, TpccSmallByDevice) {
  const auto workload =
      make_workload("trace:" + sample_path("tpcc-small.trace") + ",streams=by_device", {});
  ASSERT_EQ(workload->streams(), 16u);
  // Device 4 appears first (stream 0) on 453 lines.
  EXPECT_EQ(summarise(*workload, 0).requests, 453u);
  size_t total = 453;
  for (unsigned stream = 1; stream < 16; ++stream) total += summarise(*workload, stream).requests;
  EXPECT_EQ(total, 6999u);
}

TEST(SampleTraces, WsrchSmall) {
  const auto workload = make_workload(sample_path("wsrch-small.trace"), {});
  Summary summary = summarise(*workload);
  EXPECT_EQ(summary.requests, 24783u);  // the last line has no newline
  EXPECT_EQ(summary.ops[Op::Read], 24779u);
  EXPECT_EQ(summary.ops[Op::Write], 4u);
  EXPECT_EQ(summary.bytes, 382117888u);
  EXPECT_EQ(summary.last_arrival_ns, 60055212000u);
  EXPECT_TRUE(summary.arrivals_sorted);
}

TEST(SampleTraces, SqliteWalBlkparseEvents) {
  const auto workload = make_workload(sample_path("sqlitewal_update_blkparse.txt"), {});
  EXPECT_NE(workload->describe().find("format=blkparse-events"), std::string::npos);
  Summary summary = summarise(*workload);
  EXPECT_EQ(summary.requests, 5008u);
  EXPECT_EQ(summary.ops[Op::Read], 4u);
  EXPECT_EQ(summary.ops[Op::Write], 5003u);
  EXPECT_EQ(summary.ops[Op::Trim], 1u);
  EXPECT_EQ(summary.bytes, 69136384u);
  EXPECT_EQ(summary.last_arrival_ns, 1412912035u);
  EXPECT_TRUE(summary.arrivals_sorted);
}

TEST(SampleTraces, SqliteWalByPid) {
  const auto workload = make_workload(
      "trace:" + sample_path("sqlitewal_update_blkparse.txt") + ",streams=by_pid", {});
  // pids in order of first appearance: 39949 18141 1446 1386 0 143.
  ASSERT_EQ(workload->streams(), 6u);
  EXPECT_EQ(summarise(*workload, 0).requests, 3u);
  EXPECT_EQ(summarise(*workload, 1).requests, 1u);
  EXPECT_EQ(summarise(*workload, 2).requests, 2755u);
  EXPECT_EQ(summarise(*workload, 3).requests, 333u);
  EXPECT_EQ(summarise(*workload, 4).requests, 1911u);
  EXPECT_EQ(summarise(*workload, 5).requests, 5u);
}

}  // namespace
}  // namespace ssdvp::workload::test
