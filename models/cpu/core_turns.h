// Which firmware core runs first when several resume at one instant of simulated time.
// SystemC leaves the order of processes woken at one time to its event queue, whose ties fall
// by the history of earlier notifications: two cores that share memory would see each other's
// writes in an order that changes with anything that changes that history (how many sync
// points a core skipped, a timeline, another model's extra wait), and so would the figures.
// Here the cores resuming at one instant run in the order of their ids: a core that finds a
// lower-numbered core due at the same instant (its timed wait ends now, or its interrupt wakes
// it now, or it is itself waiting its turn) lets it go first, a delta cycle at a time.
// Leaves out: the order of a core against the other models' processes at that instant (the
// devices' own processes, which reach a core only through its interrupt lines and registers).
#pragma once

#include <systemc>

#include <cstdint>
#include <vector>

namespace ssdvp {

class CoreTurns {
 public:
  explicit CoreTurns(uint32_t cores);

  // A core's own transitions, each just before the wait it names or after it resumes.
  void resumes_at(uint32_t core, const sc_core::sc_time& t);   // a timed wait that ends at t
  void sleeps(uint32_t core);                                  // waits for its interrupt event
  void stops(uint32_t core);                                   // never runs again
  void runs(uint32_t core);                                    // it has its turn
  // The core's interrupt event was notified to fire at t (SystemC keeps the earliest), and
  // the event fired.
  void irq_notified(uint32_t core, const sc_core::sc_time& t);
  void irq_fired(uint32_t core);

  // A lower-numbered core is due to run at `now` and has not yet.
  bool lower_core_due(uint32_t core, const sc_core::sc_time& now) const;

 private:
  enum class State { Running, Timed, Asleep, Woken, Stopped };
  struct Turn {
    State state = State::Timed;   // every core starts at time 0
    sc_core::sc_time at = sc_core::SC_ZERO_TIME;
    bool irq_pending = false;     // the event has a notification that has not fired
    sc_core::sc_time irq_at;
  };
  std::vector<Turn> turns_;
};

}  // namespace ssdvp
