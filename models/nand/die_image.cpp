// A die's array in binary (Die::save / Die::load): what survives power loss.  Per block: its
// write pointer, erase count, bad-block state, mode (SLC or native), the tags and OOB words of its programmed pages, their payloads
// (with sim.payload) or metadata payloads, and the pages power loss left unreadable.  Page
// registers, ready/busy state and statistics are not part of it (they do not survive).
#include <cstring>
#include <istream>
#include <ostream>
#include <stdexcept>

#include "models/nand/binary_record.h"
#include "models/nand/die.h"

namespace ssdvp::nand {

namespace {

constexpr uint32_t kDieMagic = 0x45494444u;   // "DDIE"
constexpr uint32_t kDieVersion = 4;          // 2: sectors stored compact (12 bytes) where they can be;
                                             // 3: a block's mode (SLC or native) is its own;
                                             // 4: a block with sectors says its form (words per sector)

using record::put;
using record::put_bytes;

template <class T>
T get(std::istream& in, const std::string& source) {
  return record::get<T>(in, source, "NAND image");
}

void get_bytes(std::istream& in, void* p, size_t n, const std::string& source) {
  record::get_bytes(in, p, n, source, "NAND image");
}

enum : uint8_t { kHasSectors = 1, kHasPayload = 2, kHasMeta = 4, kHasCorrupt = 8, kBadShift = 4,   // bits 4-5: Die::kFactoryBad/kGrownBad
                 kCompactSectors = 64,     // version 2: the sectors' words in SectorStore's compact form
                 kSlcMode = 128 };         // version 3: the block is in SLC mode (else the factory's mode)

}  // namespace

void Die::save(std::ostream& out) const {
  put(out, kDieMagic);
  put(out, kDieVersion);
  for (uint32_t v : {index_, uint32_t(cell_), planes_, blocks_per_plane_, spp_, timing_.pages_per_block,
                     pslc_blocks_, pslc_timing_.pages_per_block, uint32_t(payload_)})
    put(out, v);
  for (uint32_t pl = 0; pl < planes_; pl++)
    for (uint32_t blk = 0; blk < blocks_per_plane_; blk++) {
      const Block& b = block_at(pl, blk);
      const size_t pages = pages_of(b);
      const bool compact = b.sectors.allocated() && !b.sectors.wide();   // (as version 2 and 3 said it)
      const uint8_t flags = uint8_t((b.sectors.allocated() ? kHasSectors : 0) | (b.payload ? kHasPayload : 0) |
                                    (b.meta() ? kHasMeta : 0) | (b.corrupt() ? kHasCorrupt : 0) | b.bad << kBadShift |
                                    (compact ? kCompactSectors : 0) | (b.slc ? kSlcMode : 0));
      put(out, b.next_page);
      put(out, b.erases);
      put(out, flags);
      if (b.sectors.allocated()) put(out, uint8_t(b.sectors.form()));
      // Only the programmed pages' contents (the rest reads as erased).
      const size_t used = std::min<size_t>(b.next_page, pages) * spp_;
      if (b.sectors.allocated()) put_bytes(out, b.sectors.words(), used * b.sectors.words_per_sector() * 4);
      if (b.payload) put_bytes(out, b.payload, used * 4096);
      if (b.meta()) put_bytes(out, b.meta(), used * 4096);
      if (b.corrupt()) put_bytes(out, b.corrupt(), pages);
    }
  if (!out) throw std::runtime_error("cannot write the NAND image of die " + std::to_string(index_));
}

void Die::load(std::istream& in, const std::string& source) {
  if (get<uint32_t>(in, source) != kDieMagic) throw std::runtime_error(source + ": not a ssdvp NAND image (bad die record)");
  const uint32_t version = get<uint32_t>(in, source);
  if (version < 1 || version > kDieVersion)
    throw std::runtime_error(source + ": die record version " + std::to_string(version) + ", this build reads 1 to " +
                             std::to_string(kDieVersion));
  const char* names[] = {"die index", "cell type", "planes", "blocks per plane", "sectors per page", "pages per block",
                         "pSLC blocks per plane", "pSLC pages per block", "sim.payload"};
  const uint32_t mine[] = {index_, uint32_t(cell_), planes_, blocks_per_plane_, spp_, timing_.pages_per_block,
                           pslc_blocks_, pslc_timing_.pages_per_block, uint32_t(payload_)};
  for (size_t k = 0; k < 9; k++) {
    const uint32_t theirs = get<uint32_t>(in, source);
    if (theirs != mine[k])
      throw std::runtime_error(source + ": the image's die " + std::to_string(index_) + " has " + names[k] + " " +
                               std::to_string(theirs) + ", this platform " + std::to_string(mine[k]) +
                               " (an image loads only into the geometry that saved it)");
  }
  for (uint32_t pl = 0; pl < planes_; pl++)
    for (uint32_t blk = 0; blk < blocks_per_plane_; blk++) {
      Block& b = block_at(pl, blk);
      const bool factory_slc = blk < pslc_blocks_;
      if (b.payload) payloads_.discard(index_of(b));
      b = Block{};
      b.next_page = get<uint32_t>(in, source);
      b.erases = get<uint32_t>(in, source);
      const uint8_t flags = get<uint8_t>(in, source);
      b.bad = uint8_t(flags >> kBadShift & 3u);
      b.bad_at_power_on = b.bad != 0;
      b.slc = version >= 3 ? (flags & kSlcMode) != 0 : factory_slc;
      const size_t pages = pages_of(b), sectors = pages * spp_;
      if ((flags & kSlcMode && (version < 3 || cell_ == CellType::SLC)) || (version == 1 && flags & kCompactSectors))
        throw std::runtime_error(source + ": " + address(pl, blk, 0) + ": unknown block flags " + std::to_string(flags));
      if (b.bad > kGrownBad) throw std::runtime_error(source + ": " + address(pl, blk, 0) + ": bad block state " + std::to_string(b.bad));
      if (b.next_page > pages)
        throw std::runtime_error(source + ": " + address(pl, blk, b.next_page) + ": write pointer past the block");
      const size_t used = size_t(b.next_page) * spp_;
      if (flags & kHasSectors) {
        // Version 4 names the form; before, compact or wide (version 1 saved every block wide).
        SectorStore::Form form = flags & kCompactSectors ? SectorStore::kCompact : SectorStore::kWide;
        if (version >= 4) {
          const uint8_t f = get<uint8_t>(in, source);
          if (f < SectorStore::kLean || f > SectorStore::kWide || (f == SectorStore::kWide) == bool(flags & kCompactSectors))
            throw std::runtime_error(source + ": " + address(pl, blk, 0) + ": unknown sector form " + std::to_string(f));
          form = SectorStore::Form(f);
        }
        uint32_t* words = b.sectors.allocate_raw(sectors, form);
        get_bytes(in, words, used * b.sectors.words_per_sector() * 4, source);
      }
      if (flags & kHasPayload) {
        if (!payload_) throw std::runtime_error(source + ": " + address(pl, blk, 0) + ": payloads, but this die keeps none");
        b.payload = payloads_.slot(index_of(b));
        get_bytes(in, b.payload, used * 4096, source);
      }
      if (flags & kHasMeta) {
        get_bytes(in, b.meta(sectors * 4096), used * 4096, source);
      }
      if (flags & kHasCorrupt) {
        get_bytes(in, b.corrupt(pages), pages, source);
      }
    }
  latched_ = running_ = ArrayOp::None;
}

}  // namespace ssdvp::nand
