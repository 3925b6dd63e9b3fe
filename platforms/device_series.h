// The drive's state over simulated time: the firmware's statistics block sampled at the end of
// every interval of the measured phase (sim.series_interval_ms) and at its end, for run.json's
// series.device: WAF so far, free superblocks, GC work and erases per interval, write-buffer
// fill.  Sampling reads DRAM through the backdoor: it changes no simulated figure.
// Leaves out: per-pool or per-region figures (SLC/MLC free blocks), mapping-cache figures.
#pragma once

#include <systemc>

#include <cstdint>
#include <functional>
#include <vector>

#include <nlohmann/json.hpp>

extern "C" {
#include "ftl-sw/hal/regs.h"
}

namespace ssdvp {

class DeviceSeries {
 public:
  using StatsFn = std::function<const ssd_fw_stats*()>;
  DeviceSeries(uint64_t interval_ns, StatsFn stats) : interval_ns_(interval_ns), stats_(std::move(stats)) {}
  bool on() const { return interval_ns_ != 0; }
  // The measured phase begins now: the baseline, and a sampler for every interval end.
  void start();
  // It ends now: the last (partial) interval's sample; no more after it.
  void stop();
  // The device columns for `intervals` intervals (the host series' count: it ends with the
  // last completion): a sample missing at the end repeats the final one, and the final
  // sample (the end of the phase) is the last interval's.
  nlohmann::json json(size_t intervals) const;

 private:
  struct Sample {
    uint64_t host_write_sectors, flash_prog_sectors, gc_runs, gc_prog_sectors, erases;
    uint32_t free_superblocks, wbuf_used;
  };
  Sample sample() const;
  uint64_t interval_ns_;
  StatsFn stats_;
  bool running_ = false;
  Sample base_{};
  uint32_t wbuf_entries_ = 0;
  std::vector<Sample> samples_;   // at the end of interval i
};

}  // namespace ssdvp
