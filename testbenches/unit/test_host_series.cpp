// The host series (sim.series_interval_ms): completions land in the interval of their time,
// rates are per second of the interval, each interval has its own latency percentiles, and
// an off series records nothing.
#include <gtest/gtest.h>

#include <sstream>

#include "models/host/host_series.h"

using ssdvp::HostSeries;
using ssdvp::workload::Op;

TEST(HostSeries, BucketsCompletionsByIntervalAsRatesPerSecond) {
  HostSeries s(10'000'000);   // 10 ms
  s.record(Op::Write, 0, 1 << 20, 1000);
  s.record(Op::Write, 9'999'999, 1 << 20, 1000);
  s.record(Op::Read, 5'000'000, 4096, 1000);
  s.record(Op::Write, 25'000'000, 1 << 20, 1000);   // third interval; the second stays empty
  EXPECT_EQ(s.intervals(), 3u);
  std::ostringstream out;
  s.write_csv(out);
  EXPECT_EQ(out.str(),
            "t_ms,read_mib_s,write_mib_s,read_iops,write_iops,trim_iops,flush_iops\n"
            "10,0.390625,200,100,200,0,0\n"
            "20,0,0,0,0,0,0\n"
            "30,0,100,0,100,0,0\n");
}

TEST(HostSeries, EachIntervalHasItsOwnLatencyPercentiles) {
  HostSeries s(1'000'000);   // 1 ms
  for (int i = 0; i < 100; i++) s.record(Op::Read, 100 + i, 4096, 10'000);        // interval 0: 10 us
  for (int i = 0; i < 99; i++) s.record(Op::Read, 2'000'000 + i, 4096, 20'000);   // interval 2: 20 us ...
  s.record(Op::Read, 2'500'000, 4096, 5'000'000);                                  // ... and one of 5 ms
  s.record(Op::Trim, 2'600'000, 8192, 1'000);
  const nlohmann::json j = s.ops_json();
  ASSERT_TRUE(j.contains("read"));
  ASSERT_TRUE(j.contains("trim"));
  EXPECT_FALSE(j.contains("write"));   // no requests: no columns
  const auto& r = j["read"];
  EXPECT_EQ(r["requests"], nlohmann::json({100, 0, 100}));
  EXPECT_EQ(r["bytes"], nlohmann::json({409600, 0, 409600}));
  EXPECT_DOUBLE_EQ(r["iops"][0].get<double>(), 100'000.0);
  EXPECT_NEAR(r["p50_us"][0].get<double>(), 10.0, 0.2);
  EXPECT_TRUE(r["p50_us"][1].is_null());
  EXPECT_NEAR(r["p50_us"][2].get<double>(), 20.0, 0.4);   // the open (last) interval too
  EXPECT_NEAR(r["p99_us"][2].get<double>(), 20.0, 0.4);   // 99 of 100 at 20 us
  EXPECT_NEAR(r["p99_us"][0].get<double>(), 10.0, 0.2);   // interval 0 kept its own figure
  EXPECT_EQ(j["trim"]["requests"], nlohmann::json({0, 0, 1}));
}

TEST(HostSeries, OffRecordsNothing) {
  HostSeries s;
  s.record(Op::Write, 1000, 4096, 1000);
  EXPECT_FALSE(s.on());
  EXPECT_EQ(s.intervals(), 0u);
}
