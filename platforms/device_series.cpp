#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "platforms/device_series.h"

namespace ssdvp {

DeviceSeries::Sample DeviceSeries::sample() const {
  const ssd_fw_stats* s = stats_();
  if (!s) return base_;
  return {s->host_write_sectors, s->flash_prog_sectors, s->gc_runs, s->gc_prog_sectors, s->erases,
          s->free_superblocks, s->wbuf_used};
}

void DeviceSeries::start() {
  if (!on()) return;
  base_ = sample();
  if (const ssd_fw_stats* s = stats_()) wbuf_entries_ = s->wbuf_entries;
  running_ = true;
  sc_core::sc_spawn([this] {
    const sc_core::sc_time interval(double(interval_ns_), sc_core::SC_NS);
    for (;;) {
      sc_core::wait(interval);
      if (!running_) return;
      samples_.push_back(sample());
    }
  }, "device_series_sampler");
}

void DeviceSeries::stop() {
  if (!running_) return;
  running_ = false;
  samples_.push_back(sample());
}

nlohmann::json DeviceSeries::json(size_t intervals) const {
  nlohmann::json waf = nlohmann::json::array(), free_sb = waf, gc_runs = waf, gc_sectors = waf, erases = waf,
                 wbuf = waf;
  Sample prev = base_;
  for (size_t i = 0; i < intervals; i++) {
    const bool last = i + 1 == intervals;
    const Sample& s = samples_.empty() ? base_ : last || i >= samples_.size() ? samples_.back() : samples_[i];
    const uint64_t host = s.host_write_sectors - base_.host_write_sectors;
    if (host) waf.push_back(double(s.flash_prog_sectors - base_.flash_prog_sectors) / double(host));
    else waf.push_back(nullptr);
    free_sb.push_back(s.free_superblocks);
    gc_runs.push_back(s.gc_runs - prev.gc_runs);
    gc_sectors.push_back(s.gc_prog_sectors - prev.gc_prog_sectors);
    erases.push_back(s.erases - prev.erases);
    wbuf.push_back(s.wbuf_used);
    prev = s;
  }
  return {{"waf", waf},         {"free_superblocks", free_sb}, {"gc_runs", gc_runs}, {"gc_prog_sectors", gc_sectors},
          {"erases", erases},   {"wbuf_used", wbuf},          {"wbuf_entries", wbuf_entries_}};
}

}  // namespace ssdvp
