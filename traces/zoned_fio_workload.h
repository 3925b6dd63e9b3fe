// fio's zonemode=zbd on a zoned namespace (device.interface = zns; docs/zns.md): the fio-like
// generator's jobs writing zones as fio does (its zbd.c), closed loop, numjobs streams.
//
// Models: each write goes to a zone's write pointer.  A random write picks a zone from its
// offset; if that zone is not among the job's open zones and the job may open one more
// (max_open_zones, shared out among the jobs) it opens it, else the write goes to one of the
// job's open zones at random.  A sequential job writes its zones in order, wrapping.  A write
// that finds its zone full resets it first (a Zone Reset request, issued once the job's requests
// in flight have completed, as fio quiesces before a reset); a write that fills its zone closes
// it.  A write is shortened to the zone's capacity.  Reads go to written data only: a random
// read lands at its offset's position within the written part of its zone (or the nearest zone
// with data), a sequential read runs through the written part of each zone; while nothing is
// written, a mixed job writes instead (fio's zbd_adjust_ddir).  The generator keeps its own
// view of each write pointer (fio's), which the device's follows: a job's requests go in order
// on its queue.
// Differs from fio: each job writes zones of its own (fio shares them among jobs under locks),
// an equal share of the range; the zone reset threshold and frequency, zone skip, read beyond
// the write pointer, verify and Zone Append are not modelled.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "traces/block_distribution.h"
#include "traces/fio_config.h"
#include "traces/random.h"
#include "traces/workload.h"

namespace ssdvp::workload {

class ZonedFioWorkload : public Workload {
 public:
  ZonedFioWorkload(const FioConfig& config, const WorkloadContext& ctx);

  unsigned streams() const override { return config_.numjobs; }
  std::optional<Request> next(unsigned stream) override;
  bool closed_loop() const override { return true; }
  unsigned queue_depth() const override { return config_.iodepth; }
  std::string describe() const override;
  bool zoned() const override { return true; }
  // Its writes and reads (the zone resets it sends on the way are not counted).
  WorkloadExtent extent() const override { return {config_.requests_per_job * config_.numjobs, 0}; }

  uint64_t resets() const { return resets_; }

 private:
  struct Job {
    Rng rng;
    uint32_t first, zones;             // its zones: [first, first + zones) of the range's
    std::vector<uint32_t> open;        // its open zones (relative)
    uint32_t open_max = 0;             // 0: no limit
    uint32_t seq_zone = 0;             // sequential: the zone written or read now (relative)
    uint64_t seq_read = 0;             // sequential reads: the next byte in seq_zone
    uint64_t remaining;
    unsigned writes_since_flush = 0;
    std::optional<Request> after_reset;   // the write a reset was issued for
  };

  Request write(Job& job, unsigned stream);
  std::optional<Request> read(Job& job, unsigned stream);
  uint32_t length(Job& job) const;
  uint64_t zone_start(const Job& job, uint32_t z) const { return config_.offset + uint64_t(job.first + z) * zone_size_; }
  // The device's zone index of job zone z, and fio's view of it (ZoneView).
  uint32_t zone_of(const Job& job, uint32_t z) const { return first_zone_ + job.first + z; }
  uint64_t& written(const Job& job, uint32_t z) { return view_->written[zone_of(job, z)]; }
  void set_open(Job& job, uint32_t z, bool open);
  bool any_written(const Job& job) const;

  FioConfig config_;
  uint64_t zone_size_, zone_cap_;
  uint32_t first_zone_;                // the range's first zone
  std::shared_ptr<ZoneView> view_;
  BlockDistribution distribution_;
  std::vector<Job> jobs_;
  uint64_t resets_ = 0;
};

}  // namespace ssdvp::workload
