#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "models/host/cpu_scheduler.h"

#include <algorithm>

namespace ssdvp {

using sc_core::sc_time;

CpuScheduler::CpuScheduler(const HostCpuParams& p, uint32_t cpus, std::vector<uint32_t> thread_cpus,
                           std::function<void(unsigned, uint32_t)> move)
    : p_(p), threads_(thread_cpus.size()), cpus_(cpus), move_(std::move(move)) {
  const size_t n = threads_.size();
  for (size_t t = 0; t < n; t++) {
    Thread& th = threads_[t];
    th.cpu = thread_cpus[t];
    th.type = uint32_t(t * p_.types.size() / n);   // types in order, as evenly as they go
    th.offset_ps = ps(p_.cycle) * t / n;
    io_events_.push_back(std::make_unique<sc_core::sc_event>());
    io_phase_events.push_back(io_events_.back().get());
  }
}

double CpuScheduler::now_s() const { return stopped_ ? end_s_ : sc_core::sc_time_stamp().to_seconds(); }

void CpuScheduler::stop() {
  for (uint32_t c = 0; c < cpus_.size(); c++) advance(c);
  end_s_ = now_s();
  stopped_ = true;
}
uint64_t CpuScheduler::ps(const sc_time& t) { return t.value() / sc_time(1, sc_core::SC_PS).value(); }

void CpuScheduler::start() {
  start_ = sc_core::sc_time_stamp();
  for (Cpu& c : cpus_) c.last_s = start_.to_seconds();
  for (unsigned t = 0; t < threads_.size(); t++)
    sc_core::sc_spawn(sc_bind(&CpuScheduler::phase_thread, this, t), sc_core::sc_gen_unique_name("cpu_phase"));
  sc_core::sc_spawn(sc_bind(&CpuScheduler::balancer, this), sc_core::sc_gen_unique_name("cpu_balancer"));
  sc_core::sc_spawn(sc_bind(&CpuScheduler::migrator, this), sc_core::sc_gen_unique_name("mtftl_migration"));
}

void CpuScheduler::advance(uint32_t cpu) {
  Cpu& c = cpus_[cpu];
  const double now = now_s();
  if (c.runnable) {
    c.service += (now - c.last_s) / double(c.runnable);
    c.busy_s += now - c.last_s;
  }
  c.last_s = now;
}

void CpuScheduler::set_phase(unsigned t, bool io) {
  Thread& th = threads_[t];
  if (th.io == io || stopped_) return;
  advance(th.cpu);
  Cpu& c = cpus_[th.cpu];
  if (io) {   // leaves the CPU: the time it received counts as work
    th.work_s += c.service - th.share_at_start;
    c.runnable--;
  } else {
    th.share_at_start = c.service;
    th.runnable_seq = ++runnable_seq_;
    c.runnable++;
  }
  th.io = io;
  if (io) io_events_[t]->notify(sc_core::SC_ZERO_TIME);
}

void CpuScheduler::move(unsigned t, uint32_t cpu) {
  Thread& th = threads_[t];
  if (th.cpu == cpu || stopped_) return;
  if (!th.io) {   // runnable: its work so far stays, it competes on the new CPU from now
    advance(th.cpu);
    th.work_s += cpus_[th.cpu].service - th.share_at_start;
    cpus_[th.cpu].runnable--;
    advance(cpu);
    th.share_at_start = cpus_[cpu].service;
    cpus_[cpu].runnable++;
  }
  th.cpu = cpu;
  move_(t, cpu);
}

// Where thread t is in its cycle at `now` (ps): its cycles start t/threads of a cycle after
// start(), and one is already in progress then.
uint64_t CpuScheduler::into_cycle(unsigned t, uint64_t now) const {
  const uint64_t cycle = ps(p_.cycle);
  const uint64_t begin = ps(start_) % cycle + threads_[t].offset_ps % cycle;
  return (now + 2 * cycle - begin) % cycle;
}

// Thread t's phases: cycles of I/O share then CPU share (whole picoseconds, so that no wait
// rounds to zero).
void CpuScheduler::phase_thread(unsigned t) {
  const HostCpuParams::Type& type = p_.types[threads_[t].type];
  const uint64_t cycle = ps(p_.cycle), io_len = cycle * type.io_percent / 100u;
  for (;;) {
    const uint64_t into = into_cycle(t, ps(sc_core::sc_time_stamp()));
    const bool io = into < io_len;
    set_phase(t, io);
    sc_core::wait(sc_time(double(io ? io_len - into : cycle - into), sc_core::SC_PS));
  }
}

sc_time CpuScheduler::next_io_phase(unsigned t) const {
  if (p_.types[threads_[t].type].io_percent == 0) return sc_time(1e6, sc_core::SC_SEC);   // never
  return sc_time(double(ps(p_.cycle) - into_cycle(t, ps(sc_core::sc_time_stamp()))), sc_core::SC_PS);
}

sc_time CpuScheduler::submit_cost(unsigned t) const {
  return p_.io_cost * double(cpus_[threads_[t].cpu].runnable + 1);
}

void CpuScheduler::wrote(unsigned t, uint64_t sectors) {
  Thread& th = threads_[t];
  th.inserts += sectors;
  th.inserts_total += sectors;
  cpus_[th.cpu].inserts += sectors;
}

// The OS: CPU load only.
void CpuScheduler::balancer() {
  for (;;) {
    sc_core::wait(p_.balance);
    if (stopped_) return;
    uint32_t busiest = 0, idlest = 0;
    for (uint32_t c = 1; c < cpus_.size(); c++) {
      if (cpus_[c].runnable > cpus_[busiest].runnable) busiest = c;
      if (cpus_[c].runnable < cpus_[idlest].runnable) idlest = c;
    }
    if (cpus_[busiest].runnable < cpus_[idlest].runnable + 2) continue;
    unsigned pick = unsigned(threads_.size());
    for (unsigned t = 0; t < threads_.size(); t++)
      if (!threads_[t].io && threads_[t].cpu == busiest &&
          (pick == threads_.size() || threads_[t].runnable_seq > threads_[pick].runnable_seq))
        pick = t;
    if (pick == threads_.size()) continue;
    move(pick, idlest);
    balancer_moves_++;
  }
}

// MT-FTL: each period, the most-inserting thread of the most-inserted CPU goes to the
// least-inserted CPU.  The period's per-CPU insertions are recorded either way.
void CpuScheduler::migrator() {
  for (;;) {
    sc_core::wait(p_.migration_period);
    if (stopped_) return;
    uint32_t cmax = 0, cmin = 0;
    nlohmann::json row = nlohmann::json::array();
    for (uint32_t c = 0; c < cpus_.size(); c++) {
      row.push_back(cpus_[c].inserts);
      if (cpus_[c].inserts > cpus_[cmax].inserts) cmax = c;
      if (cpus_[c].inserts < cpus_[cmin].inserts) cmin = c;
    }
    insert_series_.push_back({{"t_ms", (now_s() - start_.to_seconds()) * 1e3}, {"per_cpu", row}});
    if (p_.migration && cmax != cmin) {
      unsigned pick = unsigned(threads_.size());
      for (unsigned t = 0; t < threads_.size(); t++)
        if (threads_[t].cpu == cmax && threads_[t].inserts > 0 &&
            (pick == threads_.size() || threads_[t].inserts > threads_[pick].inserts))
          pick = t;
      if (pick != threads_.size()) {
        move(pick, cmin);
        threads_[pick].migrations++;
        migrations_++;
      }
    }
    for (Cpu& c : cpus_) c.inserts = 0;
    for (Thread& t : threads_) t.inserts = 0;
  }
}

// CPU time thread t received, its current CPU phase included.
double CpuScheduler::thread_work_s(const Thread& th) const {
  if (th.io) return th.work_s;
  const Cpu& c = cpus_[th.cpu];
  return th.work_s + c.service + (c.runnable ? (now_s() - c.last_s) / double(c.runnable) : 0.0) - th.share_at_start;
}

double CpuScheduler::cpu_work_s() const {
  double w = 0;
  for (const Thread& th : threads_) w += thread_work_s(th);
  return w;
}

nlohmann::json CpuScheduler::results() const {
  nlohmann::json threads = nlohmann::json::array();
  for (const Thread& th : threads_) {
    const auto& ty = p_.types[th.type];
    threads.push_back({{"type", std::to_string(ty.io_percent) + ":" + std::to_string(ty.cpu_percent)},
                       {"cpu_at_end", th.cpu},
                       {"cpu_work_s", thread_work_s(th)},
                       {"inserted_sectors", th.inserts_total},
                       {"migrations", th.migrations}});
  }
  const double elapsed = now_s() - start_.to_seconds();
  nlohmann::json cpus = nlohmann::json::array();
  for (uint32_t c = 0; c < cpus_.size(); c++) {
    const Cpu& cp = cpus_[c];
    const double busy = cp.busy_s + (cp.runnable ? now_s() - cp.last_s : 0.0);
    cpus.push_back({{"busy_share", elapsed > 0 ? busy / elapsed : 0.0}});
  }
  return {{"cycle_ms", p_.cycle.to_seconds() * 1e3},
          {"io_us", p_.io_cost.to_seconds() * 1e6},
          {"balance_ms", p_.balance.to_seconds() * 1e3},
          {"migration", p_.migration ? "greedy" : "none"},
          {"migration_ms", p_.migration_period.to_seconds() * 1e3},
          {"cpu_work_s", cpu_work_s()},
          {"balancer_moves", balancer_moves_},
          {"migrations", migrations_},
          {"cpus", cpus},
          {"threads", threads},
          {"insert_series", insert_series_}};
}

}  // namespace ssdvp
