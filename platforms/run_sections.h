// run.json by sections: each block of the platform reports its own section(s) through one small
// interface, a SectionReporter registered when the block is built (SsdPlatform's constructor);
// SsdPlatform::results() adds the run-level fields (version, config echo, errors, completion,
// wall time) and asks every registered reporter, in the order of registration, for its part.
// A reporter sees the measured window: the platform's state at its start and end (a
// PlatformSnapshot each) and its simulated and wall length.  The reporters themselves are in
// platforms/sections/, one file per kind of block (host side, the device's hardware, the
// firmware's statistics by mechanism).
// Leaves out: what a section holds (docs/run-report.md and each reporter's file say it).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

extern "C" {
#include "ftl-sw/hal/regs.h"
}

namespace ssdvp {

// The platform's counters at one instant (start and end of the measured window).
struct PlatformSnapshot {
  ssd_fw_stats fw{};
  std::vector<uint64_t> die_busy_ps, channel_busy_ps;
  uint64_t link_busy_ps[2] = {0, 0}, dram_busy_ps = 0, uncorrectable_sectors = 0;
  std::vector<uint64_t> die_erases, die_programmed;
  std::vector<uint64_t> queue_commands;   // fetched per submission queue
  uint64_t kernel_deltas = 0;             // SystemC delta cycles so far (sc_delta_count)
  struct Core {
    uint64_t busy_ps = 0, idle_ps = 0;   // integers, so that differences are exact
    double host_s = 0;
    uint64_t wakeups = 0, mmio = 0, instructions = 0, quanta = 0, syncs_skipped = 0;
    std::vector<uint64_t> cost_units;      // native: units of each kind of work (hal_cost)
  };
  std::vector<Core> cores;
};

// What every section reporter sees.
struct MeasuredWindow {
  const PlatformSnapshot& start;
  const PlatformSnapshot& end;
  double sim_s;        // simulated seconds of the measured phase
  double run_wall_s;   // wall seconds of it
  // The share of the window a busy-time counter (picoseconds) was busy.
  double busy_share(uint64_t end_ps, uint64_t start_ps) const {
    return sim_s > 0 ? double(end_ps - start_ps) * 1e-12 / sim_s : 0.0;
  }
};

// Adds one block's section(s) to run.json `r`.
using SectionReporter = std::function<void(nlohmann::json& r, const MeasuredWindow& w)>;

class RunSections {
 public:
  // `name` says whose section it is (for a reader of the assembly list and for errors).
  void add(std::string name, SectionReporter reporter) { reporters_.emplace_back(std::move(name), std::move(reporter)); }
  void report(nlohmann::json& r, const MeasuredWindow& w) const {
    for (const auto& [name, reporter] : reporters_) reporter(r, w);
  }
  std::vector<std::string> names() const {
    std::vector<std::string> n;
    for (const auto& entry : reporters_) n.push_back(entry.first);
    return n;
  }

 private:
  std::vector<std::pair<std::string, SectionReporter>> reporters_;
};

}  // namespace ssdvp
