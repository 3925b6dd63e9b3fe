// What one NAND block holds per 4 KiB sector: the data tag (first 8 bytes of the data) and the
// OOB words the FTL wrote, as the die model keeps them for the whole drive.
//
// Most sectors say their tag's LBA twice.  Host data names its own sector in both the tag and
// the OOB's logical page; padding (a partial page filled with zeros) has a zero tag and no
// logical page in its OOB (0xFFFFFFFF); an erased sector is all ones.  While every programmed
// sector of a block is one of these, the store keeps 12 bytes per sector (the OOB's two words
// and the tag's sequence; the tag's LBA follows from them) instead of 16: a quarter of the NAND
// model's memory on a large drive.  The first program of any other sector (an FTL metadata
// page, whose tag is map data) widens the block to the full 16 bytes; an erase (reset) makes
// it compact again.  Reads return exactly what was written either way.
// Leaves out: payloads (the die keeps them beside this store).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

extern "C" {
#include "ftl-sw/hal/regs.h"
}

namespace ssdvp::nand {

// What a 4 KiB sector holds: its data tag and its OOB words.
struct Sector {
  ssd_sector_tag tag{0xFFFFFFFFu, 0xFFFFFFFFu};  // erased flash reads as all ones
  ssd_oob oob{0xFFFFFFFFu, 0xFFFFFFFFu};
};

class SectorStore {
 public:
  bool allocated() const { return words_ != nullptr; }
  bool wide() const { return wide_; }
  size_t size() const { return size_; }
  // Room for n sectors, all erased (all ones), compact.
  void allocate(size_t n) {
    size_ = uint32_t(n);
    wide_ = false;
    words_.reset(new uint32_t[n * kCompactWords]);
    for (size_t i = 0; i < n * kCompactWords; i++) words_[i] = kNone;
  }
  void reset() {
    words_.reset();
    size_ = 0;
    wide_ = false;
  }

  Sector get(size_t i) const {
    if (wide_) {
      const uint32_t* w = &words_[i * kWideWords];
      return Sector{{w[0], w[1]}, {w[2], w[3]}};
    }
    const uint32_t* w = &words_[i * kCompactWords];
    return Sector{{implied_lba(w[0], w[1], w[2]), w[2]}, {w[0], w[1]}};
  }
  // Stores n sectors from i on (the block must be allocated with room for them).
  void put(size_t i, const Sector* s, size_t n) {
    if (!wide_)
      for (size_t k = 0; k < n; k++)
        if (s[k].tag.lba != implied_lba(s[k].oob.lpa, s[k].oob.seq, s[k].tag.seq)) {
          widen();
          break;
        }
    for (size_t k = 0; k < n; k++) {
      if (wide_) {
        uint32_t* w = &words_[(i + k) * kWideWords];
        w[0] = s[k].tag.lba, w[1] = s[k].tag.seq, w[2] = s[k].oob.lpa, w[3] = s[k].oob.seq;
      } else {
        uint32_t* w = &words_[(i + k) * kCompactWords];
        w[0] = s[k].oob.lpa, w[1] = s[k].oob.seq, w[2] = s[k].tag.seq;
      }
    }
  }

  // The words as stored (images and snapshots save them as they are): words_per_sector() each.
  size_t words_per_sector() const { return wide_ ? kWideWords : kCompactWords; }
  const uint32_t* words() const { return words_.get(); }
  // Room for n sectors in the given form, to be filled through the pointer (image loading).
  uint32_t* allocate_raw(size_t n, bool wide) {
    allocate(n);
    if (wide) widen();
    return words_.get();
  }

 private:
  static constexpr size_t kCompactWords = 3, kWideWords = 4;
  static constexpr uint32_t kNone = 0xFFFFFFFFu;
  // The tag's LBA a compact sector has: its OOB's logical page (host data), else all ones if
  // the whole sector is (erased), else zero (padding).
  static uint32_t implied_lba(uint32_t lpa, uint32_t oob_seq, uint32_t tag_seq) {
    if (lpa != kNone) return lpa;
    return oob_seq == kNone && tag_seq == kNone ? kNone : 0;
  }
  void widen() {
    std::unique_ptr<uint32_t[]> w(new uint32_t[size_t(size_) * kWideWords]);
    for (size_t i = 0; i < size_; i++) {
      const Sector s = get(i);
      w[i * 4] = s.tag.lba, w[i * 4 + 1] = s.tag.seq, w[i * 4 + 2] = s.oob.lpa, w[i * 4 + 3] = s.oob.seq;
    }
    words_ = std::move(w);
    wide_ = true;
  }

  std::unique_ptr<uint32_t[]> words_;
  uint32_t size_ = 0;
  bool wide_ = false;
};

}  // namespace ssdvp::nand
