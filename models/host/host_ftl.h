// The FTL on the host (host.ftl = pblk | mtftl; docs/host-ftl.md): the project's own FTL sources
// (ftl-sw: map, write buffer as pblk's ring, GC, placement) run by host threads on the host's
// CPUs, over an Open-Channel device, as Linux's pblk and MT-FTL run.
//
// Models: the FTL booted as a block device's firmware on the host (core/host_roles.h), its
// DRAM host memory, its ports bound to the host: above, the block layer's requests from the
// user threads (models/host/host_ftl_front.h), below, the Open-Channel device's vector
// commands (models/host/oc_flash_backend.h).  Its work is done by host threads, each on its
// CPU (models/host/host_cpus.h), one critical section at a time under the FTL's spin lock
// (held for the section's bookkeeping; a waiter spins on its own CPU; FIFO; a hand-off to
// another socket costs extra; its copies and device commands then run outside the lock,
// sharing the CPU): a user thread's write is inserted into the ring of its FTL core
// (pblk: the one ring; MT-FTL: its CPU's) by the user thread itself, on its CPU, copying the
// data; a read is looked up and served from the ring or sent to the device by the user thread;
// while its ring is full the user thread waits (host.ftl.full_ring: yield, pblk's retry loop,
// runnable and taking its share of its CPU; or sleep), and every waiting thread retries whenever
// space was freed; each FTL core's write-back thread (pblk: one, on host.ftl.writeback_cpu;
// MT-FTL: one per CPU, pinned) drains its ring to the device; the device's completions are
// handled by its interrupt on the CPU whose NVMe queue the command went on (a read's on its
// reader's CPU, a program's on the write-back thread's, as pblk's end_io functions run); a GC
// thread (host.ftl.gc_cpu) runs GC.  A section's CPU time is
// what its code costs in instructions on the ISS at the host CPU's speed
// (models/host/host_ftl_context.h) plus its copies at host.ftl.copy_gbps; its commands to the
// device go out once that time has run, on the NVMe queue of its CPU.
// The host I/O stack's costs (host.stack): a user's command its submission (models/host/host_io_stack.h),
// each interrupt of the device host.stack.irq_ns on its CPU; the FTL's own device commands go to the
// NVMe driver directly, as pblk's do (no block layer): their building is the FTL's cost.
// Preconditioning is the host's (precondition.mode = "timed": models/host/host_driver_precondition.cpp).
// Leaves out: power loss and the FTL's recovery over the device, demand-based maps (whole metadata payloads),
// the spread of an interrupt's work: one handles every completion its FTL core's ring holds,
// other CPUs' too.
#pragma once

#include <systemc>

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/common/params.h"
#include "models/host/block_target.h"
#include "models/host/host_cpus.h"
#include "models/host/oc_flash_backend.h"

struct ftl;
struct ssd_fw_stats;

namespace ssdvp {

class Dram;
class SysCtl;
class Timer;
class Mailbox;
class Uart;
class SpiNor;
class Router;
class HostFtlFront;
class FlashBackEnd;
class HostFtlContext;
struct HostCommand;

class HostFtl : public sc_core::sc_module, public BlockTarget {
 public:
  // The FTL's flash side over the device's command set (models/host/flash_backend.h: Open-Channel
  // or zoned), made in the FTL's memory and bound to its system control.
  using MakeBackEnd = std::function<std::unique_ptr<FlashBackEnd>(Dram& mem, SysCtl& irq, uint32_t cores,
                                                                  uint32_t geometry_addr, bool payload)>;
  // p: the platform's parameters (its host_ftl_view() is what the FTL boots with); make_back:
  // its flash side; device_queues: the device's NVMe queues; write_config: writes the FTL's
  // configuration and geometry into its memory (the platform's boot config writer).
  HostFtl(sc_core::sc_module_name name, const PlatformParams& p, HostCpus& cpus, const MakeBackEnd& make_back,
          uint32_t device_queues,
          std::function<void(Dram&, const PlatformParams&, uint32_t config_addr, uint32_t geometry_addr)> write_config);
  ~HostFtl() override;

  // BlockTarget: the block layer's side.
  void submit(HostCommand* cmd) override;
  void ring_doorbell(uint16_t queue, sc_core::sc_time delay, uint32_t cpu) override;
  const sc_core::sc_event& ready_event() const override { return ready_; }
  bool ready() const override { return f_ != nullptr; }
  uint64_t namespace_sectors() const override;
  bool submits_in_caller() const override { return true; }
  bool completes_in_own_threads() const override { return true; }

