#include "models/dram/dram.h"

#include <sys/mman.h>

#include <sstream>

extern "C" {
#include "ftl-sw/hal/regs.h"
}

namespace ssdvp {

Dram::Dram(const DramParams& p)
    : size_(p.size_bytes),
      ps_per_byte_(1e6 / p.bandwidth_mbps),
      latency_(p.latency) {
  void* m = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED) throw std::runtime_error("dram: cannot reserve " + std::to_string(size_ >> 20) + " MiB of host memory");
  mem_ = static_cast<uint8_t*>(m);
}

Dram::~Dram() { munmap(mem_, size_); }

uint8_t* Dram::at(uint32_t addr, uint64_t len) {
  uint64_t off = uint64_t(addr) - SSD_DRAM_BASE;
  if (addr < SSD_DRAM_BASE || off + len > size_) {
    std::ostringstream s;
    s << "DRAM access outside the DRAM: address 0x" << std::hex << addr << std::dec << ", " << len
      << " bytes (DRAM is 0x" << std::hex << SSD_DRAM_BASE << "..0x" << (SSD_DRAM_BASE + size_ - 1) << ")";
    throw std::out_of_range(s.str());
  }
  return mem_ + off;
}

sc_core::sc_time Dram::transfer(sc_core::sc_time start, uint64_t bytes) {
  sc_core::sc_time begin = start > free_at_ ? start : free_at_;
  sc_core::sc_time dur(double(bytes) * ps_per_byte_, sc_core::SC_PS);
  free_at_ = begin + dur;
  busy_ps_ += dur.value();
  return free_at_ + latency_;
}

}  // namespace ssdvp
