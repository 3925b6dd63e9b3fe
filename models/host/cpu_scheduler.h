// Host CPU scheduler: host threads that alternate an I/O phase and a CPU phase, CPUs shared
// by the threads runnable on them, the OS's periodic load balancing of CPU load, and MT-FTL's
// greedy migration of I/O threads between CPUs (issue 14; docs/multicore.md).
//
// Models: each host thread (workload stream) has a type, an I/O:CPU split of a cycle
// (host.cpu.types, e.g. 90:10 ... 0:100; host.cpu.cycle_ms long): for the I/O share of its
// cycle it submits its workload's requests (the driver's closed loop), for the rest it wants
// the CPU. Cycles are staggered: thread t starts t/threads of a cycle late. A CPU runs the
// threads in their CPU phase on it by processor sharing (each of n gets 1/n of the CPU), so a
// thread's CPU work is the CPU time it received; a request costs its thread host.cpu.io_us of
// CPU time, shared the same way (its submission waits that long times the threads sharing the
// CPU). The OS balancer (every host.cpu.balance_ms, after Linux's periodic load balancing)
// looks at CPU load only, the threads in their CPU phase: when the busiest CPU runs at least
// two more than the idlest, it moves one of them (the one that most recently became
// runnable) to the idlest; a thread in its I/O phase sleeps on its I/O and is never moved by
// it. MT-FTL migration (host.migration = greedy, every host.migration_ms): the write-buffer
// insertions (sectors written) of the period are summed per thread and per CPU; the thread
// with the most insertions on the CPU with the most (Cmax) moves to the CPU with the fewest
// (Cmin). A moved thread's later commands go to its new CPU's queue, and so to the buffer of
// the firmware core serving that queue.
// Leaves out: CFS's vruntime and wake-up placement (a waking thread stays on its CPU), the
// CPU cost of a migration itself, hyper-threads, interrupts' CPU time, priorities.
#pragma once

#include <systemc>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ssdvp {

struct HostCpuParams {
  struct Type {
    uint32_t io_percent = 100, cpu_percent = 0;
  };
  std::vector<Type> types;            // empty: no CPU model (threads only do I/O)
  sc_core::sc_time cycle;             // host.cpu.cycle_ms
  sc_core::sc_time io_cost;           // host.cpu.io_us: CPU time per request
  sc_core::sc_time balance;           // host.cpu.balance_ms
  bool migration = false;             // host.migration = greedy
  sc_core::sc_time migration_period;  // host.migration_ms
};

class CpuScheduler {
 public:
  // `move` tells the driver a thread now runs on another CPU.
  CpuScheduler(const HostCpuParams& p, uint32_t cpus, std::vector<uint32_t> thread_cpus,
               std::function<void(unsigned thread, uint32_t cpu)> move);

  // Starts the phases, the balancer and the migration (from the measured run's start).
  void start();
  // The measured run ended: the figures stop here (phases, balancing, migration too).
  void stop();
  // The thread is in its I/O phase now; else when its next one begins.
  bool in_io_phase(unsigned t) const { return threads_[t].io; }
  bool never_does_io(unsigned t) const { return p_.types[threads_[t].type].io_percent == 0; }
  sc_core::sc_time next_io_phase(unsigned t) const;
  // CPU time the thread's next request costs it before it is submitted.
  sc_core::sc_time submit_cost(unsigned t) const;
  // The thread wrote `sectors` into the write buffer (its insertions).
  void wrote(unsigned t, uint64_t sectors);
  // Woken at the start of each I/O phase of thread t.
  std::vector<sc_core::sc_event*> io_phase_events;
  // Figures for run.json (measured from start()).
  nlohmann::json results() const;
  double cpu_work_s() const;

 private:
  struct Thread {
    uint32_t type = 0, cpu = 0;
    bool io = true;                   // in its I/O phase
    uint64_t offset_ps = 0;           // its cycles' start after start(), ps
    double work_s = 0;                // CPU time received in CPU phases
    double share_at_start = 0;        // its CPU's service counter when it became runnable
    uint64_t inserts = 0;             // this migration period
    uint64_t inserts_total = 0;
    uint32_t migrations = 0;
    uint64_t runnable_seq = 0;        // when it last became runnable (balancer's pick)
  };
  struct Cpu {
    uint32_t runnable = 0;            // threads in their CPU phase on it
    double service = 0;               // CPU time each runnable thread received so far
    double last_s = 0;
    uint64_t inserts = 0;             // this migration period
    double busy_s = 0;
  };
  double thread_work_s(const Thread& th) const;
  uint64_t into_cycle(unsigned t, uint64_t now_ps) const;
  void advance(uint32_t cpu);         // service and busy time up to now
  void set_phase(unsigned t, bool io);
  void move(unsigned t, uint32_t cpu);
  void phase_thread(unsigned t);
  void balancer();
  void migrator();
  double now_s() const;               // simulated time, frozen at stop()
  static uint64_t ps(const sc_core::sc_time& t);

  HostCpuParams p_;
  std::vector<Thread> threads_;
  std::vector<Cpu> cpus_;
  std::function<void(unsigned, uint32_t)> move_;
  std::vector<std::unique_ptr<sc_core::sc_event>> io_events_;
  uint64_t runnable_seq_ = 0, balancer_moves_ = 0, migrations_ = 0;
  double end_s_ = 0;
  bool stopped_ = false;
  sc_core::sc_time start_;
  nlohmann::json insert_series_ = nlohmann::json::array();   // per migration period
};

}  // namespace ssdvp
