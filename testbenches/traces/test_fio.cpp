// fio-like generator: sequential layout and wrap, random alignment and range, read/write mix,
// distribution skew, determinism.
#include <gtest/gtest.h>

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "trace_test_support.h"

namespace ssdvp::workload::test {
namespace {

constexpr uint64_t kGiB = 1ull << 30;
const WorkloadContext kContext{kGiB, 1};

// Requests per block index (offset - base) / block over `requests`.
std::vector<uint64_t> block_counts(const std::vector<Request>& requests, uint64_t base,
                                   uint64_t block, uint64_t blocks) {
  std::vector<uint64_t> counts(blocks, 0);
  for (const Request& request : requests) ++counts.at((request.offset - base) / block);
  return counts;
}

// Share of all requests that the `top` most requested blocks received.
double top_share(std::vector<uint64_t> counts, size_t top, size_t total) {
  std::sort(counts.begin(), counts.end(), std::greater<>());
  uint64_t sum = 0;
  for (size_t i = 0; i < top; ++i) sum += counts[i];
  return static_cast<double>(sum) / static_cast<double>(total);
}

// Share of the first `top` blocks, in index order.
double prefix_share(const std::vector<uint64_t>& counts, size_t top, size_t total) {
  uint64_t sum = 0;
  for (size_t i = 0; i < top; ++i) sum += counts[i];
  return static_cast<double>(sum) / static_cast<double>(total);
}

TEST(FioGenerator, SequentialJobsEachCoverTheirPart) {
  const auto workload = make_workload("fio:rw=write,bs=4k,numjobs=4,size=1m,iodepth=8", kContext);
  EXPECT_TRUE(workload->closed_loop());
  EXPECT_EQ(workload->streams(), 4u);
  EXPECT_EQ(workload->queue_depth(), 8u);
  std::set<uint64_t> offsets;
  for (unsigned job = 0; job < 4; ++job) {
    const std::vector<Request> requests = drain(*workload, job);
    ASSERT_EQ(requests.size(), 64u);
    for (size_t i = 0; i < requests.size(); ++i) {
      EXPECT_EQ(requests[i].offset, job * 256 * 1024 + i * 4096);
      EXPECT_EQ(requests[i].length, 4096u);
      EXPECT_EQ(requests[i].op, Op::Write);
      EXPECT_EQ(requests[i].stream, job);
      EXPECT_EQ(requests[i].arrival_ns, 0u);
      offsets.insert(requests[i].offset);
    }
  }
  EXPECT_EQ(offsets.size(), 256u);  // every block of the range exactly once
  EXPECT_EQ(*offsets.rbegin(), 1024u * 1024 - 4096);
}

TEST(FioGenerator, SequentialWrapsAtTheEndOfTheRange) {
  const auto single = make_workload("fio:rw=read,bs=4k,offset=8k,size=16k,io=6", kContext);
  std::vector<uint64_t> offsets;
  for (const Request& request : drain(*single)) offsets.push_back(request.offset);
  EXPECT_EQ(offsets, (std::vector<uint64_t>{8192, 12288, 16384, 20480, 8192, 12288}));

  const auto two_jobs = make_workload("fio:rw=read,bs=4k,size=16k,numjobs=2,io=3", kContext);
  std::vector<uint64_t> job1;
  for (const Request& request : drain(*two_jobs, 1)) job1.push_back(request.offset);
  EXPECT_EQ(job1, (std::vector<uint64_t>{8192, 12288, 0}));
}

// rw=read:SKIP (fio's holes): each request SKIP bytes after the end of the previous one;
// the default amount covers the range once, with the holes.
TEST(FioGenerator, SequentialSkipMakesAStride) {
  const auto strided = make_workload("fio:rw=read:12k,bs=4k,size=64k", kContext);
  std::vector<uint64_t> offsets;
  for (const Request& request : drain(*strided)) offsets.push_back(request.offset);
  EXPECT_EQ(offsets, (std::vector<uint64_t>{0, 16384, 32768, 49152}));
  EXPECT_NE(strided->describe().find("fio read:12288 bs=4096"), std::string::npos);
  EXPECT_THROW(make_workload("fio:rw=randread:4k", kContext), WorkloadError);
  EXPECT_THROW(make_workload("fio:rw=read:100", kContext), WorkloadError);
  EXPECT_THROW(make_workload("fio:rw=read:x", kContext), WorkloadError);
}

TEST(FioGenerator, RandomOffsetsAreAlignedAndInRange) {
  const auto workload =
      make_workload("fio:rw=randread,bs=8k,offset=1m,size=3m,align=4k,io=20000", kContext);
  const std::vector<Request> requests = drain(*workload);
  ASSERT_EQ(requests.size(), 20000u);
  std::set<uint64_t> seen;
  for (const Request& request : requests) {
    EXPECT_EQ(request.offset % 4096, 0u);
    EXPECT_GE(request.offset, 1u << 20);
    EXPECT_LE(request.offset + request.length, 4u << 20);
    EXPECT_EQ(request.op, Op::Read);
    seen.insert(request.offset);
  }
  EXPECT_EQ(seen.size(), (3u * 1024 - 8) / 4 + 1);  // every aligned position is drawn

  const auto default_align = make_workload("fio:rw=randwrite,bs=16k,size=1m,io=5000", kContext);
  for (const Request& request : drain(*default_align)) {
    EXPECT_EQ(request.offset % 16384, 0u);
    EXPECT_LT(request.offset, 1u << 20);
    EXPECT_EQ(request.op, Op::Write);
  }
}

// bsrange=4k-40k (the MT-FTL paper's writes of 1 to 10 pages): every size MIN, 2 MIN, ... MAX
// drawn about equally often, offsets aligned to MIN and every request inside the range.
TEST(FioGenerator, BsrangeDrawsEveryMultipleOfTheMinimum) {
  const auto workload = make_workload("fio:rw=randwrite,bsrange=4k-40k,size=8m,io=20000", kContext);
  std::map<uint64_t, unsigned> sizes;
  for (const Request& request : drain(*workload)) {
    EXPECT_EQ(request.offset % 4096, 0u);
    EXPECT_LE(request.offset + request.length, 8u << 20);
    sizes[request.length]++;
  }
  ASSERT_EQ(sizes.size(), 10u);
  for (uint64_t k = 1; k <= 10; k++) {
    EXPECT_GT(sizes[k * 4096], 1700u) << k;
    EXPECT_LT(sizes[k * 4096], 2300u) << k;
  }
}

TEST(FioGenerator, DefaultAmountCoversTheRangeOnce) {
  const auto workload = make_workload("fio:rw=randread,bs=64k,size=64m,numjobs=2", kContext);
  EXPECT_EQ(drain(*workload, 0).size(), 512u);
  EXPECT_EQ(drain(*workload, 1).size(), 512u);
  const auto sized = make_workload("fio:rw=randread,bs=4k,io_size=1m", kContext);
  EXPECT_EQ(drain(*sized).size(), 256u);
  const auto whole_device = make_workload("fio:rw=read,bs=1m", WorkloadContext{64ull << 20, 1});
  EXPECT_EQ(drain(*whole_device).size(), 64u);
}

TEST(FioGenerator, ReadWriteMixFollowsRwmixread) {
  const auto random = make_workload("fio:rw=randrw,rwmixread=70,io=100000", kContext);
  size_t reads = 0;
  for (const Request& request : drain(*random)) reads += request.op == Op::Read;
  EXPECT_NEAR(reads / 100000.0, 0.70, 0.01);

  const auto sequential = make_workload("fio:rw=readwrite,rwmixread=30,bs=4k,io=100000", kContext);
  reads = 0;
  uint64_t expected_offset = 0;
  for (const Request& request : drain(*sequential)) {
    reads += request.op == Op::Read;
    EXPECT_EQ(request.offset, expected_offset);
    expected_offset += 4096;
  }
  EXPECT_NEAR(reads / 100000.0, 0.30, 0.01);
}

TEST(FioGenerator, ZipfSkewMatchesTheory) {
  constexpr uint64_t kBlocks = 10240;
  constexpr size_t kSamples = 200000;
  const double theta = 1.2;
  double head = 0;
  double all = 0;
  for (uint64_t k = 1; k <= kBlocks; ++k) {
    const double weight = std::pow(static_cast<double>(k), -theta);
    all += weight;
    if (k <= kBlocks / 10) head += weight;
  }
  const double expected = head / all;  // ~0.90 for theta 1.2

  const auto plain = make_workload(
      "fio:rw=randread,bs=4k,size=40m,random_distribution=zipf:1.2,scramble=0,io=200000", kContext);
  const std::vector<uint64_t> plain_counts = block_counts(drain(*plain), 0, 4096, kBlocks);
  EXPECT_NEAR(prefix_share(plain_counts, kBlocks / 10, kSamples), expected, 0.01);
  EXPECT_EQ(std::max_element(plain_counts.begin(), plain_counts.end()) - plain_counts.begin(), 0);
  // Rank 1 vs rank 2: ratio 2^1.2.
  EXPECT_NEAR(static_cast<double>(plain_counts[0]) / plain_counts[1], std::pow(2.0, theta), 0.1);

  const auto scrambled = make_workload(
      "fio:rw=randread,bs=4k,size=40m,random_distribution=zipf:1.2,io=200000", kContext);
  const std::vector<uint64_t> counts = block_counts(drain(*scrambled), 0, 4096, kBlocks);
  EXPECT_NEAR(top_share(counts, kBlocks / 10, kSamples), expected, 0.01);
  // Scrambled: the hottest blocks are spread over the range, not packed at its start.
  std::vector<size_t> order(kBlocks);
  for (size_t i = 0; i < kBlocks; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return counts[a] > counts[b]; });
  size_t hot_in_first_tenth = 0;
  for (size_t i = 0; i < 100; ++i) hot_in_first_tenth += order[i] < kBlocks / 10;
  EXPECT_LT(hot_in_first_tenth, 30u);
}

TEST(FioGenerator, ParetoGivesOneMinusHToH) {
  constexpr uint64_t kBlocks = 10000;
  const auto workload = make_workload(
      "fio:rw=randread,bs=4k,size=40000k,random_distribution=pareto:0.2,scramble=0,io=100000",
      kContext);
  const std::vector<uint64_t> counts = block_counts(drain(*workload), 0, 4096, kBlocks);
  EXPECT_NEAR(prefix_share(counts, kBlocks / 5, 100000), 0.80, 0.01);
}

TEST(FioGenerator, HotColdSplitsAccesses) {
  constexpr uint64_t kBlocks = 10000;
  const auto plain = make_workload(
      "fio:rw=randwrite,bs=4k,size=40000k,random_distribution=hotcold:20/80,scramble=0,io=100000",
      kContext);
  const std::vector<uint64_t> plain_counts = block_counts(drain(*plain), 0, 4096, kBlocks);
  EXPECT_NEAR(prefix_share(plain_counts, 2000, 100000), 0.80, 0.01);

  const auto scrambled = make_workload(
      "fio:rw=randwrite,bs=4k,size=40000k,random_distribution=hotcold:20/80,io=100000", kContext);
  const std::vector<uint64_t> counts = block_counts(drain(*scrambled), 0, 4096, kBlocks);
  EXPECT_NEAR(top_share(counts, 2000, 100000), 0.80, 0.015);
  EXPECT_LT(prefix_share(counts, 2000, 100000), 0.5);  // the hot set is not the first 20 %
}

TEST(FioGenerator, DeterministicBySeeds) {
  const std::string spec =
      "fio:rw=randrw,bs=4k,size=64m,numjobs=2,io=1000,random_distribution=zipf:0.9";
  const auto offsets = [](const std::string& s, const WorkloadContext& context, unsigned job) {
    const auto workload = make_workload(s, context);
    std::vector<std::pair<uint64_t, Op>> out;
    for (const Request& request : drain(*workload, job))
      out.emplace_back(request.offset, request.op);
    return out;
  };
  EXPECT_EQ(offsets(spec, kContext, 0), offsets(spec, kContext, 0));
  EXPECT_NE(offsets(spec, kContext, 0), offsets(spec, kContext, 1));
  EXPECT_NE(offsets(spec, kContext, 0), offsets(spec + ",seed=2", kContext, 0));
  EXPECT_NE(offsets(spec, kContext, 0), offsets(spec, WorkloadContext{kGiB, 2}, 0));
}

TEST(FioGenerator, ZipfOverHugeRangesIsCheap) {
  // 2^30 blocks: a sampler that tabulates the distribution would need gigabytes.
  const WorkloadContext big{4ull << 40, 1};
  rusage before{};
  getrusage(RUSAGE_SELF, &before);
  const auto workload =
      make_workload("fio:rw=randread,bs=4k,random_distribution=zipf:0.9,io=200000", big);
  std::map<uint64_t, int> hits;
  for (const Request& request : drain(*workload)) {
    ASSERT_LT(request.offset, 4ull << 40);
    hits[request.offset]++;
  }
  rusage after{};
  getrusage(RUSAGE_SELF, &after);
  // Cheap: the process grew by far less than a table of 2^30 entries (ru_maxrss in KiB).
  EXPECT_LT(after.ru_maxrss - before.ru_maxrss, 256 * 1024);
  // And still zipf over the whole range: the hottest block is rank 1, hit with probability
  // 1 / H(2^30, 0.9) (the sum exact to 10^6, the rest by its integral), not once or twice as
  // uniform sampling would.
  const double n = double(1ull << 30), theta = 0.9;
  double h = 0;
  for (int k = 1; k <= 1000000; ++k) h += std::pow(k, -theta);
  h += (std::pow(n + 0.5, 1 - theta) - std::pow(1000000.5, 1 - theta)) / (1 - theta);
  int top = 0;
  for (const auto& [offset, count] : hits) top = std::max(top, count);
  const double p = 1 / h, expected = 200000 * p;
  EXPECT_NEAR(top, expected, 5 * std::sqrt(expected * (1 - p))) << "p(rank 1) " << p;
  // Spread over the range: many distinct blocks, some in the upper half of it.
  EXPECT_GT(hits.size(), 100000u);
  EXPECT_GT(hits.rbegin()->first, 2ull << 40);
}

TEST(FioGenerator, DescribeIsOneLine) {
  const auto workload = make_workload(
      "fio:rw=randrw,bs=8k,iodepth=32,numjobs=2,size=1g,rwmixread=70,io=10,"
      "random_distribution=hotcold:20/80,seed=3",
      kContext);
  EXPECT_EQ(workload->describe(),
            "fio randrw bs=8192 iodepth=32 numjobs=2 offset=0 size=1073741824 io=10/job "
            "rwmixread=70 random_distribution=hotcold:20/80 seed=3");
}

}  // namespace

