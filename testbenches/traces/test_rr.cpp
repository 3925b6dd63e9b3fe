// Ratio-of-random read mix (read-ahead paper): sequential at 0, random at 100, repeats sized
// so that a 2 MiB LRU buffer hits ~45.55 % at ratio 100.
#include <gtest/gtest.h>

#include <list>
#include <set>
#include <unordered_map>

#include "trace_test_support.h"

namespace ssdvp::workload::test {
namespace {

const WorkloadContext kContext{64ull << 30, 1};

// Hit ratio of an LRU buffer of `capacity_blocks` blocks of `block` bytes over `requests`.
double lru_hit_ratio(const std::vector<Request>& requests, size_t capacity_blocks) {
  std::list<uint64_t> order;  // most recent first
  std::unordered_map<uint64_t, std::list<uint64_t>::iterator> where;
  size_t hits = 0;
  for (const Request& request : requests) {
    const auto found = where.find(request.offset);
    if (found != where.end()) {
      ++hits;
      order.erase(found->second);
    } else if (order.size() == capacity_blocks) {
      where.erase(order.back());
      order.pop_back();
    }
    order.push_front(request.offset);
    where[request.offset] = order.begin();
  }
  return static_cast<double>(hits) / static_cast<double>(requests.size());
}

// Fraction of requests that do not continue right after the previous one.
double jump_fraction(const std::vector<Request>& requests) {
  size_t jumps = 0;
  for (size_t i = 1; i < requests.size(); ++i) {
    jumps += requests[i].offset != requests[i - 1].offset + requests[i - 1].length;
  }
  return static_cast<double>(jumps) / static_cast<double>(requests.size() - 1);
}

TEST(RrGenerator, RatioZeroIsFullySequential) {
  const auto workload = make_workload("rr:ratio=0,bs=4k,requests=1000,size=1m", kContext);
  EXPECT_TRUE(workload->closed_loop());
  EXPECT_EQ(workload->streams(), 1u);
  EXPECT_EQ(workload->queue_depth(), 1u);
  const std::vector<Request> requests = drain(*workload);
  ASSERT_EQ(requests.size(), 1000u);
  for (size_t i = 0; i < requests.size(); ++i) {
    EXPECT_EQ(requests[i].op, Op::Read);
    EXPECT_EQ(requests[i].length, 4096u);
    EXPECT_EQ(requests[i].offset, (i % 256) * 4096);  // wraps at the end of the 1 MiB range
  }
}

TEST(RrGenerator, RatioHundredIsFullyRandomInThePool) {
  const auto workload = make_workload("rr:ratio=100,bs=4k,requests=100000", kContext);
  const std::vector<Request> requests = drain(*workload);
  // Default pool: 2 MiB / 0.4555 = 4604066 bytes = 1124 blocks of 4 KiB.
  std::set<uint64_t> blocks;
  for (const Request& request : requests) {
    ASSERT_LT(request.offset, 1124u * 4096);
    EXPECT_EQ(request.offset % 4096, 0u);
    blocks.insert(request.offset);
  }
  EXPECT_EQ(blocks.size(), 1124u);
  EXPECT_GT(jump_fraction(requests), 0.99);
}

TEST(RrGenerator, RatioSetsTheShareOfJumps) {
  const auto workload = make_workload("rr:ratio=30,bs=4k,requests=100000", kContext);
  // A jump lands right after the previous request with probability 1/1124; ignore that.
  EXPECT_NEAR(jump_fraction(drain(*workload)), 0.30, 0.01);
}

TEST(RrGenerator, RandomRepeatsGiveThePapersLruHitRatio) {
  // 2 MiB LRU buffer in blocks of bs: 512 blocks of 4 KiB, 4096 items of 512 B.
  const auto pages = make_workload("rr:ratio=100,bs=4k", kContext);
  EXPECT_NEAR(lru_hit_ratio(drain(*pages), 512), 0.4555, 0.01);
  const auto items = make_workload("rr:ratio=100,bs=512", kContext);
  EXPECT_NEAR(lru_hit_ratio(drain(*items), 4096), 0.4555, 0.01);
  const auto sequential = make_workload("rr:ratio=0,bs=4k", kContext);
  EXPECT_EQ(lru_hit_ratio(drain(*sequential), 512), 0.0);
}

TEST(RrGenerator, PoolSizeIsAParameter) {
  const auto workload = make_workload("rr:ratio=100,bs=4k,pool=1m,requests=20000", kContext);
  const std::vector<Request> requests = drain(*workload);
  std::set<uint64_t> blocks;
  for (const Request& request : requests) blocks.insert(request.offset);
  EXPECT_EQ(blocks.size(), 256u);
  EXPECT_EQ(*blocks.rbegin(), (1u << 20) - 4096);
  EXPECT_NEAR(lru_hit_ratio(requests, 128), 0.5, 0.02);
}

TEST(RrGenerator, DefaultsAndOptions) {
  const auto workload = make_workload("rr:ratio=50,iodepth=4,seed=9", kContext);
  EXPECT_EQ(workload->queue_depth(), 4u);
  EXPECT_EQ(workload->describe(),
            "rr ratio=50 requests=100000 bs=2097152 pool=2 blocks offset=0 size=68719476736 "
            "iodepth=4 seed=9");
  const std::vector<Request> requests = drain(*workload);
  EXPECT_EQ(requests.size(), 100000u);
  EXPECT_EQ(requests.front().length, 2u << 20);
  EXPECT_THROW(workload->next(1), std::out_of_range);
}

TEST(RrGenerator, DeterministicBySeed) {
  const auto offsets = [](const std::string& spec) {
    std::vector<uint64_t> out;
    for (const Request& request : drain(*make_workload(spec, kContext)))
      out.push_back(request.offset);
    return out;
  };
  EXPECT_EQ(offsets("rr:ratio=50,bs=4k,requests=500"), offsets("rr:ratio=50,bs=4k,requests=500"));
  EXPECT_NE(offsets("rr:ratio=50,bs=4k,requests=500"),
            offsets("rr:ratio=50,bs=4k,requests=500,seed=1"));
}

TEST(RrGenerator, RejectsBadOptions) {
  const struct {
    const char* spec;
    const char* message;
  } cases[] = {
      {"rr:bs=4k", "ratio= (percent of random requests) is required"},
      {"rr:ratio=101", "ratio=101: must be in 0..100"},
      {"rr:ratio=x", "ratio=x: not a number"},
      {"rr:ratio=5,requests=0", "requests=0: must be greater than 0"},
      {"rr:ratio=5,bs=100", "bs=100: block size must be a non-zero multiple of 512"},
      {"rr:ratio=5,bs=4k,size=1m,pool=2m", "pool=2m: larger than the range (256 blocks of bs)"},
      {"rr:ratio=5,pool=0", "pool=0: must be greater than 0"},
      {"rr:ratio=5,iodepth=0", "iodepth=0: must be in 1..65535"},
      {"rr:ratio=5,size=128g", "size=128g: offset + size exceeds the namespace's capacity (68719476736 bytes)"},
      {"rr:ratio=5,mode=x",
       "unknown option 'mode' (known: ratio, requests, bs, pool, offset, size, iodepth, seed)"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(workload_error([&] { make_workload(c.spec, kContext); }),
              std::string("workload '") + c.spec + "': " + c.message);
  }
}

}  // namespace
}  // namespace ssdvp::workload::test
