// Fuzzing harness: the bytes of a firmware image through the ELF loader's checks
// (ElfImage::parse, what ElfImage::load does once the file is read).
//
// Covers: the ELF32 header checks, program headers and loadable segments against the regions
// an ISS core maps (its 1 MiB code region at 0 and core 0's SRAM, as IssCore::loadable_regions
// gives them), overlapping segments, the entry point, the optional symbol table.  A bad image
// must end in ElfImageError naming the file; an accepted one must keep its promises
// (segments inside a region, file bytes no more than memory bytes, the entry inside one, no
// more symbols than the file has room for).
// Leaves out: reading the file (ElfImage::load's two lines), the ISS that runs the image.
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_check.h"
#include "models/cpu/elf_image.h"

extern "C" {
#include "ftl-sw/hal/regs.h"
}

using ssdvp::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<ssdvp::MemoryRegion> regions = {{0x00000000u, 0x00100000u, "code"},
                                                          {SSD_SRAM_BASE, SSD_SRAM_PER_CORE, "SRAM"}};
  const std::vector<uint8_t> bytes(data, data + size);
  try {
    const ssdvp::ElfImage image = ssdvp::ElfImage::parse(bytes, "fuzz.elf", regions);
    bool entry_inside = false;
    for (const ssdvp::ElfSegment& s : image.segments) {
      check(s.bytes.size() <= s.memsz, "a segment with more file bytes than memory bytes");
      bool inside = false;
      for (const ssdvp::MemoryRegion& r : regions)
        inside |= s.vaddr >= r.base && uint64_t(s.vaddr) + s.memsz <= uint64_t(r.base) + r.size;
      check(inside, "a segment outside every region");
      entry_inside |= image.entry >= s.vaddr && image.entry < uint64_t(s.vaddr) + s.memsz;
    }
    check(entry_inside, "an entry point outside the segments");
    // One symbol table of 16-byte entries: a file cannot hold more symbols than this.
    check(image.symbols.size() <= bytes.size() / 16, "more symbols than the file has entries for");
  } catch (const ssdvp::ElfImageError& e) {
    check(std::string(e.what()).rfind("fuzz.elf: ", 0) == 0, std::string("an error without the file: ") + e.what());
  }
  return 0;
}
