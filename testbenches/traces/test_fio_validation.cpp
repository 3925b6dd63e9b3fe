// fio spec validation: every rejected option names the spec and the key.
#include <gtest/gtest.h>

#include "trace_test_support.h"

namespace ssdvp::workload::test {
namespace {

struct InvalidSpec {
  const char* spec;
  const char* message;  // after "workload 'SPEC': "
};

const WorkloadContext kContext{1ull << 30, 1};

TEST(FioValidation, RejectsEveryBadOption) {
  const InvalidSpec cases[] = {
      {"fio:rw=randread,foo=1",
       "unknown option 'foo' (known: rw, bs, bsrange, iodepth, numjobs, size, offset, rwmixread, io, "
       "io_size, random_distribution, seed, align, scramble, fsync, fua_percent, trim_percent, zonemode, max_open_zones, fdp, "
       "fdp_pli, fdp_pli_select, run_length, runtime, time_based, rate_iops, rate, thinktime, thinktime_blocks)"},
      {"fio:rw=randomread",
       "rw=randomread: unknown pattern; did you mean 'randread'? (read, write, trim, rw, readwrite, randread, randwrite, "
       "randtrim, randrw; sequential ones may add :SKIP)"},
      {"fio:bs", "'bs' is not key=value"},
      {"fio:bs=4k,bs=8k", "option 'bs' given twice"},
      {"fio:bs=0", "bs=0: block size must be a non-zero multiple of 512"},
      {"fio:bs=1000", "bs=1000: block size must be a non-zero multiple of 512"},
      {"fio:bs=4x", "bs=4x: not a byte size (an integer with an optional suffix k, m, g or t; KiB, KB and K all mean 1024)"},
      {"fio:bs=4g", "bs=4g: block size must be below 4 GiB"},
      {"fio:bs=2m,size=1m", "size=1m: smaller than bs"},
      {"fio:bs=4k,bsrange=4k-8k", "give bs= or bsrange=, not both"},
      {"fio:bsrange=4k", "bsrange=4k: must be MIN-MAX: byte sizes, MIN a non-zero multiple of 512, MAX a multiple of MIN up to 1 GiB"},
      {"fio:bsrange=8k-4k", "bsrange=8k-4k: must be MIN-MAX: byte sizes, MIN a non-zero multiple of 512, MAX a multiple of MIN up to 1 GiB"},
      {"fio:bsrange=4k-10k", "bsrange=4k-10k: must be MIN-MAX: byte sizes, MIN a non-zero multiple of 512, MAX a multiple of MIN up to 1 GiB"},
      {"fio:size=0", "size=0: must be greater than 0"},
      {"fio:size=2g", "size=2g: offset + size exceeds the namespace's capacity (1073741824 bytes)"},
      {"fio:offset=512m,size=600m",
       "size=600m: offset + size exceeds the namespace's capacity (1073741824 bytes)"},
      {"fio:size=150%", "size=150%: percentage must be in (0, 100]"},
      {"fio:size=0%", "size=0%: percentage must be in (0, 100]"},
      {"fio:offset=1g", "offset=1g: at or beyond the namespace's capacity (1073741824 bytes)"},
      {"fio:offset=100", "offset=100: must be a multiple of 512"},
      {"fio:iodepth=0", "iodepth=0: must be in 1..65535"},
      {"fio:iodepth=65536", "iodepth=65536: must be in 1..65535"},
      {"fio:iodepth=deep", "iodepth=deep: not a non-negative integer"},
      {"fio:numjobs=0", "numjobs=0: must be in 1..65536"},
      {"fio:numjobs=300,size=1m",
       "numjobs=300: the range gives each job less than one block of bs"},
      {"fio:rwmixread=101", "rwmixread=101: must be in 0..100"},
      {"fio:rwmixread=-1", "rwmixread=-1: not a non-negative integer"},
      {"fio:io=0", "io=0: must be greater than 0"},
      {"fio:io=1,io_size=1m", "give io= or io_size=, not both"},
      {"fio:io_size=1k", "io_size=1k: smaller than bs"},
      {"fio:align=0", "align=0: must be a non-zero multiple of 512"},
      {"fio:align=100", "align=100: must be a non-zero multiple of 512"},
      {"fio:rw=randread,random_distribution=zipf",
       "random_distribution=zipf: zipf needs a theta > 0, e.g. zipf:1.2"},
      {"fio:rw=randread,random_distribution=zipf:0",
       "random_distribution=zipf:0: zipf needs a theta > 0, e.g. zipf:1.2"},
      {"fio:rw=randread,random_distribution=pareto:1.5",
       "random_distribution=pareto:1.5: pareto needs 0 < H < 1, e.g. pareto:0.2"},
      {"fio:rw=randread,random_distribution=hotcold:20",
       "random_distribution=hotcold:20: hotcold needs HOT/ACCESS percentages, 0 < HOT < 100, "
       "0 <= ACCESS <= 100, e.g. hotcold:20/80"},
      {"fio:rw=randread,random_distribution=hotcold:0/80",
       "random_distribution=hotcold:0/80: hotcold needs HOT/ACCESS percentages, 0 < HOT < 100, "
       "0 <= ACCESS <= 100, e.g. hotcold:20/80"},
      {"fio:rw=randread,random_distribution=gauss:1",
       "random_distribution=gauss:1: unknown distribution (random, zipf:THETA, pareto:H, "
       "hotcold:HOT/ACCESS)"},
      {"fio:rw=randread,bs=4k,size=4k,random_distribution=hotcold:20/80",
       "random_distribution=hotcold:20/80: hotcold needs at least two blocks in the range"},
      {"fio:seed=-1", "seed=-1: not a non-negative integer"},
      {"fio:scramble=2", "scramble=2: must be 1, true, yes or on (set), or 0, false, no or off (not set)"},
      {"fio:rw=randwrite,fua_percent=101", "fua_percent=101: must be in 0..100"},
      {"fio:rw=randwrite,trim_percent=200", "trim_percent=200: must be in 0..100"},
      {"fio:rw=randwrite,fsync=2000000", "fsync=2000000: must be in 0..1000000 (writes between flushes; 0: none)"},
      {"fio:rw=randread,fsync=8", "fsync=8: needs a pattern with writes"},
  };
  for (const InvalidSpec& c : cases) {
    EXPECT_EQ(workload_error([&] { make_workload(c.spec, kContext); }),
              std::string("workload '") + c.spec + "': " + c.message);
  }
}

TEST(FioValidation, DefaultsAtFaultAreNamedAsDefaults) {
  const WorkloadContext small{1 << 20, 1};
  EXPECT_EQ(workload_error([&] { make_workload("fio:bs=2m", small); }),
            "workload 'fio:bs=2m': size (default): smaller than bs");
}

TEST(FioValidation, UnknownCapacityNeedsAnExplicitSize) {
  const WorkloadContext unknown{0, 1};
  EXPECT_EQ(workload_error([&] { make_workload("fio:rw=read", unknown); }),
            "workload 'fio:rw=read': size= is needed because the namespace capacity is not known");
  EXPECT_EQ(workload_error([&] { make_workload("fio:size=50%", unknown); }),
            "workload 'fio:size=50%': size=50%: a percentage needs the namespace capacity, which "
            "is not known");
  EXPECT_EQ(drain(*make_workload("fio:rw=write,size=64k", unknown)).size(), 16u);
}

TEST(FioValidation, AcceptsPercentagesAndSuffixes) {
  const auto workload = make_workload("fio:rw=read,bs=1M,offset=50%,size=25%,numjobs=1", kContext);
  const std::vector<Request> requests = drain(*workload);
  ASSERT_EQ(requests.size(), 256u);
  EXPECT_EQ(requests.front().offset, 512ull << 20);
  EXPECT_EQ(requests.back().offset, (768ull << 20) - (1 << 20));
}

}  // namespace
}  // namespace ssdvp::workload::test
