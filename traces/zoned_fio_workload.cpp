// fio's zonemode=zbd: see zoned_fio_workload.h.
#include "traces/zoned_fio_workload.h"

#include <algorithm>
#include <sstream>

namespace ssdvp::workload {

ZonedFioWorkload::ZonedFioWorkload(const FioConfig& config, const WorkloadContext& ctx)
    : config_(config),
      zone_size_(ctx.zone_size_bytes),
      zone_cap_(ctx.zone_capacity_bytes),
      first_zone_(uint32_t(config.offset / ctx.zone_size_bytes)),
      view_(ctx.zone_view ? ctx.zone_view : std::make_shared<ZoneView>()),
      distribution_(config.distribution, (config.size - config.block_size) / config.align + 1, config.scramble,
                    mix_seeds(ctx.seed, config.seed, 0x5C4A3B1EULL)) {
  if (view_->written.size() < ctx.zones) {
    view_->written.resize(ctx.zones, 0);
    view_->open.resize(ctx.zones, 0);
  }
  const uint32_t zones = uint32_t(config_.size / zone_size_);
  const uint32_t share = zones / config_.numjobs;
  const uint32_t open_max = config_.max_open_zones ? std::max(1u, config_.max_open_zones / config_.numjobs) : 0u;
  for (unsigned j = 0; j < config_.numjobs; j++) {
    Job job{Rng(mix_seeds(ctx.seed, config_.seed, j)), j * share, j + 1 == config_.numjobs ? zones - j * share : share,
            {}, open_max, 0, 0, config_.requests_per_job, 0, std::nullopt};
    for (uint32_t z = 0; z < job.zones; z++)   // zones an earlier phase left open stay this job's
      if (view_->open[zone_of(job, z)]) job.open.push_back(z);
    jobs_.push_back(std::move(job));
  }
}

void ZonedFioWorkload::set_open(Job& job, uint32_t z, bool open) {
  view_->open[zone_of(job, z)] = open ? 1 : 0;
  const auto it = std::find(job.open.begin(), job.open.end(), z);
  if (open && it == job.open.end()) job.open.push_back(z);
  if (!open && it != job.open.end()) job.open.erase(it);
}

bool ZonedFioWorkload::any_written(const Job& job) const {
  for (uint32_t z = 0; z < job.zones; z++)
    if (view_->written[zone_of(job, z)]) return true;
  return false;
}

uint32_t ZonedFioWorkload::length(Job& job) const {
  if (!config_.block_size_min) return config_.block_size;
  return config_.block_size_min * (1 + uint32_t(job.rng.below(config_.block_size / config_.block_size_min)));
}

Request ZonedFioWorkload::write(Job& job, unsigned stream) {
  const uint32_t min_len = config_.block_size_min ? config_.block_size_min : config_.block_size;
  uint32_t len = length(job);
  uint32_t z;
  if (is_random(config_.pattern)) {
    const uint32_t want = uint32_t(distribution_.sample(job.rng) * config_.align / zone_size_) % job.zones;
    const bool is_open = std::find(job.open.begin(), job.open.end(), want) != job.open.end();
    if (is_open || !job.open_max || job.open.size() < job.open_max) z = want;
    else z = job.open[job.rng.below(job.open.size())];
  } else {
    z = job.seq_zone;
    if (written(job, z) + min_len > zone_cap_) z = job.seq_zone = (z + 1) % job.zones;   // on to the next zone
  }
  set_open(job, z, true);
  Request w;
  w.op = Op::Write;
  w.stream = uint16_t(stream);
  if (config_.fua_percent && job.rng.below(100) < config_.fua_percent) w.fua = true;
  job.writes_since_flush++;
  if (written(job, z) + min_len > zone_cap_) {   // full: reset it first, once the job's writes are done
    Request reset;
    reset.op = Op::ZoneReset;
    reset.offset = zone_start(job, z);
    reset.length = uint32_t(zone_cap_);
    reset.stream = uint16_t(stream);
    reset.barrier = true;
    written(job, z) = 0;
    resets_++;
    w.offset = zone_start(job, z);
    w.length = uint32_t(std::min<uint64_t>(len, zone_cap_));
    written(job, z) = w.length;
    if (written(job, z) == zone_cap_) set_open(job, z, false);
    job.after_reset = w;
    return reset;
  }
  w.offset = zone_start(job, z) + written(job, z);
  w.length = uint32_t(std::min<uint64_t>(len, zone_cap_ - written(job, z)));
  written(job, z) += w.length;
  if (written(job, z) == zone_cap_) set_open(job, z, false);   // full: the device closed it
  return w;
}

std::optional<Request> ZonedFioWorkload::read(Job& job, unsigned stream) {
  const uint32_t min_len = config_.block_size_min ? config_.block_size_min : config_.block_size;
  uint32_t len = length(job);
  Request r;
  r.op = Op::Read;
  r.stream = uint16_t(stream);
  if (is_random(config_.pattern)) {
    const uint64_t pos = distribution_.sample(job.rng) * config_.align;
    uint32_t z = uint32_t(pos / zone_size_) % job.zones;
    // The nearest zone (either way) with at least a block written, as fio's zbd_find_zone.
    for (uint32_t d = 0; d < job.zones; d++) {
      const uint32_t up = (z + d) % job.zones, down = (z + job.zones - d) % job.zones;
      if (written(job, up) >= min_len) { z = up; break; }
      if (written(job, down) >= min_len) { z = down; break; }
    }
    const uint64_t range = written(job, z);
    if (range < min_len) return std::nullopt;
    len = uint32_t(std::min<uint64_t>(len, range / min_len * min_len));
    const uint64_t room = range - len;
    r.offset = zone_start(job, z) + (room ? (pos % zone_size_) % (room + 1) / min_len * min_len : 0);
    r.length = len;
    return r;
  }
  for (uint32_t tries = 0; tries <= job.zones; tries++) {   // sequential: the written part of each zone
    if (job.seq_read + min_len <= written(job, job.seq_zone)) break;
    job.seq_zone = (job.seq_zone + 1) % job.zones;
    job.seq_read = 0;
  }
  const uint64_t range = written(job, job.seq_zone);
  if (job.seq_read + min_len > range) return std::nullopt;
  r.offset = zone_start(job, job.seq_zone) + job.seq_read;
  r.length = uint32_t(std::min<uint64_t>(len, (range - job.seq_read) / min_len * min_len));
  job.seq_read += r.length;
  return r;
}

std::optional<Request> ZonedFioWorkload::next(unsigned stream) {
  Job& job = jobs_.at(stream);
  if (job.after_reset) {
    Request w = *job.after_reset;
    job.after_reset.reset();
    return w;
  }
  if (config_.fsync && job.writes_since_flush >= config_.fsync) {
    job.writes_since_flush = 0;
    Request flush;
    flush.op = Op::Flush;
    flush.stream = uint16_t(stream);
    return flush;
  }
  if (job.remaining == 0) return std::nullopt;
  --job.remaining;
  bool reading = config_.pattern == FioPattern::Read || config_.pattern == FioPattern::RandRead;
  if (is_mixed(config_.pattern)) reading = job.rng.below(100) < config_.read_percent && any_written(job);
  if (!reading) return write(job, stream);
  return read(job, stream);   // nothing written anywhere: the job is done
}

std::string ZonedFioWorkload::describe() const {
  std::ostringstream text;
  text << "fio " << fio_pattern_name(config_.pattern) << " zonemode=zbd";
  if (config_.block_size_min) text << " bsrange=" << config_.block_size_min << "-" << config_.block_size;
  else text << " bs=" << config_.block_size;
  text << " iodepth=" << config_.iodepth << " numjobs=" << config_.numjobs << " zones=" << config_.size / zone_size_
       << " from zone " << first_zone_ << " max_open_zones=" << config_.max_open_zones
       << " io=" << config_.requests_per_job << "/job";
  if (is_mixed(config_.pattern)) text << " rwmixread=" << config_.read_percent;
  if (is_random(config_.pattern)) text << " random_distribution=" << distribution_name(config_.distribution);
  text << " seed=" << config_.seed;
  if (config_.fsync) text << " fsync=" << config_.fsync;
  if (config_.fua_percent) text << " fua_percent=" << config_.fua_percent;
  return text.str();
}

}  // namespace ssdvp::workload
