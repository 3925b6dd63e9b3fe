// A firmware image: an ELF32 RISC-V executable, checked and reduced to what a core loads —
// its entry point and its loadable segments, each of which must lie inside one memory region
// the core maps.  A bad image (not ELF, wrong class, endianness or machine, no entry, a
// segment outside the regions, overlapping segments, a truncated file) is an
// ElfImageError naming the file and the problem.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace ssdvp {

class ElfImageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ElfSegment {
  uint32_t vaddr = 0;
  uint32_t memsz = 0;
  std::vector<uint8_t> bytes;   // filesz bytes; the rest up to memsz is zero
};

struct MemoryRegion {
  uint32_t base, size;
  const char* name;
};

struct ElfImage {
  std::string path;
  uint32_t entry = 0;
  std::vector<ElfSegment> segments;
  // Symbol addresses (function and object symbols), for debugging and tests.
  std::vector<std::pair<std::string, uint32_t>> symbols;

  // Reads and checks `path`; segments must fall inside one of `regions`, the entry inside a
  // segment.
  static ElfImage load(const std::string& path, const std::vector<MemoryRegion>& regions);
  // The same checks on the bytes of an image already in memory (`path` names it in messages).
  static ElfImage parse(const std::vector<uint8_t>& bytes, const std::string& path,
                        const std::vector<MemoryRegion>& regions);
  uint32_t symbol(const std::string& name) const;   // throws if absent
};

}  // namespace ssdvp
