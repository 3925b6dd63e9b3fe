// Ratio-of-random read mix: see rr_workload.h.
#include "traces/rr_workload.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "traces/request_extent.h"
#include "traces/spec_options.h"

namespace ssdvp::workload {

namespace {

// The paper's LRU buffer and its hit ratio at RR=100: the default pool is the working set in
// which that buffer hits that often under uniform draws.
constexpr double kPaperBufferBytes = 2 << 20;
constexpr double kPaperRandomHitRatio = 0.4555;
constexpr uint64_t kDefaultPoolBytes =
    static_cast<uint64_t>(kPaperBufferBytes / kPaperRandomHitRatio + 0.5);

}  // namespace

RrConfig parse_rr_config(const std::string& spec, const WorkloadContext& context) {
  const SpecOptions options(
      spec, spec.find(':') + 1,
      {"ratio", "requests", "bs", "pool", "offset", "size", "iodepth", "seed"});
  const uint64_t capacity = context.capacity_bytes;
  RrConfig config;
  if (!options.has("ratio")) options.fail("ratio= (percent of random requests) is required");
  config.ratio = options.real("ratio", 0);
  if (config.ratio < 0 || config.ratio > 100) options.fail("ratio", "must be in 0..100");

  config.requests = options.count("requests", 100000);
  if (config.requests == 0) options.fail("requests", "must be greater than 0");

  const RequestExtent extent = parse_request_extent(options, capacity, 2 << 20, context.capacity_is_upper_bound);
  const uint64_t block_size = extent.block_size;
  config.block_size = extent.block_size;
  config.offset = extent.offset;
  config.size = extent.size;

  const uint64_t pool_bytes = options.bytes("pool", kDefaultPoolBytes);
  if (pool_bytes == 0) options.fail("pool", "must be greater than 0");
  config.pool_blocks = std::max<uint64_t>(
      1, static_cast<uint64_t>(std::llround(static_cast<double>(pool_bytes) / block_size)));
  const uint64_t range_blocks = config.size / block_size;
  if (config.pool_blocks > range_blocks) {
    if (options.has("pool")) {
      options.fail("pool",
                   "larger than the range (" + std::to_string(range_blocks) + " blocks of bs)");
    }
    config.pool_blocks = range_blocks;  // the default pool shrinks to fit a small range
  }

  const uint64_t iodepth = options.count("iodepth", 1);
  if (iodepth == 0 || iodepth > 65535) options.fail("iodepth", "must be in 1..65535");
  config.iodepth = static_cast<unsigned>(iodepth);
  config.seed = options.count("seed", 0);
  return config;
}

RrWorkload::RrWorkload(const RrConfig& config, uint64_t context_seed)
    : config_(config),
      rng_(mix_seeds(context_seed, config.seed, 0x2A2A)),
      next_sequential_(config.offset) {}

std::optional<Request> RrWorkload::next(unsigned stream) {
  if (stream != 0)
    throw std::out_of_range("rr workload has one stream, asked for " + std::to_string(stream));
  if (issued_ == config_.requests) return std::nullopt;
  ++issued_;
  const bool jump = rng_.unit() * 100 < config_.ratio;
  const uint64_t offset =
      jump ? config_.offset + rng_.below(config_.pool_blocks) * config_.block_size
           : next_sequential_;
  next_sequential_ = offset + config_.block_size;
  if (next_sequential_ + config_.block_size > config_.offset + config_.size) {
    next_sequential_ = config_.offset;
  }
  Request request;
  request.op = Op::Read;
  request.offset = offset;
  request.length = config_.block_size;
  return request;
}

std::string RrWorkload::describe() const {
  std::ostringstream text;
  text << "rr ratio=" << config_.ratio << " requests=" << config_.requests
       << " bs=" << config_.block_size << " pool=" << config_.pool_blocks << " blocks"
       << " offset=" << config_.offset << " size=" << config_.size << " iodepth=" << config_.iodepth
       << " seed=" << config_.seed;
  return text.str();
}

}  // namespace ssdvp::workload
