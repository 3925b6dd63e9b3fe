#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "platforms/run_timeline.h"

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <fmt/format.h>

#include "models/cpu/firmware_core.h"
#include "models/cpu/iss_core.h"
#include "models/flash/channel_if.h"
#include "models/flash/flash_controller.h"
#include "models/host/host_driver.h"

namespace ssdvp {

namespace {

uint64_t ps(const sc_core::sc_time& t) { return t.value(); }

// Die operation names by opcode (read, program, erase) and the FTL's reason (SSD_FRSN_*).
const char* const kDieOpName[3][SSD_FRSN_COUNT] = {
    {"read", "read host", "read gc", "read map", "read migration", "read prefetch", "read wear", "read meta"},
    {"program", "program host", "program gc", "program map", "program migration", "program prefetch",
     "program wear", "program meta"},
    {"erase", "erase host", "erase gc", "erase map", "erase migration", "erase prefetch", "erase wear", "erase meta"}};
static_assert(SSD_FOP_READ == 1 && SSD_FOP_PROGRAM == 2 && SSD_FOP_ERASE == 3);

const std::vector<const char*> kStatus = {"ok", "ecc corrected", "uncorrectable", "program failed", "erase failed",
                                          "bad descriptor"};
const Timeline::ArgNames kDieArgs{{"block", "page", "plane_mask", "status"}, {nullptr, nullptr, nullptr, &kStatus}};
const char* const kBusPhase[3] = {"command / data in", "data out", "status"};
const Timeline::ArgNames kBusArgs{{"way", "operation", nullptr, nullptr}, {}};
const std::vector<const char*> kOutcome = {"error", "ok"};
const Timeline::ArgNames kRequestArgs{{"lba", "sectors", "latency_ns", "outcome"}, {nullptr, nullptr, nullptr, &kOutcome}};

// Counters: write-buffer fill, free superblocks, flash operations in flight by reason group.
enum Counter { kWbufUsed, kFreeSuperblocks, kHostOps, kGcOps, kMapOps, kPrefetchOps, kCounters };
const char* const kCounterName[kCounters] = {"write buffer entries in use", "free superblocks",
                                             "flash ops in flight: host", "flash ops in flight: gc/migration/wear",
                                             "flash ops in flight: map", "flash ops in flight: prefetch"};

}  // namespace

RunTimeline::RunTimeline(const TimelineOptions& o, uint32_t channels, uint32_t ways, uint32_t queues,
                         FlashController& fctl, const std::vector<ChannelIf*>& channel_models,
                         const std::vector<FirmwareCore*>& cores, HostDriver& driver, StatsFn stats)
    : o_(o), channels_(channels), t_(Timeline::Options{o.max_events}), fctl_(fctl), cores_(cores),
      stats_(std::move(stats)), last_counter_(kCounters, -1) {
  // The file is written at the end of the run: a path that cannot be written fails now.
  {
    const std::filesystem::path path(o.path);
    std::error_code ec;
    if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
    std::ofstream probe(o.path);
    if (!probe) throw std::runtime_error("--timeline: cannot write " + o.path);
  }
  for (uint32_t q = 0; q < queues; q++) queue_track_.push_back(t_.add_track(fmt::format("host queue {}", q), "requests"));
  for (uint32_t c = 0; c < cores.size(); c++) core_track_.push_back(t_.add_track("firmware cores", fmt::format("core {}", c)));
  for (uint32_t c = 0; c < channels; c++) channel_track_.push_back(t_.add_track("channels", fmt::format("channel {}", c)));
  for (uint32_t w = 0; w < ways; w++)
    for (uint32_t c = 0; c < channels; c++)
      die_track_.push_back(t_.add_track("NAND dies", fmt::format("die {} (channel {}, way {})", w * channels + c, c, w)));
  device_track_ = t_.add_track("device", "counters");

  auto chained = fctl.observer;
  fctl.observer = [this, chained](const FlashOp& op) {
    if (chained) chained(op);
    die_op(op);
  };
  for (uint32_t c = 0; c < channel_models.size(); c++)
    channel_models[c]->on_bus_phase = [this, c](uint32_t way, uint32_t phase, uint64_t op, sc_core::sc_time start,
                                                sc_core::sc_time end) {
      if (recording_ && phase < 3)
        t_.slice(channel_track_[c], kBusPhase[phase], ps(start), ps(end), &kBusArgs, {int64_t(way), int64_t(op), 0, 0});
    };
  for (uint32_t c = 0; c < cores.size(); c++) {
    cores[c]->on_busy = [this, c](sc_core::sc_time from, sc_core::sc_time to) {
      if (recording_) t_.slice(core_track_[c], "busy", ps(from), ps(to));
    };
    // On the ISS with firmware.profile: the function running, on a track of its own.
    if (auto* iss = dynamic_cast<IssCore*>(cores[c])) {
      const uint32_t track = t_.add_track("firmware cores", fmt::format("core {} functions", c));
      if (iss->trace_functions([this, track](const char* function, sc_core::sc_time from, sc_core::sc_time to) {
            if (recording_) t_.slice(track, function, ps(from), ps(to));
          }))
        function_cores_.push_back(iss);
    }
  }
  driver.on_request_done = [this](const HostDriver::RequestDone& r) {
    if (!recording_ || r.queue >= queue_track_.size()) return;
    t_.span(queue_track_[r.queue], workload::op_name(r.op), r.id, ps(r.start), ps(r.end), &kRequestArgs,
            {int64_t(r.lba), int64_t(r.nsect), int64_t((r.end - r.start).value() / 1000), r.ok ? 1 : 0});
  };
}

void RunTimeline::die_op(const FlashOp& op) {
  if (!recording_ || op.t_array_end == sc_core::SC_ZERO_TIME) return;   // never reached a die
  const ssd_flash_desc& d = op.desc;
  if (d.opcode < SSD_FOP_READ || d.opcode > SSD_FOP_ERASE) return;
  const uint32_t die = uint32_t(d.way) * channels_ + d.channel;
  if (die >= die_track_.size()) return;
  t_.slice(die_track_[die], kDieOpName[d.opcode - 1][FlashController::reason_of(d)], ps(op.t_array), ps(op.t_array_end),
           &kDieArgs, {d.block, d.page, d.plane_mask, op.status});
}

void RunTimeline::start() {
  start_ = sc_core::sc_time_stamp();
  const uint64_t begin = ps(start_) + uint64_t(o_.window_begin_ms * 1e9);
  const uint64_t end = o_.window_end_ms < 0 ? std::numeric_limits<uint64_t>::max()
                                            : ps(start_) + uint64_t(o_.window_end_ms * 1e9);
  t_.set_window(begin, end);
  t_.instant(device_track_, "measured run begins", ps(start_));
  recording_ = sampling_ = true;
  sample_counters();
  sc_core::sc_spawn([this] {
    const sc_core::sc_time period(o_.sample_us, sc_core::SC_US);
    while (sampling_) {
      sc_core::wait(period);
      if (sampling_) sample_counters();
    }
  }, "timeline_counter_sampler");
}

void RunTimeline::sample_counters() {
  const ssd_fw_stats* s = stats_();
  const int64_t v[kCounters] = {
      s ? int64_t(s->wbuf_used) : 0,
      s ? int64_t(s->free_superblocks) : 0,
      fctl_.in_flight(SSD_FRSN_HOST),
      int64_t(fctl_.in_flight(SSD_FRSN_GC)) + fctl_.in_flight(SSD_FRSN_MIGRATE) + fctl_.in_flight(SSD_FRSN_WEAR),
      fctl_.in_flight(SSD_FRSN_MAP),
      fctl_.in_flight(SSD_FRSN_PREFETCH)};
  const uint64_t now = ps(sc_core::sc_time_stamp());
  for (size_t k = 0; k < kCounters; k++) {
    if (v[k] == last_counter_[k]) continue;
    last_counter_[k] = v[k];
    t_.counter(device_track_, kCounterName[k], now, v[k]);
  }
}

void RunTimeline::stop() {
  if (!sampling_) return;
  sample_counters();
  sampling_ = false;
  // The spell each running core is in ends here for the timeline.
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  for (uint32_t c = 0; c < cores_.size(); c++)
    if (!cores_[c]->asleep() && now > cores_[c]->awake_since())
      t_.slice(core_track_[c], "busy", ps(cores_[c]->awake_since()), ps(now));
  for (IssCore* iss : function_cores_) iss->end_function_span();
  t_.instant(device_track_, "measured run ends", ps(now));
  recording_ = false;
}

uint64_t RunTimeline::write(const std::string& run) const {
  std::ofstream out(o_.path);
  if (!out) throw std::runtime_error("--timeline: cannot write " + o_.path);
  t_.write(out, run);
  out.flush();
  if (!out) throw std::runtime_error("--timeline: writing " + o_.path + " failed");
  return t_.kept();
}

}  // namespace ssdvp
