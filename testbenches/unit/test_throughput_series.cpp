// The host throughput series (sim.series_interval_ms): completions land in the interval of
// their time, rates are per second of the interval, and an off series records nothing.
#include <gtest/gtest.h>

#include <sstream>

#include "models/host/throughput_series.h"

using ssdvp::ThroughputSeries;
using ssdvp::workload::Op;

TEST(ThroughputSeries, BucketsCompletionsByIntervalAsRatesPerSecond) {
  ThroughputSeries s(10'000'000);   // 10 ms
  s.record(Op::Write, 0, 1 << 20);
  s.record(Op::Write, 9'999'999, 1 << 20);
  s.record(Op::Read, 5'000'000, 4096);
  s.record(Op::Write, 25'000'000, 1 << 20);   // third interval; the second stays empty
  EXPECT_EQ(s.intervals(), 3u);
  std::ostringstream out;
  s.write_csv(out);
  EXPECT_EQ(out.str(),
            "t_ms,read_mib_s,write_mib_s,read_iops,write_iops,trim_iops,flush_iops\n"
            "10,0.390625,200,100,200,0,0\n"
            "20,0,0,0,0,0,0\n"
            "30,0,100,0,100,0,0\n");
}

TEST(ThroughputSeries, OffRecordsNothing) {
  ThroughputSeries s;
  s.record(Op::Write, 1000, 4096);
  EXPECT_FALSE(s.on());
  EXPECT_EQ(s.intervals(), 0u);
}
