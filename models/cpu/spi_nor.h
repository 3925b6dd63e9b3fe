// SPI NOR flash behind its controller's registers (SSD_NOR_BASE, regs.h): the controller's
// small non-volatile store beside the NAND, where the firmware keeps its bad-block table and
// its log of erase counts.
// Models: a size set by the platform (device.nor_kib), an address register with
// auto-increment, word reads, word programs that can only clear bits, 4 KiB sector erases to
// all ones, a new part reading all ones; the time a program keeps the core waiting (the
// access returns when the part is ready, as firmware polling the busy bit would), and an
// erase that runs in the background: the access that starts it returns at once, the status
// register reads busy until it is done, and any other access meanwhile waits for it.  The
// contents survive power loss with the NAND image.
// Leaves out: the SPI bus itself and its command set, execute-in-place reads, wear of the
// NOR, power loss in the middle of a program or an erase (an erase takes effect when it
// starts; nothing can read the sector before it ends).
#pragma once

#include <cstdint>
#include <vector>

#include "models/bus/mmio_device.h"

namespace ssdvp {

class SpiNor : public MmioDevice {
 public:
  SpiNor(sc_core::sc_module_name name, uint32_t bytes);
  std::vector<uint32_t>& contents() { return words_; }
  uint64_t programs() const { return programs_; }
  uint64_t erases() const { return erases_; }

 protected:
  uint32_t read32(uint32_t offset, sc_core::sc_time& delay) override;
  void write32(uint32_t offset, uint32_t value, sc_core::sc_time& delay) override;

 private:
  // An access at sc_time_stamp() + delay waits until a running erase is done.
  void wait_ready(sc_core::sc_time& delay) const;
  bool busy(const sc_core::sc_time& delay) const;

  std::vector<uint32_t> words_;
  uint32_t bytes_;
  uint32_t addr_ = 0;
  sc_core::sc_time ready_at_ = sc_core::SC_ZERO_TIME;   // the running erase ends
  uint64_t programs_ = 0, erases_ = 0;
};

}  // namespace ssdvp
