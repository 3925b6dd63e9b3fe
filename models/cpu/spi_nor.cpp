#include "models/cpu/spi_nor.h"

extern "C" {
#include "ftl-sw/hal/regs.h"
}

namespace ssdvp {

SpiNor::SpiNor(sc_core::sc_module_name name) : MmioDevice(name), words_(SSD_NOR_BYTES / 4, 0xFFFFFFFFu) {}

uint32_t SpiNor::read32(uint32_t offset, sc_core::sc_time&) {
  switch (offset) {
    case NOR_SIZE: return SSD_NOR_BYTES;
    case NOR_ADDR: return addr_;
    case NOR_DATA: {
      const uint32_t v = addr_ < SSD_NOR_BYTES ? words_[addr_ / 4] : 0xFFFFFFFFu;
      addr_ += 4;
      return v;
    }
    default: return 0;
  }
}

void SpiNor::write32(uint32_t offset, uint32_t value, sc_core::sc_time& delay) {
  switch (offset) {
    case NOR_ADDR: addr_ = value & ~3u; break;
    case NOR_PROGRAM:
      if (addr_ < SSD_NOR_BYTES) {
        words_[addr_ / 4] &= value;          // NOR: a program only clears bits
        delay += sc_core::sc_time(double(SSD_NOR_PROGRAM_NS), sc_core::SC_NS);
        programs_++;
      }
      addr_ += 4;
      break;
    case NOR_ERASE:
      if (addr_ < SSD_NOR_BYTES) {
        const uint32_t first = addr_ / 4096 * 1024;
        for (uint32_t i = 0; i < 1024; i++) words_[first + i] = 0xFFFFFFFFu;
        delay += sc_core::sc_time(double(SSD_NOR_ERASE_NS), sc_core::SC_NS);
        erases_++;
      }
      break;
    default: break;
  }
}

}  // namespace ssdvp
