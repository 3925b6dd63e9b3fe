// The host's CPUs and spin locks: see host_cpus.h.
#include "models/host/host_cpus.h"

#include "models/common/sim_time.h"

#include <stdexcept>

namespace ssdvp {

HostCpus::HostCpus(uint32_t cpus, uint32_t sockets, std::vector<std::string> categories)
    : cpus_(cpus), sockets_(sockets), categories_(std::move(categories)) {
  if (cpus == 0 || sockets == 0 || cpus % sockets)
    throw std::invalid_argument("host CPUs: " + std::to_string(cpus) + " CPUs do not divide into " +
                                std::to_string(sockets) + " sockets");
  per_socket_ = cpus / sockets;
  for (Cpu& c : cpus_) c.busy.assign(categories_.size(), 0.0);
}

uint32_t HostCpus::category(const std::string& name) const {
  for (uint32_t i = 0; i < categories_.size(); i++)
    if (categories_[i] == name) return i;
  throw std::invalid_argument("host CPUs: no category '" + name + "'");
}

// Service up to now: each of the running jobs received (now - last) / running.
void HostCpus::advance(Cpu& c) {
  const double now = seconds_of(sc_core::sc_time_stamp());
  if (c.running && now > c.last_s && !c.frozen) {
    const double each = (now - c.last_s) / double(c.running);
    c.service += each;
    for (const Job& j : c.jobs)
      if (j.active) c.busy[j.category] += each;
  }
  c.last_s = now;
}

uint32_t HostCpus::join(uint32_t cpu, double work_s, uint32_t category) {
  Cpu& c = cpus_.at(cpu);
  advance(c);
  uint32_t j = 0;
  while (j < c.jobs.size() && c.jobs[j].active) j++;
  if (j == c.jobs.size()) c.jobs.emplace_back();
  Job& job = c.jobs[j];
  job.active = true;
  job.category = category;
  job.start = c.service;
  job.target = work_s < 0 ? -1.0 : c.service + work_s;
  c.running++;
  c.changed.notify();   // the others' shares shrink: they look again
  return j;
}

sc_core::sc_time HostCpus::leave(uint32_t cpu, uint32_t job) {
  Cpu& c = cpus_[cpu];
  advance(c);
  Job& j = c.jobs[job];
  const double served = c.service - j.start;
  j.active = false;
  c.running--;
  c.changed.notify();
  if (c.running == 0 && !c.frozen && on_idle) on_idle(cpu);
  return sc_core::sc_time(served, sc_core::SC_SEC);
}

void HostCpus::run(uint32_t cpu, sc_core::sc_time work, uint32_t category) {
  if (work == sc_core::SC_ZERO_TIME) return;
  const uint32_t j = join(cpu, seconds_of(work), category);
  for (;;) {
    Cpu& c = cpus_[cpu];
    advance(c);
    if (c.frozen) {   // an exclusive run has the CPU
      sc_core::wait(c.changed);
      continue;
    }
    const double left = (c.jobs[j].target - c.service) * double(c.running);   // at today's share
    if (left < 1e-12) break;                                                    // below a picosecond
    sc_core::wait(sc_core::sc_time(left, sc_core::SC_SEC), c.changed);
  }
  leave(cpu, j);
}

void HostCpus::run_exclusive(uint32_t cpu, sc_core::sc_time work, uint32_t category) {
  if (work == sc_core::SC_ZERO_TIME) return;
  Cpu& c = cpus_.at(cpu);
  while (c.frozen) sc_core::wait(c.changed);
  advance(c);
  c.frozen = true;
  c.changed.notify();
  sc_core::wait(work);
  Cpu& after = cpus_[cpu];
  after.busy[category] += seconds_of(work);
  after.last_s = seconds_of(sc_core::sc_time_stamp());   // the others received nothing meanwhile
  after.frozen = false;
  after.changed.notify();
  if (after.running == 0 && on_idle) on_idle(cpu);
}

// Service a running, unfrozen CPU's jobs have received since it was last advanced.
static double pending_share(double last_s, uint32_t running, bool frozen) {
  const double now = seconds_of(sc_core::sc_time_stamp());
  return running && !frozen && now > last_s ? (now - last_s) / double(running) : 0.0;
}

double HostCpus::received_s(uint32_t cpu, uint32_t job) const {
  const Cpu& c = cpus_.at(cpu);
  const Job& j = c.jobs.at(job);
  return j.active ? c.service + pending_share(c.last_s, c.running, c.frozen) - j.start : 0.0;
}

double HostCpus::cpu_busy_s(uint32_t cpu) const {
  const Cpu& c = cpus_.at(cpu);
  double s = 0;
  for (double b : c.busy) s += b;
  return s + pending_share(c.last_s, c.running, c.frozen) * double(c.running);
}

double HostCpus::busy_s(uint32_t cpu, uint32_t category) const { return cpus_.at(cpu).busy.at(category); }

double HostCpus::busy_s(uint32_t category) const {
  double s = 0;
  for (const Cpu& c : cpus_) s += c.busy.at(category);
  return s;
}

void HostCpus::start_measuring() {
  busy_at_start_.clear();
  for (Cpu& c : cpus_) {
    advance(c);
    busy_at_start_.push_back(c.busy);
  }
  measure_start_s_ = seconds_of(sc_core::sc_time_stamp());
}

nlohmann::json HostCpus::results() const {
  nlohmann::json by = nlohmann::json::object();
  double total = 0, busiest = 0;
  const auto since_start = [this](uint32_t cpu, uint32_t k) {
    return cpus_[cpu].busy[k] - (busy_at_start_.empty() ? 0.0 : busy_at_start_[cpu][k]);
  };
  for (uint32_t k = 0; k < categories_.size(); k++) {
    double s = 0;
    for (uint32_t c = 0; c < cpus_.size(); c++) s += since_start(c, k);
    by[categories_[k]] = s;
    total += s;
  }
  for (uint32_t c = 0; c < cpus_.size(); c++) {
    double s = 0;
    for (uint32_t k = 0; k < categories_.size(); k++) s += since_start(c, k);
    busiest = std::max(busiest, s);
  }
  const double elapsed = seconds_of(sc_core::sc_time_stamp()) - measure_start_s_;
  return {{"cpus", cpus()},
          {"sockets", sockets_},
          {"cpu_time_s", total},
          {"cpu_time_s_by_category", by},
          {"busiest_cpu_utilisation", elapsed > 0 ? busiest / elapsed : 0.0}};
}

HostSpinLock::HostSpinLock(HostCpus& cpus, sc_core::sc_time handoff, uint32_t spin_category)
    : cpus_(cpus), handoff_(handoff), spin_category_(spin_category) {}

sc_core::sc_time HostSpinLock::acquire(uint32_t cpu) {
  const uint64_t ticket = next_ticket_++;
  acquisitions_++;
  if (held_ || serving_ != ticket) contended_++;
  sc_core::sc_time spent =
      cpus_.spin(cpu, spin_category_, released_, [this, ticket] { return !held_ && serving_ == ticket; });
  held_ = true;
  const uint32_t socket = cpus_.socket_of(cpu);
  if (ever_held_ && socket != last_socket_ && handoff_ > sc_core::SC_ZERO_TIME) {
    handoffs_++;
    cpus_.run(cpu, handoff_, spin_category_);
    spent += handoff_;
  }
  ever_held_ = true;
  last_socket_ = socket;
  spin_s_ += seconds_of(spent);
  return spent;
}

void HostSpinLock::release() {
  held_ = false;
  serving_++;
  released_.notify();   // the next ticket's spinner goes on
}

}  // namespace ssdvp
