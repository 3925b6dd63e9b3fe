// The host's I/O stack between the user threads and what they submit to (a drive's NVMe
// queues, or the host FTL): what the kernel's system call, block layer and NVMe driver cost the
// host CPUs per command, and how a thread learns that its command completed (docs/host-stack.md).
//
// With host.stack = interrupt | poll (none: no stack, host.submit_ns and host.irq_ns are fixed
// delays).  Models: every command costs its submitting thread host.stack.submit_ns of CPU time on the CPU it
// runs on (system call, block layer, driver: before the doorbell write), shared with whatever
// else runs there (models/host/host_cpus.h).  A device's completion (a CQE that arrived) is
// handled, with host.stack = interrupt, by the interrupt of its completion queue on the
// queue's CPU (queue q: CPU q, the first CPU blk-mq maps to it): host.stack.irq_ns of CPU time per
// completion (the handler, the request's completion and the wake-up of the sleeping thread),
// not preempted by the threads there; the thread sleeps meanwhile.  With host.stack =
// poll the waiting thread spins on its own CPU until its completion arrives (the CPU time of
// the spin is counted; it shares its CPU like any thread) and reaps it there: host.stack.poll_ns of
// CPU time, not preempted.  A target that completes commands in its own threads (the host FTL:
// a write ends in its submitter's context, a device read in the FTL's interrupt, which charges
// host.stack.irq_ns itself) hands its completions straight through.
// Leaves out: interrupt coalescing (one interrupt's entry per completion), the IPI that
// completes a request on its submitting CPU when that is another, hybrid polling, cache
// effects of an interrupt on the interrupted thread.  (The application's own CPU work,
// host.cpu.types' phases in models/host/cpu_scheduler.h, shares the same CPUs.)
#pragma once

#include <systemc>

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/host/block_target.h"
#include "models/host/host_cpus.h"

namespace ssdvp {

struct HostStackParams {
  sc_core::sc_time submit;      // host.stack.submit_ns: CPU time per command on the submitting CPU
  sc_core::sc_time interrupt;   // host.stack.irq_ns: CPU time per interrupt-driven completion
  sc_core::sc_time poll;        // host.stack.poll_ns: CPU time to reap one polled completion
  bool polled = false;          // host.stack = poll
};

class HostIoStack : public sc_core::sc_module, public BlockTarget {
 public:
  // The CPU categories of the stack's work (HostCpus).
  static std::vector<std::string> categories();

  HostIoStack(sc_core::sc_module_name name, const HostStackParams& p, HostCpus& cpus, BlockTarget& inner);

  // BlockTarget: the user threads' side.
  void submit(HostCommand* cmd) override;
  void ring_doorbell(uint16_t queue, sc_core::sc_time delay, uint32_t cpu) override;
  void wait_for_completion(uint32_t cpu, sc_core::sc_event& wake, const std::function<bool()>& done) override;
  const sc_core::sc_event& ready_event() const override { return inner_.ready_event(); }
  bool ready() const override { return inner_.ready(); }
  uint64_t namespace_sectors() const override { return inner_.namespace_sectors(); }
  bool submits_in_caller() const override { return true; }

  // The measured run starts: results() count from here (preconditioning's commands left out).
  void start_measuring();
  nlohmann::json results() const;

 private:
  enum Kind { kSubmit, kInterrupt, kSpin, kReap, kKinds };
  void completion_thread(uint32_t cpu);
  void arrived(HostCommand* c);
  void charge(uint32_t cpu, Kind k, sc_core::sc_time t);

  HostStackParams p_;
  HostCpus& cpus_;
  BlockTarget& inner_;
  std::vector<std::vector<HostCommand*>> sq_;                 // per queue, until the doorbell
  std::unordered_map<const HostCommand*, uint32_t> submitter_;   // polled: the CPU that reaps it
  struct Cpu {
    std::deque<HostCommand*> arrived;
    sc_core::sc_event wake;
  };
  std::vector<std::unique_ptr<Cpu>> per_cpu_;
  uint32_t cat_submit_ = 0, cat_interrupt_ = 0, cat_poll_ = 0, cat_reap_ = 0;
  struct Counts {
    uint64_t commands = 0, interrupts = 0, polled = 0, passed_through = 0;
  };
  Counts n_, at_start_;
  sc_core::sc_time t_start_;
  std::vector<std::array<uint64_t, kKinds>> ps_, ps_at_start_;   // the stack's CPU time per CPU and kind, ps
};

}  // namespace ssdvp
