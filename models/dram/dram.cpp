#include "models/dram/dram.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <algorithm>
#include <sstream>

extern "C" {
#include "ftl-sw/hal/regs.h"
}

#include "models/common/sim_time.h"

namespace ssdvp {

Dram::Dram(const DramParams& p)
    : size_(p.size_bytes),
      ps_per_byte_(1e6 / p.bandwidth_mbps),
      latency_(p.latency) {
  constexpr int kFlags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
  void* m = mmap(reinterpret_cast<void*>(kPreferredHostAddress), size_, PROT_READ | PROT_WRITE,
                 kFlags | MAP_FIXED_NOREPLACE, -1, 0);
  if (m != MAP_FAILED && m != reinterpret_cast<void*>(kPreferredHostAddress)) {   // kernels before 4.17
    munmap(m, size_);
    m = MAP_FAILED;
  }
  if (m == MAP_FAILED) m = mmap(nullptr, size_, PROT_READ | PROT_WRITE, kFlags, -1, 0);
  if (m == MAP_FAILED) throw std::runtime_error("dram: cannot reserve " + std::to_string(size_ >> 20) + " MiB of host memory");
  mem_ = static_cast<uint8_t*>(m);
}

Dram::~Dram() { munmap(mem_, size_); }

void Dram::outside(uint32_t addr, uint64_t len) const {
  std::ostringstream s;
  s << "DRAM access outside the DRAM: address 0x" << std::hex << addr << std::dec << ", " << len
    << " bytes (DRAM is 0x" << std::hex << SSD_DRAM_BASE << "..0x" << (SSD_DRAM_BASE + size_ - 1) << ")";
  throw std::out_of_range(s.str());
}

void Dram::save(const std::string& path) const {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) throw std::runtime_error(path + ": cannot write the DRAM image: " + std::strerror(errno));
  constexpr uint64_t kPage = 4096;
  static const uint8_t zero[kPage] = {};
  bool ok = true;
  for (uint64_t off = 0; ok && off < size_; off += kPage) {
    const uint64_t n = std::min(kPage, size_ - off);
    if (std::memcmp(mem_ + off, zero, n) == 0) continue;   // a hole
    for (uint64_t done = 0; ok && done < n;) {
      const ssize_t w = ::pwrite(fd, mem_ + off + done, n - done, off_t(off + done));
      ok = w > 0;
      if (ok) done += uint64_t(w);
    }
  }
  ok = ok && ::ftruncate(fd, off_t(size_)) == 0;
  const int err = errno;
  ok = (::close(fd) == 0) && ok;
  if (!ok) throw std::runtime_error(path + ": cannot write the DRAM image: " + std::strerror(err));
}

void Dram::load(const std::string& path) {
  loaded_ = true;
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) throw std::runtime_error(path + ": cannot read the DRAM image: " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || uint64_t(st.st_size) != size_) {
    ::close(fd);
    throw std::runtime_error(path + ": the DRAM image holds " + std::to_string(uint64_t(st.st_size) >> 20) +
                             " MiB, this platform's DRAM is " + std::to_string(size_ >> 20) + " MiB (dram.size_mib)");
  }
  // Only the data: the holes stay the fresh mapping's zeros (and cost no memory).
  uint64_t off = 0;
  bool ok = true;
  while (ok && off < size_) {
    const off_t data = ::lseek(fd, off_t(off), SEEK_DATA);
    if (data < 0) break;   // ENXIO: only holes from here
    off_t hole = ::lseek(fd, data, SEEK_HOLE);
    if (hole < 0) hole = off_t(size_);
    for (uint64_t at = uint64_t(data); ok && at < uint64_t(hole);) {
      const ssize_t r = ::pread(fd, mem_ + at, uint64_t(hole) - at, off_t(at));
      ok = r > 0;
      if (ok) at += uint64_t(r);
    }
    off = uint64_t(hole);
  }
  ::close(fd);
  if (!ok) throw std::runtime_error(path + ": cannot read the DRAM image (truncated?)");
}

sc_core::sc_time Dram::transfer(sc_core::sc_time start, uint64_t bytes) {
  const uint64_t now = sc_core::sc_time_stamp().value();
  size_t over = 0;
  while (over < booked_.size() && booked_[over].second <= now) over++;
  if (over) booked_.erase(booked_.begin(), booked_.begin() + long(over));
  const uint64_t dur = round_ps(double(bytes) * ps_per_byte_);
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
  return time_ps(end) + latency_;
}

}  // namespace ssdvp
