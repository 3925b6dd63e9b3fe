// Host CPU scheduler: host threads that alternate an I/O phase and a CPU phase, CPUs shared
// by the threads runnable on them, the OS's periodic load balancing of CPU load, and MT-FTL's
// greedy migration of I/O threads between CPUs (issue 14; docs/multicore.md).
//
// Models: each host thread (workload stream) has a type, an I/O:CPU split of a cycle
// (host.cpu.types, e.g. 90:10 ... 0:100; host.cpu.cycle_ms long): for the I/O share of its
// cycle it submits its workload's requests (the driver's closed loop), for the rest it wants
// the CPU. Cycles are staggered: thread t starts t/threads of a cycle late. A thread's CPU
// phase is open-ended work on its CPU of the host CPU model (models/host/host_cpus.h): the CPU
// is shared by processor sharing (each of n pieces of work gets 1/n of it) with the other
// threads' phases and with the host's I/O work there (the host I/O stack's submissions and
// interrupts, a host FTL's sections, which are not preempted), so a thread's CPU work is the
// CPU time it received.  With host.stack = "none" a request costs its thread host.cpu.io_us
// of CPU time instead, as a delay: that long times the pieces of work sharing its CPU.
// The OS balancer looks at CPU load only, the threads runnable (in their CPU phase, or in
// their I/O phase retrying an insert into a full host-FTL ring: pblk's writers retry and yield,
// host.ftl.full_ring = yield), and runs in rounds,
// as Linux's does: a periodic round every host.cpu.balance_ms (over every CPU, moving one
// thread to the idlest CPU when the busiest runs at least two more), a newly-idle round each
// time a CPU runs out of work (Linux's idle_balance: the CPU pulls a thread from the busiest
// CPU if that one runs two or more), and a wake-up round each time a request's completion
// wakes its thread (Linux's select_task_rq_fair; here the thread stays on its CPU).  The
// thread moved is the one that most recently became runnable and is in its CPU phase; a thread
// in its I/O phase sleeps on its I/O or is inside an insert (its command waits in its CPU's
// ring) and is never moved.
// MT-FTL migration (host.migration = greedy) runs once every host.migration_rounds balancer
// rounds (the paper: 30,000), on the CPU whose round it is: the write-buffer insertions
// (sectors written) since the last one are summed per thread and per CPU, and the thread with
// the most insertions on the CPU with the most (Cmax) moves to the CPU with the fewest (Cmin).
// The selection is CPU time on that CPU, not preempted (it holds the run queues' locks):
// host.migration_select_instructions per thread and per CPU it examines, at the host CPU's
// clock and IPC.  A moved thread's later commands go to its new CPU's queue, and so to the
// buffer (firmware core, or host FTL ring) of that CPU.
// Leaves out: CFS's vruntime, a retrying writer's CPU phase starting before its insert is done
// (both run, each with its share of the CPU), wake-up placement (a waking thread stays on its CPU) and the
// balancer's own CPU time, the counting of insertions (a few instructions per write), a moved
// thread's cold cache, hyper-threads, priorities.
#pragma once

#include <systemc>

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/host/host_cpus.h"

namespace ssdvp {

struct HostCpuParams {
  struct Type {
    uint32_t io_percent = 100, cpu_percent = 0;
  };
  std::vector<Type> types;            // empty: no CPU model (threads only do I/O)
  sc_core::sc_time cycle;             // host.cpu.cycle_ms
  sc_core::sc_time io_cost;           // host.cpu.io_us: CPU time per request (0 with a modelled host I/O stack)
  sc_core::sc_time balance;           // host.cpu.balance_ms
  bool migration = false;             // host.migration = greedy
  uint64_t migration_rounds = 30000;  // host.migration_rounds: balancer rounds between migrations
  sc_core::sc_time select_cost;       // the selection's CPU time per thread or CPU examined
};

class CpuScheduler {
 public:
  // `move` tells the driver a thread now runs on another CPU.  The phases run on `cpus`.
  CpuScheduler(const HostCpuParams& p, HostCpus& cpus, std::vector<uint32_t> thread_cpus,
               std::function<void(unsigned thread, uint32_t cpu)> move);
  // The CPU category of the threads' CPU phases (HostCpus).
  static std::vector<std::string> categories() { return {"user", "migration"}; }

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
  // A request of the thread completed, waking it: the OS's wake-up placement runs (a round).
  void woken(unsigned t);
  // The thread, in an insert into a full host-FTL ring, retries and yields (host.ftl.full_ring
  // = yield): runnable on its CPU, so the balancer counts it as load, until `on` is false.
  void retrying(unsigned t, bool on);
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
    double work_s = 0;                // CPU time received in CPU phases that ended
    uint32_t job = 0;                 // in a CPU phase: its work on the host CPUs
    uint64_t inserts = 0;             // this migration period
    uint64_t inserts_total = 0;
    uint32_t migrations = 0;
    uint64_t runnable_seq = 0;        // when it last became runnable (balancer's pick)
    bool retrying = false;            // retrying an insert into a full ring (retrying())
  };
  struct Cpu {
    uint32_t runnable = 0;            // threads counted() on it
    uint64_t inserts = 0;             // this migration period
    double busy_at_start = 0, busy_at_stop = 0;   // the host CPU's busy time (every category), s
  };
  // Runnable, for the balancer: in its CPU phase, or retrying an insert.
  static bool counted(const Thread& th) { return !th.io || th.retrying; }
  double thread_work_s(const Thread& th) const;
  uint64_t into_cycle(unsigned t, uint64_t now_ps) const;
  void leave_cpu(Thread& th);         // its CPU phase's work there ends (counted)
  void enter_cpu(Thread& th);         // ... starts
  void set_phase(unsigned t, bool io);
  void move(unsigned t, uint32_t cpu);
  void phase_thread(unsigned t);
  void balancer();                    // the periodic rounds
  void newly_idle(uint32_t cpu);      // HostCpus: `cpu` ran out of work (a round)
  bool pull(uint32_t from, uint32_t to);   // one CPU-phase thread, the most recently runnable
  void round(uint32_t cpu);           // a balancer round ran on `cpu`: migration due?
  void migrator();
  double now_s() const;               // simulated time, frozen at stop()
  static uint64_t ps(const sc_core::sc_time& t);

  HostCpuParams p_;
  HostCpus& host_cpus_;
  uint32_t user_category_, migrate_category_;
  std::vector<Thread> threads_;
  std::vector<Cpu> cpus_;
  std::function<void(unsigned, uint32_t)> move_;
  std::vector<std::unique_ptr<sc_core::sc_event>> io_events_;
  uint64_t runnable_seq_ = 0, balancer_moves_ = 0, migrations_ = 0;
  uint64_t rounds_ = 0, idle_rounds_ = 0, wake_rounds_ = 0, rounds_since_migration_ = 0, migration_rounds_run_ = 0;
  double select_s_ = 0;               // CPU time of the migrations' selections
  std::deque<uint32_t> due_;          // migrations due, by the CPU whose round made them due
  sc_core::sc_event migration_due_;
  double end_s_ = 0;
  bool stopped_ = false;
  sc_core::sc_time start_;
  nlohmann::json insert_series_ = nlohmann::json::array();   // per migration period
};

}  // namespace ssdvp
