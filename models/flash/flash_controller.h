// Flash controller: the firmware's descriptor submission rings and completion rings in DRAM
// (a pair per firmware core, FCTL_BANK_STRIDE apart), the DMA engine between DRAM and the
// channels, and the completion interrupts.
//
// Models: descriptors fetched and decoded one after another (fctl.desc_ns each, from the
// doorbell; the banks in the order their doorbells rang), scatter lists resolved to sector
// addresses, each operation handed to its channel; each completion posted fctl.cpl_ns after
// the operation ends into the completion ring of the bank it came from, with a phase bit and
// SSD_IRQ_FCTL on that bank's core.  Functional mode (preconditioning) executes descriptors on the dies at
// once, with no simulated time.  A bad descriptor (address out of range, scatter list
// outside DRAM) is a firmware bug: completed with SSD_FST_BAD_DESC and reported as fatal.
// Leaves out: copyback, descriptor priorities, ECC engine throughput limits.
#pragma once

#include <systemc>

#include <array>
#include <deque>
#include <memory>
#include <vector>

#include "models/bus/mmio_device.h"
#include "models/common/event_queue.h"
#include "models/common/params.h"
#include "models/flash/channel_if.h"

namespace ssdvp {

class Dram;
class SysCtl;
namespace nand { class Die; }

class FlashController : public MmioDevice, public FlashDataPort {
 public:
  FlashController(sc_core::sc_module_name name, const FctlParams& p, const NandParams& nand,
                  Dram& dram, SysCtl& irq, std::vector<nand::Die*> dies, uint32_t geometry_addr,
                  bool payload, EventQueue& events);
  // Flash operations taken from a ring and not yet completed (0: the controller is idle).
  size_t ops_in_flight() const { return pool_.size() - free_ops_.size(); }
  // Drive-state snapshots: every core bank's ring registers and positions (as HostInterface's).
  std::vector<uint32_t> ring_state() const;
  void restore_ring_state(const std::vector<uint32_t>& words);

  void attach_channel(uint32_t channel, ChannelIf* ch);

  sc_core::sc_time to_die(FlashOp& op, nand::Die& die, uint32_t plane, sc_core::sc_time start) override;
  sc_core::sc_time from_die(FlashOp& op, nand::Die& die, uint32_t plane, sc_core::sc_time start) override;

  // Sectors that reached DRAM marked uncorrectable by the die (injected ECC faults), over
  // the whole run: the most host reads that may fail with a media error.
  uint64_t uncorrectable_sectors() const { return uncorrectable_sectors_; }
  // Reads that needed ECC correction (the die's extra decode time: a read retry).
  uint64_t corrected_reads() const { return corrected_reads_; }

  // Operations taken from the rings and not yet completed, by the FTL's reason (SSD_FRSN_*).
  static uint32_t reason_of(const ssd_flash_desc& d) { return d.reason < SSD_FRSN_COUNT ? d.reason : SSD_FRSN_UNKNOWN; }
  uint32_t in_flight(uint32_t reason) const { return in_flight_[reason]; }

  // Observer of every completed operation (tests, traces): desc and times.
  std::function<void(const FlashOp&)> observer;

 protected:
  uint32_t read32(uint32_t offset, sc_core::sc_time& delay) override;
  void write32(uint32_t offset, uint32_t value, sc_core::sc_time& delay) override;

 private:
  struct Bank {
    uint32_t sub_addr = 0, sub_size = 0, sub_head = 0, sub_tail = 0;
    uint32_t cpl_addr = 0, cpl_size = 0, cpl_tail = 0, cpl_head = 0, cpl_phase = 1;
  };
  void fetch(uint32_t bank, sc_core::sc_time at);
  bool decode(const ssd_flash_desc& d, FlashOp& op);
  void execute_functional(FlashOp& op);
  void post(FlashOp* op);
  // Writes op's completion entry and, with `raise`, the ring's interrupt; false if the ring
  // overflowed (a fatal error is reported).
  bool write_completion(const FlashOp& op, bool raise = true);
  uint32_t plane_index(const FlashOp& op, uint32_t plane) const;
  // Whether a sector's tag is its first 8 bytes in DRAM: always, unless the DRAM keeps tags
  // apart (the host's own bytes, sim.host_data); then still for the firmware's metadata
  // (SSD_FDF_PAYLOAD) and for functional mode (preconditioning writes its tags into the data).
  bool tag_in_data_bytes(uint32_t flags) const;

  FctlParams p_;
  NandParams nand_;
  Dram& dram_;
  SysCtl& irq_;
  std::vector<nand::Die*> dies_;
  std::vector<ChannelIf*> channels_;
  bool payload_;
  EventQueue& events_;

  std::vector<Bank> banks_;
  uint32_t functional_ = 0, geometry_addr_;
  sc_core::sc_time decode_free_ = sc_core::SC_ZERO_TIME;
  std::vector<std::unique_ptr<FlashOp>> pool_;
  uint64_t next_id_ = 0, uncorrectable_sectors_ = 0, corrected_reads_ = 0;
  FlashOp* alloc_op();
  void free_op(FlashOp* op) { free_ops_.push_back(op); }
  std::vector<FlashOp*> free_ops_;
  std::array<uint32_t, SSD_FRSN_COUNT> in_flight_{};
};

}  // namespace ssdvp
