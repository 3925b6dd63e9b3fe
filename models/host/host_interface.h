// NVMe-like host interface of the controller.
//
// Models: submission/completion queue pairs in host memory with doorbells crossing the PCIe
// link; a command-fetch engine that reads new submission entries over the link (64 bytes
// each) into the command ring of the firmware core serving the queue (queue q: core q mod
// cores; one register bank of rings per core), limited by SSD_HOST_SLOTS commands in the
// controller; a DMA engine executing the firmware's HIF DMA descriptors (host <-> DRAM data
// with DRAM and link bandwidth, scatter lists, optional completion entry and notification
// of the posting core); completion entries (16 bytes) and the interrupt to the host thread.
// Open-Channel vector commands: their LBA lists fetched over the link (8 bytes an LBA) into the
// slot's list in DRAM (HIF_LBA_LIST_ADDR) before the command reaches the firmware.
// Leaves out: admin queues and identify (the platform knows the geometry), PRP/SGL parsing,
// arbitration bursts between submission queues, interrupt coalescing.
#pragma once

#include <systemc>

#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include "models/bus/mmio_device.h"
#include "models/common/event_queue.h"
#include "models/common/params.h"
#include "models/host/block_target.h"
#include "models/host/pcie_link.h"

extern "C" {
#include "ftl-sw/hal/regs.h"
}

namespace ssdvp {

class Dram;
class SysCtl;

// A command as the host builds it in its memory.
struct HostCommand {
  uint8_t opcode = SSD_HOP_READ;
  uint16_t queue = 0;
  uint64_t lba = 0;                 // 4 KiB sectors
  uint32_t nsect = 0;
  uint32_t cdw[4] = {0, 0, 0, 0};
  // Open-Channel vector commands (SSD_HOP_OC_*) of more than one LBA: the host's LBA list
  // (nsect entries), which the controller fetches over the link; nullptr: `lba` is the one.
  const uint64_t* lba_list = nullptr;
  ssd_sector_tag* data = nullptr;   // host buffer: one tag per sector
  ssd_oob* meta = nullptr;          // Open-Channel: each sector's metadata (8 bytes), or none
  uint8_t* payload = nullptr;       // with sim.payload, or for control data (SSD_DMAF_BYTES):
                                    // nsect * 4096 bytes
  uint16_t status = 0;
  uint16_t info = 0;                // SSD_CPLI_* from the device (reads: extra work waited for)
  // A command that failed with a media status (type 2: a read's media error, the Open-Channel
  // statuses): the sectors (vector commands: the LBAs) the device named as failed (bit k:
  // sector k of the command); unreadable_listed = false: it named none, the whole command failed.
  uint32_t unreadable[SSD_MDTS_SECTORS / 32] = {};
  bool unreadable_listed = false;
  sc_core::sc_time t_submit, t_complete;
  uint64_t result = 0;              // the completion's command-specific dwords 0 and 1 (Zone Append: the LBA)
  uint64_t user = 0;                // the driver's bookkeeping
};

class HostInterface : public MmioDevice, public BlockTarget {
 public:
  HostInterface(sc_core::sc_module_name name, const HostParams& p, Dram& dram, SysCtl& irq, bool payload,
                EventQueue& events);

  // Host side.  The host rings a submission queue's doorbell after putting commands on it;
  // `delay` is the host thread's local time offset.
  void submit(HostCommand* cmd) override;              // places cmd on its queue (host memory)
  void ring_doorbell(uint16_t queue, sc_core::sc_time delay);
  void ring_doorbell(uint16_t queue, sc_core::sc_time delay, uint32_t) override { ring_doorbell(queue, delay); }
  // on_complete (BlockTarget) is called at the time the host thread sees the completion
  // (entry + interrupt).  Notified when the firmware enables command fetch; logical size known
  // from then.
  const sc_core::sc_event& ready_event() const override { return ready_; }
  bool ready() const override { return enabled_; }

  // Drive-state snapshots (platforms/drive_snapshot.h): every core bank's ring registers and
  // positions, as words; restored into a newly built interface before the firmware resumes.
  // Only at a quiet point (nothing in transit).
  std::vector<uint32_t> ring_state() const;
  void restore_ring_state(const std::vector<uint32_t>& words);
  uint64_t namespace_sectors() const override { return nsectors_; }

  PcieLink& link() { return link_; }
  // Commands the controller fetched from each submission queue so far.
  const std::vector<uint64_t>& commands_per_queue() const { return queue_commands_; }
  // The firmware core that serves submission queue q.
  uint32_t core_of_queue(uint32_t q) const { return q % uint32_t(banks_.size()); }

 protected:
  uint32_t read32(uint32_t offset, sc_core::sc_time& delay) override;
  void write32(uint32_t offset, uint32_t value, sc_core::sc_time& delay) override;

 private:
  struct Slot {
    HostCommand* cmd = nullptr;
    bool completion_posted = false;   // a completing descriptor for cmd was accepted
  };
  // One core's rings (registers at HIF_BANK_STRIDE apart).
  struct Bank {
    uint32_t cmd_addr = 0, cmd_size = 0, cmd_tail = 0, cmd_head = 0, cmd_tail_shadow = 0;
    uint32_t in_transit = 0;       // fetched over the link, not yet in the ring
    uint32_t dma_addr = 0, dma_size = 0, dma_tail = 0, dma_head = 0;
    uint32_t done_addr = 0, done_size = 0, done_tail = 0, done_head = 0, done_phase = 1;
    bool done_irq_all = true;
  };
  void fetch();
  void deliver(const std::vector<HostCommand*>& cmds);
  void run_dma(uint32_t bank, sc_core::sc_time at);
  void complete(uint16_t slot, uint16_t status, uint16_t info, sc_core::sc_time at);
  void notify_firmware(uint32_t bank, uint32_t cookie, uint16_t status, bool irq);
  void sector_list(const ssd_hif_dma& d, std::vector<uint32_t>& out);
  void finish_dma(uint32_t job);

  // Work in flight between events lives in pools, so that the queued actions capture an
  // index (no allocation per event).
  struct DmaJob {
    ssd_hif_dma d;
    uint32_t bank = 0;
    HostCommand* c = nullptr;
    std::vector<uint32_t> sectors;
  };
  uint32_t take_batch();
  uint32_t take_job();
  std::vector<std::vector<HostCommand*>> batches_;
  std::vector<uint32_t> free_batches_;
  std::vector<DmaJob> jobs_;
  std::vector<uint32_t> free_jobs_;

  HostParams p_;
  Dram& dram_;
  SysCtl& irq_;
  bool payload_;
  PcieLink link_;
  EventQueue& events_;
  sc_core::sc_event ready_;

  std::vector<std::deque<HostCommand*>> sq_;   // submitted, doorbell not yet seen
  std::vector<uint64_t> queue_commands_;       // fetched, per submission queue
  std::deque<HostCommand*> fetch_queue_;        // doorbell seen, waiting for a slot
  std::vector<Slot> slots_;
  std::vector<uint16_t> free_slots_;
  std::vector<Bank> banks_;                    // one per firmware core

  bool enabled_ = false;
  uint64_t nsectors_ = 0;
  uint32_t lba_list_addr_ = 0;                 // HIF_LBA_LIST_ADDR
  void copy_lba_list(const HostCommand* c, uint16_t slot);
};

}  // namespace ssdvp
