// The host FTL's flash side (models/host/host_ftl.h): the FTL's flash-controller register banks
// (ftl-sw/hal/regs.h, FCTL_*) bound to a host-managed device's commands, whatever the device.
//
// Models what every such device shares: the FTL sees a flash of one plane per die whose page is
// the device's write unit; each descriptor the FTL rings in becomes one device command over the
// NVMe queues and PCIe link (a program its unit's sectors with their data tags, a read its
// sectors, an erase the device's reset of that block), built by the device's kind (encode);
// the commands a section built go out once its CPU time has run (launch), on the NVMe queue of
// the CPU that ran it; a completion lands in the FTL core's completion ring and raises the
// interrupt of that CPU (the host FTL runs its handler there), its status as the device's kind
// maps it (a status it does not expect is an FTL bug and stops the run).  In the FTL's
// functional mode (its format's factory scan) a read is answered at once from what the device
// reported at boot (factory_bad).  The kinds: Open-Channel 2.0 (oc_flash_backend.h) and zoned
// (zns_flash_backend.h).
// Leaves out: programs and erases in functional mode (a host FTL is not preconditioned), FTL
// metadata pages that need whole payloads (demand-based maps): both stop the run with a
// message; merging descriptors into larger commands.
#pragma once

#include <systemc>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/bus/mmio_device.h"
#include "models/host/host_interface.h"

extern "C" {
#include "ftl-sw/hal/regs.h"
}

namespace ssdvp {

class Dram;
class SysCtl;
struct PlatformParams;

class FlashBackEnd : public MmioDevice {
 public:
  FlashBackEnd(sc_core::sc_module_name name, uint32_t cores, Dram& mem, SysCtl& irq, uint32_t geometry_addr,
               bool payload);
  ~FlashBackEnd() override;

  // At boot, in a SystemC thread (its commands block): the device read (its geometry, the state
  // of its blocks), held against the FTL's configuration `view`, and the FTL's flash geometry
  // written to geometry_addr.  false (why: what is wrong) if the FTL cannot run on it.
  virtual bool attach_device(const PlatformParams& view, std::string& why) = 0;

  // One device command a section built.
  struct Op {
    ssd_flash_desc d{};
    uint32_t bank = 0;
    HostCommand cmd;
    std::vector<uint64_t> lbas;
    std::vector<ssd_sector_tag> tags;
    std::vector<ssd_oob> meta;
    std::vector<uint8_t> payload;
    std::vector<uint32_t> sectors;   // host-memory address of each sector's buffer
    uint32_t cpu = 0;                // whose queue it went on
  };
  using Built = std::vector<Op*>;
  // The commands built since the last call (a section's, taken while it holds the FTL's lock).
  Built take_built();
  // Those commands go out, `delay` from now, on NVMe queue `queue` of host CPU `cpu` (whose
  // interrupt their completions raise).
  void launch(const Built& ops, uint16_t queue, sc_core::sc_time delay, uint32_t cpu);
  // A completion landed in FTL core `core`'s ring: the interrupt of the CPU whose queue the
  // command went on.
  std::function<void(uint32_t cpu, uint32_t core)> on_interrupt;

  struct Counts {
    uint64_t writes = 0, reads = 0, resets = 0, lbas_written = 0, lbas_read = 0;
    uint64_t reads_from_host_copy = 0;   // reads served from what the host keeps (Open-Channel: mw_cunits)
  };
  // The bytes a read served from the host's copy moves (the running thread's CPU time).
  std::function<void(uint64_t bytes)> on_copy;
  const Counts& counts() const { return counts_; }
  // Host memory the back end keeps for the FTL beyond its own (zoned: the spare-area words).
  virtual uint64_t kept_bytes() const { return 0; }

 protected:
  uint32_t read32(uint32_t offset, sc_core::sc_time& delay) override;
  void write32(uint32_t offset, uint32_t value, sc_core::sc_time& delay) override;

  // The device's kind:
  // The command of op->d (op->cmd's opcode, lba, lba list, nsect; op->lbas): false, with
  // `why`, if the descriptor is outside the device.
  virtual bool encode(Op* op, std::string& why) = 0;
  // A read answered without the device (at once, from what the host keeps); false: send it.
  virtual bool answer_locally(Op*) { return false; }
  // op is about to go out (the host may keep something of a program, forget at a reset).
  virtual void sending(Op*) {}
  // The factory scan: the block of d is bad from the factory.
  virtual bool factory_bad(const ssd_flash_desc& d) const = 0;
  // The device's status of a command as an SSD_FST_* (0xFFFF: unexpected, an FTL bug); a read's
  // data is in op's tags, meta and payload.
  virtual uint16_t flash_status(Op* op, uint16_t status) = 0;
  // Sends op's command on its queue `delay` from now; done(status) when it completes.
  virtual void submit(Op* op, sc_core::sc_time delay, std::function<void(uint16_t)> done) = 0;
  virtual const char* device_name() const = 0;

  // A completion into `bank`'s ring (cpu: whose interrupt; kNoInterrupt: the section's own look
  // finds it).
  static constexpr uint32_t kNoInterrupt = UINT32_MAX;
  void post(uint32_t bank, uint32_t tag, uint16_t status, uint32_t cpu);
  void release(Op* op) { free_ops_.push_back(op); }

  Dram& mem_;
  uint32_t geometry_addr_;
  bool payload_;
  Counts counts_;

 private:
  struct Bank {
    uint32_t sub_addr = 0, sub_size = 0, sub_tail = 0, sub_head = 0;
    uint32_t cpl_addr = 0, cpl_size = 0, cpl_head = 0, cpl_tail = 0, cpl_phase = 1;
  };
  void take(uint32_t bank);
  void functional(Op* op);
  void done(Op* op, uint16_t status);
  Op* new_op();

  SysCtl& irq_;
  bool functional_ = false;
  std::vector<Bank> banks_;
  std::vector<std::unique_ptr<Op>> ops_;
  std::vector<Op*> free_ops_, to_launch_;
};

}  // namespace ssdvp
