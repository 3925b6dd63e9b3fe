// The FTL on the host: see host_ftl.h.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "models/host/host_ftl.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "models/bus/router.h"
#include "models/common/fatal.h"
#include "models/cpu/mailbox.h"
#include "models/cpu/spi_nor.h"
#include "models/cpu/sysctl.h"
#include "models/cpu/timer.h"
#include "models/cpu/uart.h"
#include "models/dram/dram.h"
#include "models/host/host_ftl_context.h"
#include "models/host/host_ftl_front.h"
#include "models/host/flash_backend.h"

extern "C" {
#include "ftl-sw/core/ftl.h"
#include "ftl-sw/core/host_roles.h"
#include "ftl-sw/hal/hal.h"
}

namespace ssdvp {


std::vector<std::string> HostFtl::categories() { return {"insert", "retry", "lock_spin", "writeback", "completion", "gc"}; }

HostFtl::HostFtl(sc_core::sc_module_name name, const PlatformParams& p, HostCpus& cpus, const MakeBackEnd& make_back,
                 uint32_t device_queues, std::function<void(Dram&, const PlatformParams&, uint32_t, uint32_t)> write_config)
    : sc_core::sc_module(name),
      view_(p.host_ftl_view()),
      hp_(p.host_ftl),
      cpus_(cpus),
      cores_(view_.firmware.cores),
      device_queues_(device_queues),
      write_config_(std::move(write_config)),
      lock_(cpus, p.host_ftl.socket_handoff, cpus.category("lock_spin")),
      sq_(p.host.queues) {
  mem_ = std::make_unique<Dram>(view_.dram);
  if (view_.host_data) mem_->keep_tags_apart();   // the host's own bytes: tags beside them, as in the device
  sysctl_ = std::make_unique<SysCtl>("ftl_sysctl", cores_, view_.dram.size_bytes, SSD_BOOT_CONFIG_ADDR);
  timer_ = std::make_unique<Timer>("ftl_timer", *sysctl_);
  mailbox_ = std::make_unique<Mailbox>("ftl_mailbox", *sysctl_);
  uart_ = std::make_unique<Uart>("ftl_uart");
  nor_ = std::make_unique<SpiNor>("ftl_nor", view_.device.nor_bytes);
  router_ = std::make_unique<Router>("ftl_bus");
  front_ = std::make_unique<HostFtlFront>("ftl_front", cores_, *mem_, *sysctl_, view_.payload);
  back_ = make_back(*mem_, *sysctl_, cores_, SSD_BOOT_GEOMETRY_ADDR, view_.payload);
  // Each kind of the FTL's work: its ISS instructions at the host CPU's speed.
  std::vector<sc_core::sc_time> cost;
  const double ns_per_instruction = 1e3 / (hp_.clock_mhz * hp_.ipc);
  for (double instr : hp_.cost_instructions) cost.push_back(sc_core::sc_time(instr * ns_per_instruction, sc_core::SC_NS));
  const sc_core::sc_time spin = cost.size() > HAL_COST_SPIN ? cost[HAL_COST_SPIN] : sc_core::SC_ZERO_TIME;
  writeback_sector_ = sc_core::sc_time(hp_.writeback_sector_instructions * ns_per_instruction, sc_core::SC_NS);
  ctx_ = std::make_unique<HostFtlContext>("ftl_context", *mem_, *sysctl_, cost, spin);
  ctx_->socket.bind(router_->target);

  router_->attach(SSD_HIF_BASE, *front_);
  router_->attach(SSD_FCTL_BASE, *back_);
  router_->attach(SSD_TIMER_BASE, *timer_);
  router_->attach(SSD_MBOX_BASE, *mailbox_);
  router_->attach(SSD_UART_BASE, *uart_);
  router_->attach(SSD_SYSCTL_BASE, *sysctl_);
  router_->attach(SSD_NOR_BASE, *nor_);
  const double bytes_per_s = hp_.copy_gbps * 1e9;
  front_->on_copy = [this, bytes_per_s](uint64_t bytes) {
    ctx_->charge(sc_core::sc_time(double(bytes) / bytes_per_s, sc_core::SC_SEC));
  };
  back_->on_copy = front_->on_copy;
  for (uint32_t k = 0; k < cores_; k++) writeback_kick_.push_back(std::make_unique<sc_core::sc_event>());
  writeback_work_s_.assign(cores_, 0.0);
  cat_insert_ = cpus.category("insert");
  cat_retry_ = cpus.category("retry");
  cat_writeback_ = cpus.category("writeback");
  cat_completion_ = cpus.category("completion");
  cat_interrupt_ = cpus.category("interrupt");
  irq_ = p.host.stack == HostParams::Stack::None ? sc_core::SC_ZERO_TIME : p.host.stack_irq;   // (none: host.irq_ns delays each completion instead)
  for (uint32_t c = 0; c < cpus.cpus(); c++) interrupts_.push_back(std::make_unique<Interrupt>());
  back_->on_interrupt = [this](uint32_t cpu, uint32_t core) {
    Interrupt& i = *interrupts_.at(cpu);
    i.cores |= 1u << core;
    i.raised.notify(sc_core::SC_ZERO_TIME);
  };
  cat_gc_ = cpus.category("gc");
  SC_HAS_PROCESS(HostFtl);
  SC_THREAD(boot_thread);
}

HostFtl::~HostFtl() = default;

uint64_t HostFtl::namespace_sectors() const { return front_->namespace_sectors(); }

const ::ssd_fw_stats* HostFtl::stats() const {
  const uint32_t a = sysctl_->debug_addr();
  if (!a) return nullptr;
  const auto* s = mem_->as<ssd_fw_stats>(a);
  return s->magic == SSD_FW_STATS_MAGIC ? s : nullptr;
}

// The device as it is, the FTL's configuration and geometry in host memory, the FTL booted on
// this thread (not charged: before the workload), then its threads.
void HostFtl::boot_thread() {
  std::string why;
  write_config_(*mem_, view_, SSD_BOOT_CONFIG_ADDR, SSD_BOOT_GEOMETRY_ADDR);
  if (!back_->attach_device(view_, why)) {   // the device read, the FTL's flash geometry written
    report_fatal("host FTL: " + why);
    return;
  }
  ctx_->enter(0);
  f_ = host_ftl_boot();
  ctx_->take_spent();
  if (!fatal_errors().empty()) return;
  booted_at_ = sc_core::sc_time_stamp();
  for (uint32_t k = 0; k < cores_; k++) sc_core::sc_spawn([this, k] { writeback_thread(k); });
  for (uint32_t c = 0; c < interrupts_.size(); c++) sc_core::sc_spawn([this, c] { interrupt_thread(c); });
  sc_core::sc_spawn([this] { background_thread(); });
  ready_.notify(sc_core::SC_ZERO_TIME);
}

int HostFtl::section(uint32_t cpu, uint32_t core, uint32_t category, const std::function<int()>& fn) {
  lock_.acquire(cpu);
  ctx_->enter(core);
  const int n = fn();
  HostFtlContext::Spent t = ctx_->take_spent();
  // This section's device commands, in the order the FTL built them: they go out after its
  // own CPU time, but never before an earlier section's (a chunk is written at its write
  // pointer, in order; pblk keeps that order per parallel unit).
  launches_.push_back(Launch{back_->take_built(), uint16_t(cpu % device_queues_), cpu, false});
  Launch* mine = &launches_.back();
  if (category == cat_writeback_) {   // host.ftl.writeback_sector_instructions per sector it programs
    uint64_t sectors = 0;
    for (const FlashBackEnd::Op* op : mine->ops)
      if (op->cmd.opcode == SSD_HOP_OC_WRITE) sectors += op->cmd.nsect;
    writeback_added_sectors_ += sectors;
    t.unlocked += writeback_sector_ * double(sectors);
    writeback_work_s_.at(core) += (t.locked + t.unlocked).to_seconds();
  }
  std::vector<HostCommand*> completed = front_->take_completed();
  sections_++;
  cpus_.run_exclusive(cpu, t.locked, category);   // a spin lock's holder is not preempted
  lock_.release();
  cpus_.run(cpu, t.unlocked, category);   // its copies and device commands: shared with the CPU's other work
  mine->ready = true;
  while (!launches_.empty() && launches_.front().ready) {
    const Launch& l = launches_.front();
    back_->launch(l.ops, l.queue, sc_core::SC_ZERO_TIME, l.cpu);
    launches_.pop_front();
  }
  for (HostCommand* c : completed) {
    in_ftl_.erase(c);
    c->t_complete = sc_core::sc_time_stamp();
    if (on_complete) on_complete(c);
  }
  if (n) {   // what it did may give the others work: freed space, a flush every ring drains for, GC
    space_.notify(sc_core::SC_ZERO_TIME);
    for (uint32_t k = 0; k < cores_; k++)
      if (host_role_writeback_due(f_, k)) writeback_kick_[k]->notify(sc_core::SC_ZERO_TIME);
    if (host_role_background_due(f_)) background_kick_.notify(sc_core::SC_ZERO_TIME);
  }
  return n;
}

void HostFtl::submit(HostCommand* cmd) { sq_.at(cmd->queue).push_back(cmd); }

bool HostFtl::waiting(const HostCommand* c) const {
  return in_ftl_.count(c) && f_->hc[HostFtlFront::slot_of(c)].state == HC_WAIT_BUF;
}

// The user thread's submission: its commands onto its FTL core's ring and started on its CPU;
// it blocks while one of them waits for room, retrying whenever space was freed.
void HostFtl::ring_doorbell(uint16_t queue, sc_core::sc_time delay, uint32_t cpu) {
  if (delay > sc_core::SC_ZERO_TIME) sc_core::wait(delay);
  std::vector<HostCommand*> mine(sq_.at(queue).begin(), sq_.at(queue).end());
  sq_[queue].clear();
  const uint32_t core = core_of_cpu(cpu);
  for (HostCommand* c : mine) {
    while (!front_->deliver(c, core)) {   // its ring or the FTL's slots are full: start what is there
      if (!section(cpu, core, cat_insert_, [this, core] { return host_role_submit(f_, core); })) sc_core::wait(front_->room());
    }
    in_ftl_.insert(c);
  }
  section(cpu, core, cat_insert_, [this, core] { return host_role_submit(f_, core); });
  writeback_kick_[core]->notify(sc_core::SC_ZERO_TIME);
  bool blocked = false;
  const HostCommand* first_waiting = nullptr;   // whose thread is told it retries, and then that it stopped
  while (std::any_of(mine.begin(), mine.end(), [this](const HostCommand* c) { return waiting(c); })) {
    if (!blocked && hp_.full_ring_yield && on_retrying) {   // runnable while it retries
      first_waiting = *std::find_if(mine.begin(), mine.end(), [this](const HostCommand* c) { return waiting(c); });
      on_retrying(first_waiting, true);
    }
    blocked = true;
    if (hp_.full_ring_yield) {   // pblk: io_schedule() and retry, runnable: its share of the CPU until room
      const uint32_t job = cpus_.begin(cpu, cat_retry_);
      sc_core::wait(space_);
      cpus_.end(cpu, job);
    } else {
      sc_core::wait(space_);
    }
    retries_++;
    section(cpu, core, cat_retry_, [this, core] { return host_role_retry(f_, core); });
    writeback_kick_[core]->notify(sc_core::SC_ZERO_TIME);
  }
  if (blocked) {
    blocked_submissions_++;
    if (first_waiting) on_retrying(first_waiting, false);
  }
}

void HostFtl::writeback_thread(uint32_t core) {
  const uint32_t cpu = writeback_cpu(core);
  for (;;) {
    if (host_role_writeback_due(f_, core) &&
        section(cpu, core, cat_writeback_, [this, core] { return host_role_writeback(f_, core, 1); }))
      continue;
    sc_core::wait(*writeback_kick_[core] | sysctl_->irq_event(core));
    if (sysctl_->irq_ready(core)) {   // its timer (the ring's idle drain) or another core's call
      sysctl_->clear_enabled(core);
      section(cpu, core, cat_writeback_, [this, core] { return host_role_writeback(f_, core, 1); });
    }
  }
}

// The device's interrupt on `cpu` (its completion queue's CPU): the completions of the FTL
// cores it was raised for, handled there.
void HostFtl::interrupt_thread(uint32_t cpu) {
  Interrupt& i = *interrupts_[cpu];
  for (;;) {
    while (!i.cores) sc_core::wait(i.raised);
    cpus_.run_exclusive(cpu, irq_, cat_interrupt_);   // the interrupt's entry and handler (host.irq_ns)
    interrupts_taken_++;
    for (uint32_t k = 0; k < cores_; k++) {
      if (!(i.cores >> k & 1u)) continue;
      i.cores &= ~(1u << k);
      section(cpu, k, cat_completion_, [this, k] { return host_role_completions(f_, k); });
    }
  }
}

void HostFtl::background_thread() {
  for (;;) {
    if (host_role_background_due(f_) && section(hp_.gc_cpu, 0, cat_gc_, [this] { return host_role_background(f_); }))
      continue;
    sc_core::wait(background_kick_);
  }
}

HostFtl::Counters HostFtl::counters() const {
  Counters n;
  n.sections = sections_;
  n.blocked = blocked_submissions_;
  n.retries = retries_;
  n.interrupts = interrupts_taken_;
  n.writeback_added = writeback_added_sectors_;
  n.writeback_s = writeback_work_s_;
  n.lock_acquisitions = lock_.acquisitions();
  n.lock_contended = lock_.contended();
  n.lock_handoffs = lock_.socket_handoffs();
  n.lock_spin_s = lock_.spin_s();
  n.units = ctx_->units();
  const ::ssd_fw_stats* st = stats();
  for (uint32_t k = 0; k < cores_ && k < SSD_MAX_CORES; k++) n.inserted.push_back(st ? st->core[k].wbuf_inserts : 0);
  n.device = back_->counts();
  return n;
}

void HostFtl::start_measuring() {
  at_start_ = counters();
  cpus_.start_measuring();
}

nlohmann::json HostFtl::results() const {
  static const char* kinds[] = {"loop", "host_cmd", "sector", "flash_submit", "flash_done", "dma_submit", "gc_sector", "spin"};
  const Counters now = counters();
  const Counters& s = at_start_;
  const auto since = [](const std::vector<uint64_t>& v, const std::vector<uint64_t>& at, size_t k) {
    return v[k] - (k < at.size() ? at[k] : 0);
  };
  nlohmann::json costs = nlohmann::json::object();
  const double ns_per_instruction = 1e3 / (hp_.clock_mhz * hp_.ipc);
  for (size_t k = 0; k < hp_.cost_instructions.size() && k < now.units.size(); k++)
    costs[kinds[k]] = {{"instructions", hp_.cost_instructions[k]},
                       {"ns", hp_.cost_instructions[k] * ns_per_instruction},
                       {"units", since(now.units, s.units, k)}};
  costs["writeback_sector"] = {{"instructions", hp_.writeback_sector_instructions},
                               {"ns", hp_.writeback_sector_instructions * ns_per_instruction},
                               {"units", now.writeback_added - s.writeback_added}};
  // Per ring: sectors host writes put in, and its write-back thread's CPU and CPU time.
  nlohmann::json inserted = nlohmann::json::array();
  for (size_t k = 0; k < now.inserted.size(); k++)
    inserted.push_back({{"inserted_sectors", since(now.inserted, s.inserted, k)},
                        {"writeback_cpu", writeback_cpu(uint32_t(k))},
                        {"writeback_cpu_s", now.writeback_s.at(k) - (k < s.writeback_s.size() ? s.writeback_s[k] : 0.0)}});
  const FlashBackEnd::Counts& n = now.device;
  const FlashBackEnd::Counts& n0 = s.device;
  return {{"kind", hp_.kind},
          {"rings", cores_},
          {"ring", inserted},
          {"sections", now.sections - s.sections},
          {"blocked_submissions", now.blocked - s.blocked},
          {"retries", now.retries - s.retries},
          {"device_interrupts", now.interrupts - s.interrupts},
          {"lock",
           {{"acquisitions", now.lock_acquisitions - s.lock_acquisitions},
            {"contended", now.lock_contended - s.lock_contended},
            {"socket_handoffs", now.lock_handoffs - s.lock_handoffs},
            {"spin_s", now.lock_spin_s - s.lock_spin_s}}},
          {"costs", costs},
          {"cpus", cpus_.results()},
          {"device_commands",
           {{"writes", n.writes - n0.writes}, {"reads", n.reads - n0.reads}, {"resets", n.resets - n0.resets},
            {"lbas_written", n.lbas_written - n0.lbas_written}, {"lbas_read", n.lbas_read - n0.lbas_read},
            {"reads_from_host_copy", n.reads_from_host_copy - n0.reads_from_host_copy}}}};
}

}  // namespace ssdvp
