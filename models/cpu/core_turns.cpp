#include "models/cpu/core_turns.h"

namespace ssdvp {

CoreTurns::CoreTurns(uint32_t cores) : turns_(cores) {}

void CoreTurns::resumes_at(uint32_t core, const sc_core::sc_time& t) {
  turns_.at(core).state = State::Timed;
  turns_[core].at = t;
}

void CoreTurns::sleeps(uint32_t core) { turns_.at(core).state = State::Asleep; }
void CoreTurns::stops(uint32_t core) { turns_.at(core).state = State::Stopped; }
void CoreTurns::runs(uint32_t core) { turns_.at(core).state = State::Running; }

void CoreTurns::irq_notified(uint32_t core, const sc_core::sc_time& t) {
  Turn& c = turns_.at(core);
  if (!c.irq_pending || t < c.irq_at) c.irq_at = t;
  c.irq_pending = true;
}

void CoreTurns::irq_fired(uint32_t core) {
  Turn& c = turns_.at(core);
  c.irq_pending = false;
  if (c.state == State::Asleep) c.state = State::Woken;   // its wait ends in this delta cycle
}

bool CoreTurns::lower_core_due(uint32_t core, const sc_core::sc_time& now) const {
  for (uint32_t j = 0; j < core && j < turns_.size(); j++) {
    const Turn& c = turns_[j];
    switch (c.state) {
      case State::Timed: if (c.at == now) return true; break;
      case State::Woken: return true;
      case State::Asleep: if (c.irq_pending && c.irq_at == now) return true; break;
      case State::Running: case State::Stopped: break;
    }
  }
  return false;
}

}  // namespace ssdvp
