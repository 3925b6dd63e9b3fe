// A module-owned queue of timed actions: each action runs in an SC_METHOD at its simulated
// time, in time order (FIFO among equal times).  Blocks use it to make their visible
// effects (ring entries, interrupts, state changes) happen at the exact time a
// loosely-timed computation says, without a thread hand-off per step.
#pragma once

#include <systemc>

#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

namespace ssdvp {

class EventQueue : public sc_core::sc_module {
 public:
  using Action = std::function<void()>;

  explicit EventQueue(sc_core::sc_module_name name) : sc_core::sc_module(name) {
    SC_HAS_PROCESS(EventQueue);
    SC_METHOD(run);
    sensitive << wake_;
    dont_initialize();
  }

  // Runs `action` at absolute simulated time `at` (now if at is in the past).
  void at(sc_core::sc_time at, Action action) {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    if (at < now) at = now;
    items_.push(Item{at, seq_++, std::move(action)});
    if (items_.top().seq == seq_ - 1) wake_.notify(at - now);  // new earliest item
  }
  void after(const sc_core::sc_time& delay, Action action) {
    at(sc_core::sc_time_stamp() + delay, std::move(action));
  }
  bool empty() const { return items_.empty(); }

 private:
  struct Item {
    sc_core::sc_time at;
    uint64_t seq;
    Action action;
    bool operator>(const Item& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };

  void run() {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    while (!items_.empty() && items_.top().at <= now) {
      Action a = std::move(const_cast<Item&>(items_.top()).action);
      items_.pop();
      a();
    }
    if (!items_.empty()) wake_.notify(items_.top().at - now);
  }

  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> items_;
  uint64_t seq_ = 0;
  sc_core::sc_event wake_;
};

}  // namespace ssdvp
