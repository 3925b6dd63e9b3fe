// The RV32IMAC decoding the ISS wrapper uses to count instructions and locate peripheral
// accesses.  Encodings come from riscv64-unknown-elf-as (objdump -M no-aliases in comments).
#include <gtest/gtest.h>

#include "models/cpu/rv32_decode.h"

using namespace ssdvp;

namespace {

struct Expect {
  uint32_t insn;
  const char* text;
  bool load, store;
  unsigned size, base;
  int32_t offset;
};

}  // namespace

TEST(Rv32Decode, LengthFromTheFirstParcel) {
  EXPECT_EQ(rv32_length(0x2783), 4u);   // lw a5,-4(a0): low half of ffc52783
  EXPECT_EQ(rv32_length(0x5d7c), 2u);   // c.lw a5,124(a0)
  EXPECT_EQ(rv32_length(0x0001), 2u);   // c.nop
  EXPECT_EQ(rv32_length(0x0073), 4u);   // ecall
}

TEST(Rv32Decode, LoadsStoresAndAtomicsWithTheirAddresses) {
  const Expect cases[] = {
      {0xffc52783, "lw a5,-4(a0)", true, false, 4, 10, -4},
      {0x00649303, "lh t1,6(s1)", true, false, 2, 9, 6},
      {0x7ff14603, "lbu a2,2047(sp)", true, false, 1, 2, 2047},
      {0x8013a023, "sw ra,-2048(t2)", false, true, 4, 7, -2048},
      {0x00a400a3, "sb a0,1(s0)", false, true, 1, 8, 1},
      {0x5d7c, "c.lw a5,124(a0)", true, false, 4, 10, 124},
      {0xc0b8, "c.sw a4,64(s1)", false, true, 4, 9, 64},
      {0x50fe, "c.lwsp ra,252(sp)", true, false, 4, 2, 252},
      {0xc322, "c.swsp s0,132(sp)", false, true, 4, 2, 132},
      {0x1005a52f, "lr.w a0,(a1)", true, false, 4, 11, 0},
      {0x18c5a52f, "sc.w a0,a2,(a1)", false, true, 4, 11, 0},
      {0x08c4252f, "amoswap.w a0,a2,(s0)", true, true, 4, 8, 0},
      {0x0053202f, "amoadd.w zero,t0,(t1)", true, true, 4, 6, 0},
  };
  for (const Expect& e : cases) {
    Rv32MemAccess m;
    ASSERT_TRUE(rv32_memory_access(e.insn, m)) << e.text;
    EXPECT_EQ(m.load, e.load) << e.text;
    EXPECT_EQ(m.store, e.store) << e.text;
    EXPECT_EQ(m.size, e.size) << e.text;
    EXPECT_EQ(m.base, e.base) << e.text;
    EXPECT_EQ(m.offset, e.offset) << e.text;
  }
}

TEST(Rv32Decode, OtherInstructionsMakeNoAccess) {
  Rv32MemAccess m;
  EXPECT_FALSE(rv32_memory_access(0x00150513, m));   // addi a0,a0,1
  EXPECT_FALSE(rv32_memory_access(0x0505, m));       // c.addi a0,1
  EXPECT_FALSE(rv32_memory_access(0x0001, m));       // c.nop
  EXPECT_FALSE(rv32_memory_access(0x00000073, m));   // ecall
  EXPECT_FALSE(rv32_memory_access(0x8082, m));       // c.jr ra
  EXPECT_FALSE(rv32_memory_access(0x6188, m));       // c.flw a0,0(a1): RV32F, not in RV32IMAC
  EXPECT_FALSE(rv32_memory_access(0x0005b503, m));   // ld a0,0(a1): RV64 only
}
