#include "models/nand/payload_store.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace ssdvp::nand {

PayloadStore::~PayloadStore() { close(); }

void PayloadStore::close() {
  if (base_) ::munmap(base_, slots_ * slot_bytes_);
  if (fd_ >= 0) ::close(fd_);
  base_ = nullptr;
  fd_ = -1;
}

void PayloadStore::open(size_t slots, size_t slot_bytes, const std::string& file) {
  close();
  slots_ = slots;
  slot_bytes_ = slot_bytes;
  file_ = file;
  const size_t bytes = slots * slot_bytes;
  if (bytes == 0) return;
  void* m = MAP_FAILED;
  if (file.empty()) {
    m = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED)
      throw std::runtime_error("cannot reserve " + std::to_string(bytes >> 20) + " MiB of address space for a die's payloads: " +
                               std::strerror(errno));
  } else {
    fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0 || ::ftruncate(fd_, off_t(bytes)) != 0)
      throw std::runtime_error("cannot make the sparse payload file " + file + ": " + std::strerror(errno));
    m = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
    if (m == MAP_FAILED) throw std::runtime_error("cannot map the payload file " + file + ": " + std::strerror(errno));
    ::unlink(file.c_str());   // it lives while mapped and goes with the process, however that ends
  }
  base_ = static_cast<uint8_t*>(m);
}

void PayloadStore::discard(size_t i) {
  if (!base_) return;
  if (fd_ >= 0) {
    // The hole reads as zeros through the mapping, and its disk space is free again.
    if (::fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off_t(i * slot_bytes_), off_t(slot_bytes_)) != 0)
      std::memset(slot(i), 0, slot_bytes_);   // (a file system without holes: zeros written)
  } else {
    ::madvise(slot(i), slot_bytes_, MADV_DONTNEED);   // private anonymous: zeros on the next touch
  }
}

}  // namespace ssdvp::nand
