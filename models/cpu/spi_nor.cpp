#include "models/cpu/spi_nor.h"

extern "C" {
#include "ftl-sw/hal/regs.h"
}

namespace ssdvp {

SpiNor::SpiNor(sc_core::sc_module_name name, uint32_t bytes)
    : MmioDevice(name), words_(bytes / 4, 0xFFFFFFFFu), bytes_(bytes) {}

bool SpiNor::busy(const sc_core::sc_time& delay) const { return sc_core::sc_time_stamp() + delay < ready_at_; }

void SpiNor::wait_ready(sc_core::sc_time& delay) const {
  if (busy(delay)) delay = ready_at_ - sc_core::sc_time_stamp();
}

uint32_t SpiNor::read32(uint32_t offset, sc_core::sc_time& delay) {
  switch (offset) {
    case NOR_SIZE: return bytes_;
    case NOR_ADDR: return addr_;
    case NOR_STATUS: return busy(delay) ? NOR_STATUS_BUSY : 0u;
    case NOR_DATA: {
      wait_ready(delay);
      const uint32_t v = addr_ < bytes_ ? words_[addr_ / 4] : 0xFFFFFFFFu;
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
      wait_ready(delay);
      if (addr_ < bytes_) {
        words_[addr_ / 4] &= value;          // NOR: a program only clears bits
        delay += sc_core::sc_time(double(SSD_NOR_PROGRAM_NS), sc_core::SC_NS);
        programs_++;
      }
      addr_ += 4;
      break;
    case NOR_ERASE:
      wait_ready(delay);
      if (addr_ < bytes_) {
        const uint32_t first = addr_ / 4096 * 1024;
        for (uint32_t i = 0; i < 1024; i++) words_[first + i] = 0xFFFFFFFFu;
        ready_at_ = sc_core::sc_time_stamp() + delay + sc_core::sc_time(double(SSD_NOR_ERASE_NS), sc_core::SC_NS);
        erases_++;
      }
      break;
    default: break;
  }
}

}  // namespace ssdvp
