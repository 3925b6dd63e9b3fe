// What one NAND block holds per 4 KiB sector: the data tag (first 8 bytes of the data) and the
// OOB words the FTL wrote, as the die model keeps them for the whole drive.
//
// Most sectors say their tag's LBA twice.  Host data names its own sector in both the tag and
// the OOB's logical page; padding (a partial page filled with zeros) has a zero tag and no
// logical page in its OOB (0xFFFFFFFF); an erased sector is all ones.  And what
// preconditioning wrote (and GC has copied since) has the tag's sequence 0.  So a block is
// kept in the smallest of three forms that holds what it was given, words per sector:
//   lean (2): the OOB's two words; the tag is implied (its LBA as below, its sequence 0, or
//             all ones for an erased sector).  A preconditioned drive's blocks are all lean.
//   compact (3): the OOB's two words and the tag's sequence; the tag's LBA is implied.
//   wide (4): everything (an FTL metadata page, whose tag is map data).
// A block moves to a larger form at the first program of a sector the smaller one cannot say
// (a host write's tag has its own sequence), and an erase (reset) makes it lean again.  Reads
// return exactly what was written in every form.
// Leaves out: payloads (the die keeps them beside this store).
#pragma once

#include <algorithm>
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
  // Words per sector of each form.
  enum Form : uint8_t { kLean = 2, kCompact = 3, kWide = 4 };

  bool allocated() const { return words_ != nullptr; }
  Form form() const { return form_; }
  bool wide() const { return form_ == kWide; }
  size_t size() const { return size_; }
  // Room for n sectors, all erased (all ones), in the given form (a block's first program
  // allocates the form its sectors need: no lean array to grow at once).
  void allocate(size_t n, Form form = kLean) {
    words_.reset(new uint32_t[n * form]);
    std::fill_n(words_.get(), n * form, kNone);
    size_ = uint32_t(n);
    form_ = form;
  }
  // The smallest form that holds these sectors.
  static Form form_needed(const Sector* s, size_t n) {
    Form need = kLean;
    for (size_t k = 0; k < n && need != kWide; k++) need = std::max(need, form_for(s[k]));
    return need;
  }
  void reset() {
    words_.reset();
    size_ = 0;
    form_ = kLean;
  }

  Sector get(size_t i) const {
    const uint32_t* w = &words_[i * form_];
    switch (form_) {
      case kWide: return Sector{{w[0], w[1]}, {w[2], w[3]}};
      case kCompact: return Sector{{implied_lba(w[0], w[1], w[2]), w[2]}, {w[0], w[1]}};
      default: {
        const uint32_t seq = implied_seq(w[0], w[1]);
        return Sector{{implied_lba(w[0], w[1], seq), seq}, {w[0], w[1]}};
      }
    }
  }
  // Stores n sectors from i on (the block must be allocated with room for them).
  void put(size_t i, const Sector* s, size_t n) {
    const Form need = std::max(form_, form_needed(s, n));
    if (need != form_) grow(need);
    for (size_t k = 0; k < n; k++) {
      uint32_t* w = &words_[(i + k) * form_];
      w[0] = s[k].oob.lpa, w[1] = s[k].oob.seq;
      if (form_ == kCompact) w[2] = s[k].tag.seq;
      if (form_ == kWide) w[0] = s[k].tag.lba, w[1] = s[k].tag.seq, w[2] = s[k].oob.lpa, w[3] = s[k].oob.seq;
    }
  }

  // The words as stored (images and snapshots save them as they are): words_per_sector() each.
  size_t words_per_sector() const { return form_; }
  const uint32_t* words() const { return words_.get(); }
  // Room for n sectors in the given form, to be filled through the pointer (image loading).
  uint32_t* allocate_raw(size_t n, Form form) {
    allocate(n, form);
    return words_.get();
  }

 private:
  static constexpr uint32_t kNone = 0xFFFFFFFFu;
  // The tag's LBA a sector has in the smaller forms: its OOB's logical page (host data), else
  // all ones if the whole sector is (erased), else zero (padding).
  static uint32_t implied_lba(uint32_t lpa, uint32_t oob_seq, uint32_t tag_seq) {
    if (lpa != kNone) return lpa;
    return oob_seq == kNone && tag_seq == kNone ? kNone : 0;
  }
  // The tag's sequence a lean sector has: all ones if erased, else 0.
  static uint32_t implied_seq(uint32_t lpa, uint32_t oob_seq) { return lpa == kNone && oob_seq == kNone ? kNone : 0; }
  static Form form_for(const Sector& s) {
    if (s.tag.lba != implied_lba(s.oob.lpa, s.oob.seq, s.tag.seq)) return kWide;
    return s.tag.seq == implied_seq(s.oob.lpa, s.oob.seq) ? kLean : kCompact;
  }
  void grow(Form to) {
    std::unique_ptr<uint32_t[]> w(new uint32_t[size_t(size_) * to]);
    for (size_t i = 0; i < size_; i++) {
      const Sector s = get(i);
      uint32_t* d = &w[i * to];
      if (to == kWide) d[0] = s.tag.lba, d[1] = s.tag.seq, d[2] = s.oob.lpa, d[3] = s.oob.seq;
      else d[0] = s.oob.lpa, d[1] = s.oob.seq, d[2] = s.tag.seq;
    }
    words_ = std::move(w);
    form_ = to;
  }

  std::unique_ptr<uint32_t[]> words_;
  uint32_t size_ = 0;
  Form form_ = kLean;
};

}  // namespace ssdvp::nand
