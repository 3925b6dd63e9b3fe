// The host's I/O stack: see host_io_stack.h.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "models/host/host_io_stack.h"

#include <algorithm>

#include "models/host/host_interface.h"

namespace ssdvp {

std::vector<std::string> HostIoStack::categories() { return {"submit", "interrupt", "poll_spin", "poll_reap"}; }

HostIoStack::HostIoStack(sc_core::sc_module_name name, const HostStackParams& p, HostCpus& cpus, BlockTarget& inner)
    : sc_core::sc_module(name), p_(p), cpus_(cpus), inner_(inner), sq_(1) {
  cat_submit_ = cpus.category("submit");
  cat_interrupt_ = cpus.category("interrupt");
  cat_poll_ = cpus.category("poll_spin");
  cat_reap_ = cpus.category("poll_reap");
  inner_.on_complete = [this](HostCommand* c) { arrived(c); };
  inner_.on_retrying = [this](const HostCommand* c, bool retrying) {   // the target's waits are the caller's
    if (on_retrying) on_retrying(c, retrying);
  };
  ps_.assign(cpus.cpus(), {});
  if (inner_.completes_in_own_threads()) return;
  for (uint32_t c = 0; c < cpus.cpus(); c++) {
    per_cpu_.push_back(std::make_unique<Cpu>());
    sc_core::sc_spawn_options o;
    sc_core::sc_spawn([this, c] { completion_thread(c); }, ("completion_" + std::to_string(c)).c_str(), &o);
  }
}

void HostIoStack::submit(HostCommand* cmd) {
  if (cmd->queue >= sq_.size()) sq_.resize(cmd->queue + 1u);
  sq_[cmd->queue].push_back(cmd);
}

// The submitting thread's system call: each command's way through the block layer and driver
// on its CPU, then the doorbell.
void HostIoStack::ring_doorbell(uint16_t queue, sc_core::sc_time delay, uint32_t cpu) {
  if (delay > sc_core::SC_ZERO_TIME) sc_core::wait(delay);
  if (queue >= sq_.size()) return;
  std::vector<HostCommand*> mine;
  mine.swap(sq_[queue]);
  if (mine.empty()) return;
  const sc_core::sc_time work = p_.submit * double(mine.size());
  cpus_.run(cpu, work, cat_submit_);
  charge(cpu, kSubmit, work);
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  for (HostCommand* c : mine) {
    c->t_submit = now;
    if (p_.polled) submitter_[c] = cpu;
    inner_.submit(c);
  }
  n_.commands += mine.size();
  inner_.ring_doorbell(queue, sc_core::SC_ZERO_TIME, cpu);
}

void HostIoStack::arrived(HostCommand* c) {
  if (inner_.completes_in_own_threads()) {
    n_.passed_through++;
    if (on_complete) on_complete(c);
    return;
  }
  uint32_t cpu = uint32_t(c->queue) % uint32_t(per_cpu_.size());   // its completion queue's interrupt
  if (p_.polled) {
    auto it = submitter_.find(c);
    if (it != submitter_.end()) {   // the thread that submitted it reaps it
      cpu = it->second;
      submitter_.erase(it);
    }
  }
  Cpu& k = *per_cpu_[cpu];
  k.arrived.push_back(c);
  k.wake.notify();
}

// One CPU's completions, in arrival order: its interrupt's handler, or its poller's reaping.
// Neither is preempted by the threads there (hard interrupt context; a poller reaping its own
// completion is that thread).
void HostIoStack::completion_thread(uint32_t cpu) {
  Cpu& k = *per_cpu_[cpu];
  for (;;) {
    while (k.arrived.empty()) sc_core::wait(k.wake);
    HostCommand* c = k.arrived.front();
    k.arrived.pop_front();
    if (p_.polled) {
      cpus_.run_exclusive(cpu, p_.poll, cat_reap_);
      charge(cpu, kReap, p_.poll);
      n_.polled++;
    } else {
      cpus_.run_exclusive(cpu, p_.interrupt, cat_interrupt_);
      charge(cpu, kInterrupt, p_.interrupt);
      n_.interrupts++;
    }
    c->t_complete = sc_core::sc_time_stamp();
    if (on_complete) on_complete(c);
  }
}

void HostIoStack::wait_for_completion(uint32_t cpu, sc_core::sc_event& wake, const std::function<bool()>& done) {
  if (!p_.polled || inner_.completes_in_own_threads()) {
    BlockTarget::wait_for_completion(cpu, wake, done);
    return;
  }
  charge(cpu, kSpin, cpus_.spin(cpu, cat_poll_, wake, done));
}

void HostIoStack::charge(uint32_t cpu, Kind k, sc_core::sc_time t) { ps_[cpu][k] += t.value(); }

void HostIoStack::start_measuring() {
  t_start_ = sc_core::sc_time_stamp();
  at_start_ = n_;
  ps_at_start_ = ps_;
}

// Figures of the measured run: the stack's CPU time per category over every CPU, and the share
// of the run the busiest CPU spent on the stack's work.  Counted in whole picoseconds, so a run
// resumed from a drive snapshot gives the same figures as one that preconditioned.
nlohmann::json HostIoStack::results() const {
  static const char* names[kKinds] = {"submit", "interrupt", "poll_spin", "poll_reap"};
  uint64_t total[kKinds] = {}, busiest = 0;
  for (size_t c = 0; c < ps_.size(); c++) {
    uint64_t cpu = 0;
    for (size_t k = 0; k < kKinds; k++) {
      const uint64_t d = ps_[c][k] - (ps_at_start_.empty() ? 0 : ps_at_start_[c][k]);
      total[k] += d;
      cpu += d;
    }
    busiest = std::max(busiest, cpu);
  }
  nlohmann::json by = nlohmann::json::object();
  for (size_t k = 0; k < kKinds; k++) by[names[k]] = double(total[k]) * 1e-12;
  const uint64_t elapsed = (sc_core::sc_time_stamp() - t_start_).value();
  return {{"completion", inner_.completes_in_own_threads() ? "in the target's threads"
                                                           : (p_.polled ? "poll" : "interrupt")},
          {"submit_ns", p_.submit.to_seconds() * 1e9},
          {"irq_ns", p_.interrupt.to_seconds() * 1e9},
          {"poll_ns", p_.poll.to_seconds() * 1e9},
          {"cpus", cpus_.cpus()},
          {"commands", n_.commands - at_start_.commands},
          {"interrupts", n_.interrupts - at_start_.interrupts},
          {"polled_completions", n_.polled - at_start_.polled},
          {"completions_passed_through", n_.passed_through - at_start_.passed_through},
          {"cpu_time_s", by},
          {"busiest_cpu_stack_share", elapsed ? double(busiest) / double(elapsed) : 0.0}};
}

}  // namespace ssdvp
