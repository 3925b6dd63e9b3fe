// The host's CPUs as the host FTL's threads and the users' use them: where a thread's work
// runs, how CPUs are shared, what spinning on a lock costs, and sockets.
//
// Models: CPUs 0 .. cpus-1 in `sockets` sockets of equal size (CPU c in socket c / (cpus /
// sockets)).  A thread runs a piece of work (CPU time) on one CPU; the threads running on a CPU
// share it by processor sharing (each of n gets 1/n of it), as a fair scheduler shares a busy
// CPU, so a piece of work takes its length times the sharers while it runs.  A thread spinning
// on a spin lock runs on its CPU the whole time it waits: it takes its share of the CPU like any
// other thread, and the CPU time it received is the spin's cost.  A spin lock's holder is not
// preempted: while it runs its section its CPU runs nothing else (so a waiter on the holder's
// own CPU does not spin: it cannot run).  A spin lock (HostSpinLock) is
// granted in FIFO order (Linux's queued spin locks); handing it to a CPU of another socket than
// its last holder's costs the new holder `handoff` of extra CPU time (the lock's and the data's
// cache lines crossing sockets).  Every piece of work carries a category (user, insert, lock
// spin, write-back, GC, ...): CPU time is summed per CPU and per category.
// Leaves out: preemption points and priorities (work is shared as it runs), the OS balancer
// (models/host/cpu_scheduler.h moves threads and their open-ended work between CPUs),
// hyper-threads, caches beyond the socket hand-off, interrupts' own cost (the
// host I/O stack's costs are pieces of work like any other).
#pragma once

#include <systemc>

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ssdvp {

class HostCpus {
 public:
  HostCpus(uint32_t cpus, uint32_t sockets, std::vector<std::string> categories);

  uint32_t cpus() const { return uint32_t(cpus_.size()); }
  uint32_t sockets() const { return sockets_; }
  uint32_t socket_of(uint32_t cpu) const { return cpu / per_socket_; }
  uint32_t category(const std::string& name) const;   // its index (throws if unknown)

  // The calling SystemC thread runs `work` of CPU time on `cpu`, sharing it; returns once it
  // received all of it.
  void run(uint32_t cpu, sc_core::sc_time work, uint32_t category);
  // ... without being preempted (a spin lock's holder: Linux disables preemption while it holds
  // one): the CPU runs only it for `work`; the others on that CPU, spinners included, wait.
  void run_exclusive(uint32_t cpu, sc_core::sc_time work, uint32_t category);
  // The calling thread spins on `cpu` until `granted` says so (checked whenever `wake` is
  // notified); returns the CPU time it received meanwhile (charged to `category`).
  template <typename Granted>
  sc_core::sc_time spin(uint32_t cpu, uint32_t category, sc_core::sc_event& wake, Granted granted) {
    if (granted()) return sc_core::SC_ZERO_TIME;
    const uint32_t j = join(cpu, -1.0, category);
    while (!granted()) sc_core::wait(wake);
    return leave(cpu, j);
  }

  // An open-ended piece of work on `cpu` (a user thread's computation, models/host/cpu_scheduler.h):
  // it shares the CPU from now until end(); received_s says how much CPU time it has had so far
  // and end() returns all of it.  No SystemC thread waits on it.
  uint32_t begin(uint32_t cpu, uint32_t category) { return join(cpu, -1.0, category); }
  sc_core::sc_time end(uint32_t cpu, uint32_t job) { return leave(cpu, job); }
  double received_s(uint32_t cpu, uint32_t job) const;
  // Pieces of work sharing `cpu` now.
  uint32_t running(uint32_t cpu) const { return cpus_.at(cpu).running; }
  // Called when a CPU runs out of work (its last piece ended; the OS's newly-idle balancing,
  // models/host/cpu_scheduler.h).  It must not wait; it may begin work on any CPU.
  std::function<void(uint32_t cpu)> on_idle;

  // CPU time per CPU and category so far (seconds), and the busiest CPU's share of the
  // elapsed time, for run.json.
  double cpu_busy_s(uint32_t cpu) const;           // every category, up to now
  double busy_s(uint32_t cpu, uint32_t category) const;
  double busy_s(uint32_t category) const;          // over every CPU
  // The measured run starts: results() count from here (a timed preconditioning left out);
  // the accessors above stay totals.
  void start_measuring();
  nlohmann::json results() const;

 private:
  struct Job {
    double target = 0;        // the CPU's service counter at which it is done (< 0: spinning)
    double start = 0;         // the service counter when it joined
    uint32_t category = 0;
    bool active = false;
  };
  struct Cpu {
    std::vector<Job> jobs;    // slots, reused
    uint32_t running = 0;     // active jobs
    bool frozen = false;      // an exclusive run has the CPU: the others' service stands still
    double service = 0;       // service each active job received since the start, s
    double last_s = 0;        // simulated time service was last advanced to
    std::vector<double> busy;   // per category, s
    sc_core::sc_event changed;
  };
  void advance(Cpu& c);
  uint32_t join(uint32_t cpu, double work_s, uint32_t category);
  sc_core::sc_time leave(uint32_t cpu, uint32_t job);

  std::vector<Cpu> cpus_;
  std::vector<std::vector<double>> busy_at_start_;   // per CPU, per category, at start_measuring
  double measure_start_s_ = 0;
  uint32_t sockets_ = 1, per_socket_ = 1;
  std::vector<std::string> categories_;
};

// A spin lock on the host CPUs (pblk's ring lock): FIFO, a spinning waiter burns its CPU, a
// hand-off across sockets costs the new holder extra CPU time.
class HostSpinLock {
 public:
  HostSpinLock(HostCpus& cpus, sc_core::sc_time handoff, uint32_t spin_category);
  // Returns once the calling thread holds the lock, with the CPU time it spent getting it
  // (spinning, and the hand-off it paid: already run).
  sc_core::sc_time acquire(uint32_t cpu);
  void release();
  bool held() const { return held_; }

  uint64_t acquisitions() const { return acquisitions_; }
  uint64_t contended() const { return contended_; }
  uint64_t socket_handoffs() const { return handoffs_; }
  double spin_s() const { return spin_s_; }

 private:
  HostCpus& cpus_;
  sc_core::sc_time handoff_;
  uint32_t spin_category_;
  bool held_ = false;
  uint32_t last_socket_ = 0;
  bool ever_held_ = false;
  uint64_t next_ticket_ = 0, serving_ = 0;
  sc_core::sc_event released_;
  uint64_t acquisitions_ = 0, contended_ = 0, handoffs_ = 0;
  double spin_s_ = 0;
};

}  // namespace ssdvp
