// Controller DRAM: the memory the firmware's tables, rings and data buffers live in, and the
// bandwidth/latency the DMA engines see.
//
// Models: capacity (backed by lazily committed host memory, so untouched DRAM costs
// nothing), all zeros at power-on (what a controller's DRAM initialization leaves, as ECC DRAM
// needs before its first read; the firmware relies on it only where the boot configuration
// says so: ssd_fw_config.dram_zeroed), one shared data path with a bandwidth and a first-data latency.  A transfer takes
// the first idle stretch of the path long enough for it at or after its start: DMA engines
// book transfers that start in the future (a flash channel books each plane's data when it
// issues a program, up to a few hundred microseconds ahead), and a transfer asked for later
// but starting earlier still fits in the gap before them, as a DRAM controller serves
// requests as they arrive.  The firmware's own accesses go straight to the memory (DMI-like)
// and take firmware time, not DRAM bandwidth.
// Leaves out: banks, refresh, row-buffer locality, ECC.
#pragma once

#include <systemc>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "models/common/params.h"

extern "C" {
#include "ftl-sw/hal/regs.h"
}

namespace ssdvp {

class Dram {
 public:
  explicit Dram(const DramParams& p);
  ~Dram();
  Dram(const Dram&) = delete;
  Dram& operator=(const Dram&) = delete;

  uint64_t size() const { return size_; }
  // Pointer to `len` bytes at device address `addr` (SSD_DRAM_BASE-based).  Throws
  // std::out_of_range naming the address when the range is not inside the DRAM.
  uint8_t* at(uint32_t addr, uint64_t len = 1) {
    const uint64_t off = uint64_t(addr) - SSD_DRAM_BASE;
    if (addr < SSD_DRAM_BASE || off + len > size_) outside(addr, len);
    return mem_ + off;
  }
  template <class T>
  T* as(uint32_t addr) { return reinterpret_cast<T*>(at(addr, sizeof(T))); }
  uint8_t* base() { return mem_; }
  // Whether the memory is still as power-on left it, all zeros but for what the platform and
  // the firmware have written (not loaded from a snapshot's image).
  bool zeroed_at_power_on() const { return !loaded_; }

  // The 8-byte tag of the 4 KiB sector buffer at `addr`.  By default it is the buffer's first 8
  // bytes (the data carries only tags, or a pattern the tag derives); with the host's own bytes
  // (sim.host_data: keep_tags_apart) it sits in a plane beside the data, one entry per 4 KiB of
  // DRAM, as a sector's end-to-end protection information travels beside its 4 KiB, so the
  // data's 4,096 bytes are all the host's.
  ssd_sector_tag* tag(uint32_t addr) {
    if (tags_.empty()) return reinterpret_cast<ssd_sector_tag*>(at(addr, sizeof(ssd_sector_tag)));
    at(addr, 4096);
    return &tags_[(uint64_t(addr) - SSD_DRAM_BASE) >> 12];
  }
  void keep_tags_apart() { tags_.assign(size_ >> 12, ssd_sector_tag{0, 0}); }
  bool tags_apart() const { return !tags_.empty(); }

  // Where the memory sits in this process.  The host-compiled firmware keeps host pointers
  // in its tables, so a drive-state snapshot (platforms/drive_snapshot.h) resumes only over
  // DRAM at the same host address: every Dram is first asked for at kPreferredHostAddress
  // (one Dram per process gets it; a second elsewhere).
  static constexpr uintptr_t kPreferredHostAddress = uintptr_t(0x200000000000ull);
  bool at_preferred_address() const { return reinterpret_cast<uintptr_t>(mem_) == kPreferredHostAddress; }

  // The contents to `path` (a sparse file: all-zero 4 KiB pages are holes) / from it.  Throw
  // std::runtime_error naming the file.
  void save(const std::string& path) const;
  void load(const std::string& path);

  // Reserves the data path for `bytes` in its first idle stretch at or after `start`; returns
  // when the last byte has moved.
  sc_core::sc_time transfer(sc_core::sc_time start, uint64_t bytes);
  uint64_t busy_ps() const { return busy_ps_; }

 private:
  [[noreturn]] void outside(uint32_t addr, uint64_t len) const;
  uint64_t size_;
  uint8_t* mem_;
  double ps_per_byte_;
  sc_core::sc_time latency_;
  // Booked stretches of the data path [begin, end) in ps, sorted and disjoint (adjacent ones
  // merged); those over before the present are dropped as transfers come.
  std::vector<std::pair<uint64_t, uint64_t>> booked_;
  bool loaded_ = false;
  uint64_t busy_ps_ = 0;
  std::vector<ssd_sector_tag> tags_;   // with keep_tags_apart: one per 4 KiB
};

}  // namespace ssdvp
