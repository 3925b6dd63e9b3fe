#include "models/dram/dram.h"

#include <sys/mman.h>

#include <algorithm>
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
  const uint64_t now = sc_core::sc_time_stamp().value();
  size_t over = 0;
  while (over < booked_.size() && booked_[over].second <= now) over++;
  if (over) booked_.erase(booked_.begin(), booked_.begin() + long(over));
  const uint64_t dur = sc_core::sc_time(double(bytes) * ps_per_byte_, sc_core::SC_PS).value();
  uint64_t begin = start.value();
  size_t i = 0;
  while (i < booked_.size() && booked_[i].second <= begin) i++;   // stretches over before start
  for (; i < booked_.size(); i++) {                                  // the first gap that fits
    if (begin + dur <= booked_[i].first) break;
    begin = std::max(begin, booked_[i].second);
  }
  const uint64_t end = begin + dur;
  // Book [begin, end) before stretch i, merging with the neighbours it touches.
  if (i > 0 && booked_[i - 1].second == begin) {
    booked_[i - 1].second = end;
    if (i < booked_.size() && booked_[i].first == end) {
      booked_[i - 1].second = booked_[i].second;
      booked_.erase(booked_.begin() + long(i));
    }
  } else if (i < booked_.size() && booked_[i].first == end) {
    booked_[i].first = begin;
  } else {
    booked_.insert(booked_.begin() + long(i), {begin, end});
  }
  busy_ps_ += dur;
  return sc_core::sc_time::from_value(end) + latency_;
}

}  // namespace ssdvp
