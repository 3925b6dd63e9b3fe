// The SystemC kernel's own speed on this machine, for `ssdvp bench`: the ceiling of any
// platform built on it.  Three loops with no model work in them, each in its own process
// (SystemC elaborates once), each timed over a fixed number of kernel evaluation rounds:
//   method:  one SC_METHOD that re-notifies its event 1 ns later (a timestep, a delta cycle
//            and a method activation per round);
//   method, 32 pending: 32 such methods on staggered times, so the kernel's timed-event queue
//            holds 32 entries as it does with 32 requests in flight;
//   thread:  one SC_THREAD in `wait(1 ns)` (a coroutine switch out and back per round, the
//            way a firmware core or the host thread sleeps and wakes).
// Leaves out: delta notifications and signals (the platform uses neither on its hot paths),
// sc_spawn, and the cost of anything a process does when it runs.
#pragma once

#include <cstdint>

namespace ssdvp {

struct KernelRates {
  double method_per_s = 0;      // delta cycles per second, one method
  double method32_per_s = 0;    // delta cycles per second, 32 pending timed events
  double thread_per_s = 0;      // thread wake-ups per second
};

// Runs the three loops (`rounds` delta cycles each) in child processes.  Throws if a child fails.
KernelRates measure_kernel_rates(uint64_t rounds);

}  // namespace ssdvp
