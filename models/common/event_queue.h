// The platform's queue of timed actions: each action runs in one SC_METHOD at its simulated
// time, in time order (FIFO among equal times).  Blocks use it to make their visible
// effects (ring entries, interrupts, state changes) happen at the exact time a
// loosely-timed computation says, without a thread hand-off per step.  One queue serves all
// blocks, so the SystemC kernel only ever holds its earliest item: a new action costs a
// kernel notification only when it becomes the earliest of all.
#pragma once

#include <systemc>

#include <cstdint>
#include <functional>
#include <algorithm>
#include <vector>

#include "models/common/sim_time.h"

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

  // Runs `action` at absolute simulated time `at` (now if at is in the past).  Actions due at
  // the same time run by `rank`, then in the order they were scheduled; a rank makes the order
  // independent of when the action was scheduled (flash completions: the RTL and TLM channels
  // report them at different moments).
  void at(sc_core::sc_time at, Action action, uint64_t rank = 0) {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    if (at < now) at = now;
    uint32_t slot;
    if (free_.empty()) {
      slot = uint32_t(actions_.size());
      actions_.push_back(std::move(action));
    } else {
      slot = free_.back();
      free_.pop_back();
      actions_[slot] = std::move(action);
    }
    const Item item{at.value(), rank, seq_++, slot};
    heap_.push_back(item);
    std::push_heap(heap_.begin(), heap_.end(), Later{});
    if (heap_.front().seq == item.seq) wake_.notify(at - now);  // new earliest item
  }
  bool empty() const { return heap_.empty(); }

 private:
  // Heap entries are small and trivially copyable; the actions stay put in their slots.
  struct Item {
    uint64_t at_ps;
    uint64_t rank;
    uint64_t seq;
    uint32_t slot;
  };
  struct Later {
    bool operator()(const Item& a, const Item& b) const {
      if (a.at_ps != b.at_ps) return a.at_ps > b.at_ps;
      return a.rank != b.rank ? a.rank > b.rank : a.seq > b.seq;
    }
  };

  void run() {
    const uint64_t now = sc_core::sc_time_stamp().value();
    while (!heap_.empty() && heap_.front().at_ps <= now) {
      const uint32_t slot = heap_.front().slot;
      std::pop_heap(heap_.begin(), heap_.end(), Later{});
      heap_.pop_back();
      Action a = std::move(actions_[slot]);
      free_.push_back(slot);
      a();
    }
    if (!heap_.empty()) wake_.notify(time_ps(heap_.front().at_ps - now));
  }

  std::vector<Item> heap_;
  std::vector<Action> actions_;
  std::vector<uint32_t> free_;
  uint64_t seq_ = 0;
  sc_core::sc_event wake_;
};

}  // namespace ssdvp
