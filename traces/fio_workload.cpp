// fio-like closed-loop generator: see fio_workload.h.
#include "traces/fio_workload.h"

#include <algorithm>
#include <sstream>

namespace ssdvp::workload {

namespace {

uint64_t random_positions(const FioConfig& config) {
  return (config.size - config.block_size) / config.align + 1;
}

}  // namespace

FioWorkload::FioWorkload(const FioConfig& config, uint64_t context_seed, std::function<uint64_t()> now_ns,
                         std::string spec)
    : config_(config),
      distribution_(config.distribution, random_positions(config), config.scramble,
                    mix_seeds(context_seed, config.seed, 0x5C4A3B1EULL)),
      now_ns_(std::move(now_ns)),
      spec_(std::move(spec)) {
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

uint64_t FioWorkload::now(const char* why) const {
  if (!now_ns_)
    throw WorkloadError("workload '" + spec_ + "': " + why +
                        " need the simulation's clock, which this source of requests does not give");
  return now_ns_();
}

namespace {

int direction(Op op) { return op == Op::Read ? 0 : op == Op::Write ? 1 : op == Op::Trim ? 2 : -1; }

// n units at `per_second` from `start`, ns (0 per second: no limit).
uint64_t slot(uint64_t start, uint64_t n, uint64_t per_second) {
  return per_second ? start + uint64_t((unsigned __int128)n * 1000000000u / per_second) : 0;
}

}  // namespace

void FioWorkload::pace(Job& job, Request& request) const {
  const int d = direction(request.op);
  if (d >= 0 && (config_.rate_iops[d] || config_.rate_bytes[d])) {
    request.not_before_ns = std::max(slot(*job.start_ns, job.sent[d], config_.rate_iops[d]),
                                     slot(*job.start_ns, job.sent_bytes[d], config_.rate_bytes[d]));
  }
  if (d >= 0) {
    job.sent[d]++;
    job.sent_bytes[d] += request.length;
  }
  if (config_.thinktime_ns && job.since_think == config_.thinktime_blocks) {
    request.barrier = true;
    request.think_ns = config_.thinktime_ns;
    job.since_think = 0;
  }
  job.since_think++;
}

std::optional<Request> FioWorkload::next(unsigned stream) {
  Job& job = jobs_.at(stream);
  const bool paced = config_.runtime_ns || config_.thinktime_ns || config_.rate_iops[0] || config_.rate_iops[1] ||
                     config_.rate_iops[2] || config_.rate_bytes[0] || config_.rate_bytes[1] || config_.rate_bytes[2];
  if (paced) {
    const uint64_t t = now("runtime, rate and thinktime");
    if (!job.start_ns) job.start_ns = t;
    if (config_.runtime_ns && t - *job.start_ns >= config_.runtime_ns) return std::nullopt;
  }
  if (config_.fsync && job.writes_since_flush == config_.fsync) {
    job.writes_since_flush = 0;
    Request flush;
    flush.op = Op::Flush;
    flush.stream = static_cast<uint16_t>(stream);
    return flush;
  }
  if (job.remaining == 0) return std::nullopt;
  if (!config_.time_based) --job.remaining;
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
  if (paced) pace(job, request);
  return request;
}

WorkloadExtent FioWorkload::extent() const {
  if (config_.time_based) return {0, config_.runtime_ns};
  uint64_t per_job = config_.requests_per_job;
  const bool writes = config_.pattern == FioPattern::Write || config_.pattern == FioPattern::RandWrite || is_mixed(config_.pattern);
  if (config_.fsync && writes) {   // flushes after every fsync writes (a mixed job's share of them)
    const uint64_t write_share = is_mixed(config_.pattern) ? 100 - config_.read_percent : 100;
    per_job += per_job * write_share / 100 / config_.fsync;
  }
  return {per_job * config_.numjobs, 0};
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
       ;
  if (config_.time_based) text << " time_based";
  else text << " io=" << config_.requests_per_job << "/job";
  if (config_.runtime_ns) text << " runtime=" << config_.runtime_ns / 1e6 << "ms";
  // Per direction as given (read:write:trim), one value when they are all one.
  const auto rates = [&text](const char* name, const uint64_t r[3], const char* unit) {
    if (!r[0] && !r[1] && !r[2]) return;
    text << " " << name << "=" << r[0];
    if (r[1] != r[0] || r[2] != r[0]) text << ":" << r[1] << ":" << r[2];
    text << unit;
  };
  rates("rate_iops", config_.rate_iops, "/s");
  rates("rate", config_.rate_bytes, "B/s");
  if (config_.thinktime_ns)
    text << " thinktime=" << config_.thinktime_ns / 1e3 << "us thinktime_blocks=" << config_.thinktime_blocks;
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
