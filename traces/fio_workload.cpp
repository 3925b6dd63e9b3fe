// fio-like closed-loop generator: see fio_workload.h.
#include "traces/fio_workload.h"

#include <sstream>

namespace ssdvp::workload {

namespace {

uint64_t random_positions(const FioConfig& config) {
  return (config.size - config.block_size) / config.align + 1;
}

}  // namespace

FioWorkload::FioWorkload(const FioConfig& config, uint64_t context_seed)
    : config_(config),
      distribution_(config.distribution, random_positions(config), config.scramble,
                    mix_seeds(context_seed, config.seed, 0x5C4A3B1EULL)) {
  const uint64_t job_share =
      config_.size / config_.numjobs / config_.block_size * config_.block_size;
  jobs_.reserve(config_.numjobs);
  for (unsigned job = 0; job < config_.numjobs; ++job) {
    jobs_.push_back(Job{Rng(mix_seeds(context_seed, config_.seed, job)),
                        config_.offset + job * job_share, config_.requests_per_job});
  }
}

Op FioWorkload::next_op(Rng& rng) const {
  switch (config_.pattern) {
    case FioPattern::Read:
    case FioPattern::RandRead: return Op::Read;
    case FioPattern::Write:
    case FioPattern::RandWrite: return Op::Write;
    case FioPattern::Trim:
    case FioPattern::RandTrim: return Op::Trim;
    case FioPattern::ReadWrite:
    case FioPattern::RandReadWrite:
      return rng.below(100) < config_.read_percent ? Op::Read : Op::Write;
  }
  return Op::Read;  // unreachable: every pattern returns above
}

std::optional<Request> FioWorkload::next(unsigned stream) {
  Job& job = jobs_.at(stream);
  if (config_.fsync && job.writes_since_flush == config_.fsync) {
    job.writes_since_flush = 0;
    Request flush;
    flush.op = Op::Flush;
    flush.stream = static_cast<uint16_t>(stream);
    return flush;
  }
  if (job.remaining == 0) return std::nullopt;
  --job.remaining;
  Request request;
  request.op = next_op(job.rng);
  if (request.op == Op::Write) {
    if (config_.trim_percent && job.rng.below(100) < config_.trim_percent) request.op = Op::Trim;
    else if (config_.fua_percent && job.rng.below(100) < config_.fua_percent) request.fua = true;
    if (request.op == Op::Write) job.writes_since_flush++;
  }
  request.length = config_.block_size;
  if (config_.block_size_min)
    request.length = config_.block_size_min * (1 + job.rng.below(config_.block_size / config_.block_size_min));
  request.stream = static_cast<uint16_t>(stream);
  bool hot = false;
  if (is_random(config_.pattern) && config_.run_length) {   // sequential runs at random starts
    if (job.run_left == 0) {
      job.run_cursor = config_.offset + job.rng.below(config_.size / config_.run_length) * config_.run_length;
      job.run_left = config_.run_length;
    }
    request.offset = job.run_cursor;
    job.run_cursor += request.length;
    job.run_left -= request.length;
  } else if (is_random(config_.pattern)) {
    request.offset = config_.offset + distribution_.sample(job.rng, &hot) * config_.align;
  } else {
    if (job.cursor + request.length > config_.offset + config_.size)
      job.cursor = config_.offset;
    request.offset = job.cursor;
    job.cursor += request.length + config_.skip;
  }
  if (config_.fdp && request.op == Op::Write) {
    const auto& pids = config_.fdp_pids;
    using S = FioConfig::FdpSelect;
    switch (config_.fdp_select) {
      case S::RoundRobin: request.placement = pids[job.next_pid++ % pids.size()]; break;
      case S::Random: request.placement = pids[job.rng.below(pids.size())]; break;
      case S::Job: request.placement = pids[stream % pids.size()]; break;
      case S::HotCold: request.placement = pids[hot ? 0 : 1]; break;
    }
  }
  return request;
}

std::string FioWorkload::describe() const {
  std::ostringstream text;
  text << "fio " << fio_pattern_name(config_.pattern);
  if (config_.skip) text << ":" << config_.skip;
  if (config_.block_size_min) text << " bsrange=" << config_.block_size_min << "-" << config_.block_size;
  else text << " bs=" << config_.block_size;
  text
       << " iodepth=" << config_.iodepth << " numjobs=" << config_.numjobs
       << " offset=" << config_.offset << " size=" << config_.size
       << " io=" << config_.requests_per_job << "/job";
  if (is_mixed(config_.pattern)) text << " rwmixread=" << config_.read_percent;
  if (is_random(config_.pattern)) {
    text << " random_distribution=" << distribution_name(config_.distribution);
    if (config_.align != config_.block_size) text << " align=" << config_.align;
  }
  text << " seed=" << config_.seed;
  if (config_.fsync) text << " fsync=" << config_.fsync;
  if (config_.fua_percent) text << " fua_percent=" << config_.fua_percent;
  if (config_.trim_percent) text << " trim_percent=" << config_.trim_percent;
  if (config_.run_length) text << " run_length=" << config_.run_length;
  if (config_.fdp) {
    text << " fdp=1 fdp_pli=";
    for (size_t i = 0; i < config_.fdp_indices.size(); i++) text << (i ? ":" : "") << config_.fdp_indices[i];
    static const char* names[] = {"roundrobin", "random", "job", "hotcold"};
    text << " fdp_pli_select=" << names[int(config_.fdp_select)];
  }
  return text.str();
}

}  // namespace ssdvp::workload