TEST(Fio, DurabilityMixFlushesEveryNWritesAndMarksFuaAndTrims) {
  auto w = make_workload("fio:rw=randwrite,bs=4k,io=20000,fsync=10,fua_percent=25,trim_percent=10", kContext);
  const std::vector<Request> all = drain(*w);
  uint64_t writes = 0, fua = 0, trims = 0, flushes = 0, since = 0;
  for (const Request& r : all) {
    if (r.op == Op::Flush) {
      EXPECT_EQ(since, 10u);
      since = 0;
      flushes++;
    } else if (r.op == Op::Trim) {
      EXPECT_FALSE(r.fua);
      EXPECT_EQ(r.length, 4096u);
      trims++;
    } else {
      ASSERT_EQ(r.op, Op::Write);
      writes++;
      since++;
      fua += r.fua;
    }
  }
  EXPECT_EQ(writes + trims, 20000u);                       // io= counts writes and trims
  EXPECT_NEAR(double(trims) / 20000, 0.10, 0.01);
  EXPECT_NEAR(double(fua) / double(writes), 0.25, 0.015);
  EXPECT_EQ(flushes, writes / 10);
}

// run_length: sequential runs of that many bytes, each from a uniformly drawn multiple of it in
// the range (a cache's regions rewritten in no particular order).
TEST(FioGenerator, RunLengthWritesSequentialRunsAtRandomRegionStarts) {
  const WorkloadContext ctx{64ull << 20, 3};
  auto w = make_workload("fio:rw=randwrite,bs=64k,offset=4m,size=32m,run_length=1m,io=1600", ctx);
  std::map<uint64_t, int> runs;   // run start -> times started
  for (int k = 0; k < 100; k++) {
    uint64_t start = 0;
    for (int i = 0; i < 16; i++) {
      const auto r = w->next(0);
      ASSERT_TRUE(r);
      if (i == 0) {
        start = r->offset;
        EXPECT_EQ((start - (4ull << 20)) % (1ull << 20), 0u) << "a run starts at a multiple of run_length";
        EXPECT_LT(start, 36ull << 20);
        runs[start]++;
      }
      EXPECT_EQ(r->offset, start + uint64_t(i) * 65536) << "sequential within its run";
    }
  }
  EXPECT_FALSE(w->next(0));
  EXPECT_GT(runs.size(), 20u) << "runs start all over the range";
  for (const auto& [spec, message] : std::vector<std::pair<std::string, std::string>>{
           {"fio:rw=write,run_length=1m", "is for random patterns"},
           {"fio:rw=randwrite,bs=64k,run_length=100k", "must be a multiple of bs"},
           {"fio:rw=randwrite,bs=64k,run_length=1m,random_distribution=zipf:1.2", "runs start uniformly"}}) {
    EXPECT_NE(workload_error([&] { make_workload(spec, ctx); }).find(message), std::string::npos) << spec;
  }
}

}  // namespace ssdvp::workload::test
