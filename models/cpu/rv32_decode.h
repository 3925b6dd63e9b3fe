// Just enough RV32IMAC decoding for an ISS wrapper that counts per basic block: the length of
// an instruction from its first 16-bit parcel, and the memory access an instruction makes
// (loads, stores, atomics; compressed forms included) with its base register and offset.
// Leaves out everything else (the ISS executes; this only reads code).
#pragma once

#include <cstdint>

namespace ssdvp {

// 2 for a compressed instruction, 4 otherwise (RV32 has no longer ones).
inline unsigned rv32_length(uint16_t first_parcel) { return (first_parcel & 3u) == 3u ? 4u : 2u; }

struct Rv32MemAccess {
  bool load = false, store = false;   // an atomic memory operation does both
  unsigned size = 0;                  // bytes
  unsigned base = 0;                  // x register holding the base address
  int32_t offset = 0;                 // added to it
};

// `insn` holds the instruction (a compressed one in its low 16 bits).  False if it makes no
// data memory access.
bool rv32_memory_access(uint32_t insn, Rv32MemAccess& out);

}  // namespace ssdvp