  // The CPU categories of its work (HostCpus).
  static std::vector<std::string> categories();
  // The FTL's statistics block (valid once booted) and run.json's host_ftl section.
  const ::ssd_fw_stats* stats() const;
  Dram& memory() { return *mem_; }
  // The measured run starts: results() count from here (a timed preconditioning left out).
  void start_measuring();
  nlohmann::json results() const;

 private:
  void boot_thread();
  void writeback_thread(uint32_t core);
  void background_thread();
  void interrupt_thread(uint32_t cpu);
  // One critical section: the lock taken on `cpu`, `fn` run (the FTL's code) on FTL core
  // `core`, its bookkeeping's CPU time run, the lock released, its copies' and device
  // commands' CPU time run (shared with the CPU's other work), its device commands and
  // completions sent.
  int section(uint32_t cpu, uint32_t core, uint32_t category, const std::function<int()>& fn);
  // The CPU ring `core`'s write-back thread runs on: its own (MT-FTL: a ring and a write-back
  // thread per CPU) or host.ftl.writeback_cpu (pblk: one write-back CPU).
  uint32_t writeback_cpu(uint32_t core) const { return hp_.kind == "mtftl" ? core : hp_.writeback_cpu; }
  uint32_t core_of_cpu(uint32_t cpu) const { return cpu % cores_; }
  bool waiting(const HostCommand* c) const;

  PlatformParams view_;
  HostFtlParams hp_;
  HostCpus& cpus_;
  uint32_t cores_, device_queues_;
  std::function<void(Dram&, const PlatformParams&, uint32_t, uint32_t)> write_config_;
  std::unique_ptr<Dram> mem_;
  std::unique_ptr<SysCtl> sysctl_;
  std::unique_ptr<Timer> timer_;
  std::unique_ptr<Mailbox> mailbox_;
  std::unique_ptr<Uart> uart_;
  std::unique_ptr<SpiNor> nor_;
  std::unique_ptr<Router> router_;
  std::unique_ptr<HostFtlFront> front_;
  std::unique_ptr<FlashBackEnd> back_;
  std::unique_ptr<HostFtlContext> ctx_;
  HostSpinLock lock_;
  ::ftl* f_ = nullptr;
  sc_core::sc_event ready_, space_, background_kick_;
  std::vector<std::unique_ptr<sc_core::sc_event>> writeback_kick_;
  std::vector<std::deque<HostCommand*>> sq_;
  std::unordered_set<const HostCommand*> in_ftl_;
  struct Launch {                     // a section's device commands, in build order
    FlashBackEnd::Built ops;
    uint16_t queue = 0;
    uint32_t cpu = 0;
    bool ready = false;               // its section's CPU time has run
  };
  std::deque<Launch> launches_;
  uint32_t cat_insert_, cat_retry_, cat_writeback_, cat_completion_, cat_gc_, cat_interrupt_ = 0;
  sc_core::sc_time writeback_sector_;   // host.ftl.writeback_sector_instructions' time per programmed sector
  uint64_t writeback_added_sectors_ = 0;
  std::vector<double> writeback_work_s_;   // per ring: the CPU time its write-back sections asked for
  sc_core::sc_time irq_;   // host.stack.irq_ns: one interrupt's entry and handler (0: host.stack = none)
  struct Interrupt {
    uint32_t cores = 0;               // FTL cores with completions for this CPU to handle
    sc_core::sc_event raised;
  };
  std::vector<std::unique_ptr<Interrupt>> interrupts_;   // per host CPU
  uint64_t sections_ = 0, blocked_submissions_ = 0, retries_ = 0, interrupts_taken_ = 0;
  sc_core::sc_time booted_at_;
  struct Counters {                   // what results() counts, from boot
    uint64_t sections = 0, blocked = 0, retries = 0, interrupts = 0, writeback_added = 0;
    uint64_t lock_acquisitions = 0, lock_contended = 0, lock_handoffs = 0;
    double lock_spin_s = 0;
    std::vector<uint64_t> units, inserted;
    std::vector<double> writeback_s;     // per ring (writeback_work_s_)
    FlashBackEnd::Counts device;
  };
  Counters counters() const;
  Counters at_start_;                 // counters() when the measured run started

};

}  // namespace ssdvp
