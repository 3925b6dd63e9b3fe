// What the platform needs from a firmware core, whichever kind runs the firmware: the native
// core (host-compiled firmware, cost model) or the ISS core (RV32 firmware on Unicorn).
#pragma once

#include <systemc>

#include <cstdint>
#include <functional>
#include <vector>

namespace ssdvp {

class FirmwareCore {
 public:
  virtual ~FirmwareCore() = default;
  virtual sc_core::sc_time busy_time() const = 0;     // simulated time spent executing
  virtual sc_core::sc_time idle_time() const = 0;     // simulated time asleep
  virtual uint64_t wakeups() const = 0;
  virtual uint64_t mmio_accesses() const = 0;
  virtual uint64_t instructions() const = 0;          // retired instructions (0: native)
  virtual double host_seconds_executing() const = 0;  // wall time inside the firmware
  virtual uint64_t quanta() const { return 0; }       // ISS: runs between synchronisations
  virtual uint64_t syncs_skipped() const { return 0; }  // ISS: sync points run through
  virtual bool asleep() const = 0;                    // stopped until an interrupt (SYSCTL_SLEEP)
  // Native: the units of each kind of work the firmware charged (hal_cost, spin turns as
  // HAL_COST_SPIN), the counts the host FTL's cost table is fitted to (scripts/host_ftl_costs.py);
  // empty on the ISS (its instructions are the cost).
  virtual std::vector<uint64_t> cost_units() const { return {}; }

  // Timelines: called each time the core stops to wait for an interrupt, with the spell it
  // ran (from its last wake-up, or power-on).
  std::function<void(sc_core::sc_time from, sc_core::sc_time to)> on_busy;
  // Since when the core has been running (its current spell, if it is not asleep).
  sc_core::sc_time awake_since() const { return awake_since_; }

 protected:
  void note_asleep(const sc_core::sc_time& now) {
    if (on_busy && now > awake_since_) on_busy(awake_since_, now);
  }
  void note_awake(const sc_core::sc_time& now) { awake_since_ = now; }

 private:
  sc_core::sc_time awake_since_;
};

}  // namespace ssdvp
