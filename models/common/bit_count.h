// The number of set bits in a word (plane masks).  __builtin_popcount compiles to a libgcc
// call on x86-64 without -mpopcnt (which the build does not assume), and the flash path
// counts a plane mask for every sector it moves.
#pragma once

#include <cstdint>

namespace ssdvp {

constexpr uint32_t bit_count(uint32_t v) {
  v = v - ((v >> 1) & 0x55555555u);
  v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
  return (((v + (v >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24;
}

static_assert(bit_count(0) == 0 && bit_count(1) == 1 && bit_count(0xFFu) == 8 && bit_count(0xFFFFFFFFu) == 32 &&
                  bit_count(0x80000001u) == 2,
              "bit_count");

}  // namespace ssdvp
