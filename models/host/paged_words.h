// A long array of 32-bit words that starts as zeros and takes memory only where it is written:
// pages of 1 Ki words (4 KiB, one host page), each allocated at its first write.  The integrity
// checker keeps a word per logical sector of the drive; a run that reads a preconditioned drive
// (or writes only part of it) pays for the pages it wrote, not 4 bytes for every sector (about
// 1 GiB at 256 GiB), plus a pointer per page (8 bytes per 1,024 sectors).  The pages are small
// so that a first write costs about a microsecond: with 256 KiB pages a random write to a large
// drive met a fresh page most times, and zeroing it (64 host page faults) took about 100 us,
// which `ssdvp serve --pace realtime` reported as every write's reply late.
// Leaves out: giving pages back (a page written once stays, even if it is all zeros again).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace ssdvp {

class PagedWords {
 public:
  explicit PagedWords(size_t n) : size_(n), pages_((n + kPageWords - 1) / kPageWords) {}

  size_t size() const { return size_; }
  uint32_t operator[](size_t i) const {
    const uint32_t* page = pages_[i / kPageWords].get();
    return page ? page[i % kPageWords] : 0u;
  }
  // The word for writing (its page allocated, zeros, if it was not).
  uint32_t& ref(size_t i) {
    std::unique_ptr<uint32_t[]>& page = pages_[i / kPageWords];
    if (!page) page.reset(new uint32_t[kPageWords]());
    return page[i % kPageWords];
  }
  size_t pages_allocated() const {
    size_t n = 0;
    for (const auto& p : pages_) n += p != nullptr;
    return n;
  }

 private:
  static constexpr size_t kPageWords = size_t(1) << 10;
  size_t size_;
  std::vector<std::unique_ptr<uint32_t[]>> pages_;
};

}  // namespace ssdvp
