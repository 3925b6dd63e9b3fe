// The host FTL's flash side (models/host/host_ftl.h): the FTL's flash-controller register banks
// (ftl-sw/hal/regs.h, FCTL_*) bound to an Open-Channel device's vector commands.
//
// Models: the FTL sees a flash of one plane per die whose page is a write unit (ws_min sectors):
// die = parallel unit (channel = group, way = unit), block = chunk, page = write unit.  Each
// descriptor the FTL rings in becomes one vector command over the NVMe queues and PCIe link to
// the device (models/host/oc_host.h): a program the unit's ws_min LBAs with their data tags and
// metadata (the FTL's spare-area words: its reverse map, its versions), a read the LBAs of its
// sectors, an erase a chunk reset.  The commands a section built go out once its CPU time has
// run (launch), on the NVMe queue of the CPU that ran it.  A completion lands in the FTL core's
// completion ring and raises the interrupt of that CPU (the host FTL runs its handler there): a media
// error as uncorrectable, a failed program (chunk early close) as a program failure, a failed
// reset (offline chunk) as an erase failure; any other status is an FTL bug and stops the run.
// What the spec makes the host keep, it keeps: the data of each chunk's last mw_cunits written
// (a unit is readable from the device only once mw_cunits more of its chunk are written, or the
// chunk is full); a read of such a unit is served from that copy in host memory (its bytes
// charged to the reading CPU), as pblk serves them from its ring.
// In the FTL's functional mode (its format's factory scan) a read of a chunk's first unit is
// answered at once from the chunk log read at boot: an offline chunk reads as bad from the
// factory, any other as erased.
// Leaves out: programs and erases in functional mode (a host FTL is not preconditioned), FTL
// metadata pages that need whole payloads (demand-based maps): both stop the run with a
// message; merging descriptors into larger vector commands.
#pragma once

#include <systemc>

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include "models/bus/mmio_device.h"
#include "models/host/oc_host.h"

extern "C" {
#include "ftl-sw/hal/regs.h"
}

namespace ssdvp {

class Dram;
class SysCtl;

class OcFlashBackEnd : public MmioDevice {
 public:
  OcFlashBackEnd(sc_core::sc_module_name name, uint32_t cores, Dram& mem, SysCtl& irq, OcHost& oc, uint32_t geometry_addr,
                 bool payload);

  // The device as read at boot: its geometry and chunk log (the FTL's flash geometry is
  // written to geometry_addr from it).
  void attach(const ssd_oc_geometry& g, std::vector<ssd_oc_chunk> log);
  // One device command a section built.
  struct Op;
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
    uint64_t reads_from_host_copy = 0;   // units the device could not read yet (mw_cunits)
  };
  // The bytes a read served from the host's copy moves (the running thread's CPU time).
  std::function<void(uint64_t bytes)> on_copy;
  const Counts& counts() const { return counts_; }

 protected:
  uint32_t read32(uint32_t offset, sc_core::sc_time& delay) override;
  void write32(uint32_t offset, uint32_t value, sc_core::sc_time& delay) override;

 private:
  struct Bank {
    uint32_t sub_addr = 0, sub_size = 0, sub_tail = 0, sub_head = 0;
    uint32_t cpl_addr = 0, cpl_size = 0, cpl_head = 0, cpl_tail = 0, cpl_phase = 1;
  };
  struct OpFields {
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

 public:
  struct Op : OpFields {};

 private:
  // The last mw_cunits of a chunk, kept on the host (by the chunk's log index).
  struct KeptUnit {
    uint32_t unit = 0;
    std::vector<ssd_sector_tag> tags;
    std::vector<ssd_oob> meta;
    std::vector<uint8_t> payload;
  };
  struct Kept {
    uint32_t completed = 0;           // units whose program completed, in order
    std::deque<KeptUnit> units;
  };
  std::vector<Kept> kept_;
  uint32_t mw_units_ = 0, units_per_chunk_ = 0;
  uint32_t chunk_of(const ssd_flash_desc& d) const { return (uint32_t(d.channel) * geo_.num_pu + d.way) * geo_.num_chk + d.block; }
  bool from_host_copy(Op* op);
  void send_later(Op* op);
  void take(uint32_t bank);
  void functional(Op* op);
  void done(Op* op, uint16_t oc_status);
  void post(uint32_t bank, uint32_t tag, uint16_t status, uint32_t cpu);
  uint64_t lba(uint32_t grp, uint32_t pu, uint32_t chk, uint32_t sec) const;
  Op* new_op();

  Dram& mem_;
  SysCtl& irq_;
  OcHost& oc_;
  uint32_t geometry_addr_;
  bool payload_;
  bool functional_ = false;
  ssd_oc_geometry geo_{};
  std::vector<ssd_oc_chunk> log_;
  std::vector<Bank> banks_;
  std::vector<std::unique_ptr<Op>> ops_;
  std::vector<Op*> free_ops_, to_launch_;
  Counts counts_;
};

}  // namespace ssdvp
