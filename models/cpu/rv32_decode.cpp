#include "models/cpu/rv32_decode.h"

namespace ssdvp {

namespace {

constexpr uint32_t bits(uint32_t v, unsigned hi, unsigned lo) { return (v >> lo) & ((1u << (hi - lo + 1)) - 1u); }

int32_t sign_extend(uint32_t v, unsigned width) {
  const uint32_t m = 1u << (width - 1);
  return int32_t((v ^ m) - m);
}

bool compressed(uint16_t c, Rv32MemAccess& out) {
  const uint32_t quadrant = c & 3u, funct3 = bits(c, 15, 13);
  if (quadrant == 0 && (funct3 == 2 || funct3 == 6)) {   // c.lw / c.sw rd', uimm(rs1')
    out.load = funct3 == 2;
    out.store = funct3 == 6;
    out.size = 4;
    out.base = 8 + bits(c, 9, 7);
    out.offset = int32_t((bits(c, 12, 10) << 3) | (bits(c, 6, 6) << 2) | (bits(c, 5, 5) << 6));
    return true;
  }
  if (quadrant == 2 && funct3 == 2 && bits(c, 11, 7) != 0) {   // c.lwsp rd, uimm(sp)
    out.load = true;
    out.size = 4;
    out.base = 2;
    out.offset = int32_t((bits(c, 12, 12) << 5) | (bits(c, 6, 4) << 2) | (bits(c, 3, 2) << 6));
    return true;
  }
  if (quadrant == 2 && funct3 == 6) {   // c.swsp rs2, uimm(sp)
    out.store = true;
    out.size = 4;
    out.base = 2;
    out.offset = int32_t((bits(c, 12, 9) << 2) | (bits(c, 8, 7) << 6));
    return true;
  }
  return false;
}

}  // namespace

bool rv32_memory_access(uint32_t insn, Rv32MemAccess& out) {
  out = Rv32MemAccess{};
  if (rv32_length(uint16_t(insn)) == 2) return compressed(uint16_t(insn), out);
  const uint32_t opcode = bits(insn, 6, 0), funct3 = bits(insn, 14, 12);
  out.base = bits(insn, 19, 15);
  switch (opcode) {
    case 0x03:   // lb lh lw lbu lhu
      if (funct3 == 3 || funct3 > 5) return false;
      out.load = true;
      out.size = 1u << (funct3 & 3u);
      out.offset = sign_extend(bits(insn, 31, 20), 12);
      return true;
    case 0x23:   // sb sh sw
      if (funct3 > 2) return false;
      out.store = true;
      out.size = 1u << funct3;
      out.offset = sign_extend((bits(insn, 31, 25) << 5) | bits(insn, 11, 7), 12);
      return true;
    case 0x2F: {   // lr.w, sc.w, amo*.w
      if (funct3 != 2) return false;
      const uint32_t funct5 = bits(insn, 31, 27);
      out.load = funct5 != 0x03;    // sc.w only stores
      out.store = funct5 != 0x02;   // lr.w only loads
      out.size = 4;
      return true;
    }
    default:
      return false;
  }
}

}  // namespace ssdvp
