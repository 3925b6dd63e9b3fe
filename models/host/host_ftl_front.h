// The host FTL's host side (models/host/host_ftl.h): the FTL's host-interface register banks
// (ftl-sw/hal/regs.h, HIF_*) as a host FTL has them, with the block layer above.  The user
// thread's commands enter an FTL core's command ring directly (no link: the block layer hands
// the FTL its request), and the FTL's DMA descriptors are copies in host memory done at once,
// when the FTL rings the doorbell, by the CPU that runs it (their bytes are reported for that
// CPU's time); a descriptor that completes a command queues the completion, which the host
// FTL hands to the host once the section that posted it has had its CPU time.
// Leaves out: a link and its timing (there is none), interrupts to the FTL (the host threads
// run its work when they have it; the lines are still raised for the FTL's own checks).
#pragma once

#include <systemc>

#include <cstdint>
#include <functional>
#include <vector>

#include "models/bus/mmio_device.h"
#include "models/host/host_interface.h"

namespace ssdvp {

class Dram;
class SysCtl;

class HostFtlFront : public MmioDevice {
 public:
  HostFtlFront(sc_core::sc_module_name name, uint32_t cores, Dram& mem, SysCtl& irq, bool payload);

  // A user's command onto FTL core k's command ring; false: no slot or ring entry free now
  // (wait for room()).
  bool deliver(HostCommand* c, uint32_t core);
  const sc_core::sc_event& room() const { return room_; }
  // The commands completed since the last call (their CPU time run: the host sees them now).
  std::vector<HostCommand*> take_completed();
  // The bytes each copy moves (the running thread's CPU time).
  std::function<void(uint64_t bytes)> on_copy;

  bool enabled() const { return enabled_; }
  const sc_core::sc_event& ready_event() const { return ready_; }
  uint64_t namespace_sectors() const { return nsectors_; }
  // The FTL's slot of a command in it.
  static uint16_t slot_of(const HostCommand* c) { return uint16_t(c->user & 0xFFFF); }

 protected:
  uint32_t read32(uint32_t offset, sc_core::sc_time& delay) override;
  void write32(uint32_t offset, uint32_t value, sc_core::sc_time& delay) override;

 private:
  struct Bank {
    uint32_t cmd_addr = 0, cmd_size = 0, cmd_tail = 0, cmd_head = 0, cmd_tail_shadow = 0;
    uint32_t dma_addr = 0, dma_size = 0, dma_tail = 0, dma_head = 0;
    uint32_t done_addr = 0, done_size = 0, done_tail = 0, done_head = 0, done_phase = 1;
    bool done_irq_all = false;
  };
  void run_dma(uint32_t bank);
  void copy(const ssd_hif_dma& d, HostCommand* c);

  Dram& mem_;
  SysCtl& irq_;
  bool payload_;
  std::vector<Bank> banks_;
  std::vector<HostCommand*> slots_;
  std::vector<uint16_t> free_slots_;
  std::vector<HostCommand*> completed_;
  sc_core::sc_event ready_, room_;
  bool enabled_ = false;
  uint64_t nsectors_ = 0;
};

}  // namespace ssdvp
