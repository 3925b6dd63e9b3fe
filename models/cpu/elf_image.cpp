#include "models/cpu/elf_image.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

namespace ssdvp {

namespace {

// ELF32 little-endian layout (System V ABI), read field by field so that the parser does
// not depend on the host's structure packing.
struct Reader {
  const std::vector<uint8_t>& b;
  const std::string& path;
  uint32_t u32(size_t off) const {
    need(off, 4);
    return uint32_t(b[off]) | uint32_t(b[off + 1]) << 8 | uint32_t(b[off + 2]) << 16 | uint32_t(b[off + 3]) << 24;
  }
  uint16_t u16(size_t off) const {
    need(off, 2);
    return uint16_t(b[off] | b[off + 1] << 8);
  }
  void need(size_t off, size_t len) const {
    if (off + len > b.size() || off + len < off) fail("truncated file (needs bytes up to " + std::to_string(off + len) + ")");
  }
  [[noreturn]] void fail(const std::string& what) const { throw ElfImageError(path + ": bad firmware image: " + what); }
};

constexpr uint16_t kEmRiscv = 243;
constexpr uint16_t kEtExec = 2;
constexpr uint32_t kPtLoad = 1;
constexpr uint32_t kShtSymtab = 2;

std::string hex(uint32_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}

}  // namespace

ElfImage ElfImage::load(const std::string& path, const std::vector<MemoryRegion>& regions) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ElfImageError(path + ": cannot open the firmware image");
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
  return parse(bytes, path, regions);
}

ElfImage ElfImage::parse(const std::vector<uint8_t>& bytes, const std::string& path,
                         const std::vector<MemoryRegion>& regions) {
  const Reader r{bytes, path};
  r.need(0, 52);
  if (std::memcmp(bytes.data(), "\x7f" "ELF", 4) != 0) r.fail("not an ELF file");
  if (bytes[4] != 1) r.fail("not ELF32 (class " + std::to_string(bytes[4]) + ")");
  if (bytes[5] != 1) r.fail("not little-endian");
  if (r.u16(16) != kEtExec) r.fail("not an executable (e_type " + std::to_string(r.u16(16)) + ")");
  if (r.u16(18) != kEmRiscv) r.fail("wrong machine " + std::to_string(r.u16(18)) + " (RISC-V is 243)");

  ElfImage img;
  img.path = path;
  img.entry = r.u32(24);
  const uint32_t phoff = r.u32(28), shoff = r.u32(32);
  const uint16_t phentsize = r.u16(42), phnum = r.u16(44), shentsize = r.u16(46), shnum = r.u16(48);
  if (phnum == 0) r.fail("no program headers");
  if (phentsize < 32) r.fail("program header entries too small");
  for (uint16_t i = 0; i < phnum; i++) {
    const size_t ph = size_t(phoff) + size_t(i) * phentsize;
    if (r.u32(ph) != kPtLoad) continue;
    const uint32_t offset = r.u32(ph + 4), vaddr = r.u32(ph + 8), filesz = r.u32(ph + 16), memsz = r.u32(ph + 20);
    if (memsz == 0) continue;
    if (filesz > memsz) r.fail("segment at " + hex(vaddr) + " has more file bytes than memory bytes");
    r.need(offset, filesz);
    const uint64_t end = uint64_t(vaddr) + memsz;
    const bool inside = std::any_of(regions.begin(), regions.end(), [&](const MemoryRegion& m) {
      return vaddr >= m.base && end <= uint64_t(m.base) + m.size;
    });
    if (!inside) r.fail("segment " + hex(vaddr) + ".." + hex(uint32_t(end - 1)) + " is outside the core's code and SRAM regions");
    ElfSegment seg;
    seg.vaddr = vaddr;
    seg.memsz = memsz;
    seg.bytes.assign(bytes.begin() + offset, bytes.begin() + offset + filesz);
    img.segments.push_back(std::move(seg));
  }
  if (img.segments.empty()) r.fail("no loadable segment");
  std::sort(img.segments.begin(), img.segments.end(), [](const ElfSegment& a, const ElfSegment& b) { return a.vaddr < b.vaddr; });
  for (size_t i = 1; i < img.segments.size(); i++)
    if (uint64_t(img.segments[i - 1].vaddr) + img.segments[i - 1].memsz > img.segments[i].vaddr)
      r.fail("segments at " + hex(img.segments[i - 1].vaddr) + " and " + hex(img.segments[i].vaddr) + " overlap");
  const bool entry_ok = std::any_of(img.segments.begin(), img.segments.end(), [&](const ElfSegment& s) {
    return img.entry >= s.vaddr && img.entry < uint64_t(s.vaddr) + s.memsz;
  });
  if (!entry_ok) r.fail("entry point " + hex(img.entry) + " is not inside a loaded segment");

  // Symbols, if the file has a symbol table (optional; the first SHT_SYMTAB section).
  if (shoff && shnum && shentsize >= 40) {
    for (uint16_t i = 0; i < shnum; i++) {
      const size_t sh = size_t(shoff) + size_t(i) * shentsize;
      if (r.u32(sh + 4) != kShtSymtab) continue;
      const uint32_t off = r.u32(sh + 16), size = r.u32(sh + 20), link = r.u32(sh + 24), entsize = r.u32(sh + 36);
      const size_t strsh = size_t(shoff) + size_t(link) * shentsize;
      const uint32_t stroff = r.u32(strsh + 16), strsize = r.u32(strsh + 20);
      r.need(off, size);
      r.need(stroff, strsize);
      for (uint32_t e = 0; entsize >= 16 && e + entsize <= size; e += entsize) {
        const uint32_t name = r.u32(off + e), value = r.u32(off + e + 4);
        const uint8_t type = bytes[off + e + 12] & 0xF;
        if (type > 2 || name == 0 || name >= strsize) continue;   // untyped labels, objects, functions
        const char* s = reinterpret_cast<const char*>(&bytes[stroff + name]);
        img.symbols.emplace_back(std::string(s, strnlen(s, strsize - name)), value);
      }
      break;   // an ELF file has one symbol table: more section headers naming it would
               // multiply the work (size squared for a crafted file)
    }
  }
  return img;
}

uint32_t ElfImage::symbol(const std::string& name) const {
  for (const auto& [n, v] : symbols)
    if (n == name) return v;
  throw ElfImageError(path + ": no symbol '" + name + "'");
}

}  // namespace ssdvp
