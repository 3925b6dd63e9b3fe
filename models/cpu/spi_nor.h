// SPI NOR flash behind its controller's registers (SSD_NOR_BASE, regs.h): the controller's
// small non-volatile store beside the NAND, where the firmware keeps its bad-block table.
// Models: an address register with auto-increment, word reads, word programs that can only
// clear bits, 4 KiB sector erases to all ones, a new part reading all ones, and the time a
// program or an erase keeps the core waiting (the access returns when the part is ready, as
// firmware polling the busy bit would).  The contents survive power loss with the NAND image.
// Leaves out: the SPI bus itself and its command set, status-register polling as separate
// accesses, execute-in-place reads, wear of the NOR, power loss in the middle of a program.
#pragma once

#include <cstdint>
#include <vector>

#include "models/bus/mmio_device.h"

namespace ssdvp {

class SpiNor : public MmioDevice {
 public:
  explicit SpiNor(sc_core::sc_module_name name);
  std::vector<uint32_t>& contents() { return words_; }
  uint64_t programs() const { return programs_; }
  uint64_t erases() const { return erases_; }

 protected:
  uint32_t read32(uint32_t offset, sc_core::sc_time& delay) override;
  void write32(uint32_t offset, uint32_t value, sc_core::sc_time& delay) override;

 private:
  std::vector<uint32_t> words_;
  uint32_t addr_ = 0;
  uint64_t programs_ = 0, erases_ = 0;
};

}  // namespace ssdvp
