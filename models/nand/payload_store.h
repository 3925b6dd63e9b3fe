// Where a die keeps its blocks' 4 KiB payloads (sim.payload, and the host's own bytes with
// sim.host_data): one slot per block, in address space reserved up front and committed only as
// pages are written, either memory or a sparse file on the host (ssdvp serve), so that a large
// drive costs only what is written.  A slot not written since it was opened or discarded (its
// block erased) reads as zeros; discarding gives its memory or disk space back.
// Leaves out: which pages of a slot hold data (the die knows its write pointers).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace ssdvp::nand {

class PayloadStore {
 public:
  PayloadStore() = default;
  ~PayloadStore();
  PayloadStore(const PayloadStore&) = delete;
  PayloadStore& operator=(const PayloadStore&) = delete;

  // `slots` slots of `slot_bytes` (a multiple of 4 KiB); `file` empty: memory, else a sparse
  // file created there and unlinked at once (its disk space is the process's until it ends).
  // Throws std::runtime_error naming the file.
  void open(size_t slots, size_t slot_bytes, const std::string& file = "");
  bool is_open() const { return base_ != nullptr; }
  const std::string& file() const { return file_; }
  uint8_t* slot(size_t i) const { return base_ + i * slot_bytes_; }
  void discard(size_t i);

 private:
  void close();
  uint8_t* base_ = nullptr;
  size_t slots_ = 0, slot_bytes_ = 0;
  int fd_ = -1;
  std::string file_;
};

}  // namespace ssdvp::nand
