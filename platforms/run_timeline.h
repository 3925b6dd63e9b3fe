// What goes on a run's timeline (models/common/timeline.h) and where it comes from: one track
// per die (its array operations: read / program / erase, named with the FTL's reason: host,
// gc, map, migration, prefetch, wear, meta; block, page, planes and status as arguments), per
// channel (bus phases: command and data in, data out, status), per firmware core (busy
// spells: from a wake-up to the next sleep; on the ISS with firmware.profile, a second track of
// the function running, about 75 slices per 4 KiB request), per host queue (each request from submission to
// completion, with its LBA, sectors and latency), and counters sampled every
// sample interval: write-buffer entries in use, free superblocks, flash operations in flight
// by reason (GC episodes show as the GC count rising from 0).  Kept from the measured phase's
// start (or the window's) to its end; written when the run ends.
// Leaves out: the functions a native core runs (it has no instruction stream), DRAM and PCIe
// transfers, preconditioning (its flash operations take no simulated time).
#pragma once

#include <systemc>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/common/timeline.h"

extern "C" {
#include "ftl-sw/hal/regs.h"
}

namespace ssdvp {

class ChannelIf;
class FirmwareCore;
class FlashController;
class HostDriver;
struct FlashOp;

struct TimelineOptions {
  std::string path;                   // "": no timeline
  double window_begin_ms = 0;         // of the measured phase
  double window_end_ms = -1;          // < 0: to its end
  uint64_t max_events = 1'000'000;
  double sample_us = 50;              // counters
};

class RunTimeline {
 public:
  using StatsFn = std::function<const ssd_fw_stats*()>;
  // Hooks itself into the components (their observers; a flash controller observer already
  // set is kept and called first).
  RunTimeline(const TimelineOptions& o, uint32_t channels, uint32_t ways, uint32_t queues, FlashController& fctl,
              const std::vector<ChannelIf*>& channel_models, const std::vector<FirmwareCore*>& cores,
              HostDriver& driver, StatsFn stats);
  // The measured phase begins now (opens the window) / ends now (stops the counters).
  void start();
  void stop();
  // Writes the file; `run` is a JSON object text for otherData.run.  Returns the events kept.
  uint64_t write(const std::string& run) const;
  const Timeline& timeline() const { return t_; }

 private:
  void die_op(const FlashOp& op);
  void sample_counters();
  TimelineOptions o_;
  uint32_t channels_;
  Timeline t_;
  std::vector<uint32_t> die_track_, channel_track_, core_track_, queue_track_;
  uint32_t device_track_ = 0;
  FlashController& fctl_;
  std::vector<FirmwareCore*> cores_;
  std::vector<class IssCore*> function_cores_;   // tracing the functions they run
  StatsFn stats_;
  bool recording_ = false, sampling_ = false;
  std::vector<int64_t> last_counter_;
  sc_core::sc_time start_;
};

}  // namespace ssdvp
