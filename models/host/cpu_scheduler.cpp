#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "models/host/cpu_scheduler.h"

#include <algorithm>

namespace ssdvp {

using sc_core::sc_time;

CpuScheduler::CpuScheduler(const HostCpuParams& p, HostCpus& cpus, std::vector<uint32_t> thread_cpus,
                           std::function<void(unsigned, uint32_t)> move)
    : p_(p),
      host_cpus_(cpus),
      user_category_(cpus.category(categories().front())),
      migrate_category_(cpus.category(categories().back())),
      threads_(thread_cpus.size()),
      cpus_(cpus.cpus()),
      move_(std::move(move)) {
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
  host_cpus_.on_idle = nullptr;
  for (Thread& th : threads_) {
    if (counted(th)) cpus_[th.cpu].runnable--;
    if (!th.io) leave_cpu(th);
  }
  for (uint32_t c = 0; c < cpus_.size(); c++) cpus_[c].busy_at_stop = host_cpus_.cpu_busy_s(c);
  end_s_ = now_s();
  stopped_ = true;
  migration_due_.notify(sc_core::SC_ZERO_TIME);   // the migrator ends
}
uint64_t CpuScheduler::ps(const sc_time& t) { return t.value() / sc_time(1, sc_core::SC_PS).value(); }

void CpuScheduler::start() {
  start_ = sc_core::sc_time_stamp();
  for (uint32_t c = 0; c < cpus_.size(); c++) cpus_[c].busy_at_start = host_cpus_.cpu_busy_s(c);
  host_cpus_.on_idle = [this](uint32_t cpu) { newly_idle(cpu); };
  for (unsigned t = 0; t < threads_.size(); t++)
    sc_core::sc_spawn(sc_bind(&CpuScheduler::phase_thread, this, t), sc_core::sc_gen_unique_name("cpu_phase"));
  sc_core::sc_spawn(sc_bind(&CpuScheduler::balancer, this), sc_core::sc_gen_unique_name("cpu_balancer"));
  sc_core::sc_spawn(sc_bind(&CpuScheduler::migrator, this), sc_core::sc_gen_unique_name("mtftl_migration"));
}

void CpuScheduler::leave_cpu(Thread& th) { th.work_s += host_cpus_.end(th.cpu, th.job).to_seconds(); }

void CpuScheduler::enter_cpu(Thread& th) { th.job = host_cpus_.begin(th.cpu, user_category_); }

// (A count drops before the work ends: ending it may leave the CPU idle, and its newly-idle
// round must see it so.)
void CpuScheduler::set_phase(unsigned t, bool io) {
  Thread& th = threads_[t];
  if (th.io == io || stopped_) return;
  if (counted(th)) cpus_[th.cpu].runnable--;
  if (io) {   // leaves the CPU: the time it received counts as work
    leave_cpu(th);
  } else {
    th.runnable_seq = ++runnable_seq_;
    enter_cpu(th);
  }
  th.io = io;
  if (counted(th)) cpus_[th.cpu].runnable++;
  if (io) io_events_[t]->notify(sc_core::SC_ZERO_TIME);
}

void CpuScheduler::retrying(unsigned t, bool on) {
  Thread& th = threads_[t];
  if (th.retrying == on || stopped_) return;
  const bool was = counted(th);
  th.retrying = on;
  if (was == counted(th)) return;
  if (was) {
    cpus_[th.cpu].runnable--;
  } else {
    th.runnable_seq = ++runnable_seq_;
    cpus_[th.cpu].runnable++;
  }
}

void CpuScheduler::move(unsigned t, uint32_t cpu) {
  Thread& th = threads_[t];
  if (th.cpu == cpu || stopped_) return;
  if (counted(th)) cpus_[th.cpu].runnable--;
  if (!th.io) leave_cpu(th);   // runnable: its work so far stays, it competes on the new CPU from now
  th.cpu = cpu;
  if (!th.io) enter_cpu(th);
  if (counted(th)) cpus_[th.cpu].runnable++;
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
  if (p_.io_cost == sc_core::SC_ZERO_TIME) return sc_core::SC_ZERO_TIME;
  return p_.io_cost * double(host_cpus_.running(threads_[t].cpu) + 1);
}

void CpuScheduler::wrote(unsigned t, uint64_t sectors) {
  Thread& th = threads_[t];
  th.inserts += sectors;
  th.inserts_total += sectors;
  cpus_[th.cpu].inserts += sectors;
}

bool CpuScheduler::pull(uint32_t from, uint32_t to) {
  unsigned pick = unsigned(threads_.size());
  for (unsigned t = 0; t < threads_.size(); t++)
    if (!threads_[t].io && threads_[t].cpu == from &&
        (pick == threads_.size() || threads_[t].runnable_seq > threads_[pick].runnable_seq))
      pick = t;
  if (pick == threads_.size()) return false;
  move(pick, to);
  balancer_moves_++;
  return true;
}

// The OS's periodic rounds: CPU load only.
void CpuScheduler::balancer() {
  for (;;) {
    sc_core::wait(p_.balance);
    if (stopped_) return;
    uint32_t busiest = 0, idlest = 0;
    for (uint32_t c = 1; c < cpus_.size(); c++) {
      if (cpus_[c].runnable > cpus_[busiest].runnable) busiest = c;
      if (cpus_[c].runnable < cpus_[idlest].runnable) idlest = c;
    }
    if (cpus_[busiest].runnable >= cpus_[idlest].runnable + 2) pull(busiest, idlest);
    round(idlest);
  }
}

// The OS's newly-idle round on a CPU that ran out of work: it pulls a CPU-phase thread from
// the busiest CPU if that one runs two or more.
void CpuScheduler::newly_idle(uint32_t cpu) {
  if (stopped_) return;
  idle_rounds_++;
  uint32_t busiest = 0;
  for (uint32_t c = 1; c < cpus_.size(); c++)
    if (cpus_[c].runnable > cpus_[busiest].runnable) busiest = c;
  if (cpus_[cpu].runnable == 0 && cpus_[busiest].runnable >= 2) pull(busiest, cpu);
  round(cpu);
}

void CpuScheduler::woken(unsigned t) {
  if (stopped_) return;
  wake_rounds_++;
  round(threads_[t].cpu);
}

void CpuScheduler::round(uint32_t cpu) {
  rounds_++;
  if (++rounds_since_migration_ < p_.migration_rounds) return;
  rounds_since_migration_ = 0;
  due_.push_back(cpu);
  migration_due_.notify(sc_core::SC_ZERO_TIME);
}

// MT-FTL: every host.migration_rounds balancer rounds, the most-inserting thread of the
// most-inserted CPU goes to the least-inserted CPU, after the selection's CPU time on the CPU
// whose round it was.  The insertions per CPU since the last one are recorded either way.
void CpuScheduler::migrator() {
  for (;;) {
    while (due_.empty() && !stopped_) sc_core::wait(migration_due_);
    if (stopped_) return;
    const uint32_t on = due_.front();
    due_.pop_front();
    migration_rounds_run_++;
    uint32_t cmax = 0, cmin = 0;
    nlohmann::json row = nlohmann::json::array();
    for (uint32_t c = 0; c < cpus_.size(); c++) {
      row.push_back(cpus_[c].inserts);
      if (cpus_[c].inserts > cpus_[cmax].inserts) cmax = c;
      if (cpus_[c].inserts < cpus_[cmin].inserts) cmin = c;
    }
    insert_series_.push_back({{"t_ms", (now_s() - start_.to_seconds()) * 1e3}, {"per_cpu", row}});
    unsigned pick = unsigned(threads_.size());
    for (unsigned t = 0; t < threads_.size(); t++)
      if (threads_[t].cpu == cmax && threads_[t].inserts > 0 &&
          (pick == threads_.size() || threads_[t].inserts > threads_[pick].inserts))
        pick = t;
    for (Cpu& c : cpus_) c.inserts = 0;   // the next period counts from here
    for (Thread& t : threads_) t.inserts = 0;
    if (!p_.migration) continue;
    // The selection: every thread's and CPU's count examined, on the round's CPU.
    const sc_core::sc_time select = p_.select_cost * double(threads_.size() + cpus_.size());
    host_cpus_.run_exclusive(on, select, migrate_category_);
    if (stopped_) return;
    select_s_ += select.to_seconds();
    if (cmax != cmin && pick != threads_.size() && threads_[pick].cpu == cmax) {
      move(pick, cmin);
      threads_[pick].migrations++;
      migrations_++;
    }
  }
}

// CPU time thread t received, its current CPU phase included.
double CpuScheduler::thread_work_s(const Thread& th) const {
  if (th.io || stopped_) return th.work_s;
  return th.work_s + host_cpus_.received_s(th.cpu, th.job);
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
    const double busy = (stopped_ ? cp.busy_at_stop : host_cpus_.cpu_busy_s(c)) - cp.busy_at_start;
    cpus.push_back({{"busy_share", elapsed > 0 ? busy / elapsed : 0.0}});
  }
  return {{"cycle_ms", p_.cycle.to_seconds() * 1e3},
          {"io_us", p_.io_cost.to_seconds() * 1e6},
          {"balance_ms", p_.balance.to_seconds() * 1e3},
          {"migration", p_.migration ? "greedy" : "none"},
          {"migration_rounds", p_.migration_rounds},
          {"cpu_work_s", cpu_work_s()},
          {"balancer_rounds", rounds_},
          {"newly_idle_rounds", idle_rounds_},
          {"wake_up_rounds", wake_rounds_},
          {"balancer_moves", balancer_moves_},
          {"migration_periods", migration_rounds_run_},
          {"migrations", migrations_},
          {"migration_select_s", select_s_},
          {"cpus", cpus},
          {"threads", threads},
          {"insert_series", insert_series_}};
}

}  // namespace ssdvp
