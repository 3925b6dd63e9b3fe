// The instruction-set simulator behind Rv32Iss (Unicorn), without SystemC: hand-encoded RV32
// programs in host buffers.  Checks how runs end (per block and exact), that every
// peripheral access knows its instruction (retired count and PC) even in blocks that mix
// memory and peripheral accesses, early ends from a peripheral callback, and that the data
// address translation the wrapper sets up for speed is invisible to the program.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <memory>
#include <vector>

#include "models/cpu/rv32_iss.h"

using namespace ssdvp;

namespace {

enum Reg : unsigned { zero = 0, sp = 2, t0 = 5, t1 = 6, t2 = 7, s0 = 8, s1 = 9, a0 = 10, a1 = 11, a2 = 12 };

uint32_t itype(int32_t imm, unsigned rs1, unsigned f3, unsigned rd, unsigned op) {
  return (uint32_t(imm) & 0xFFFu) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}
uint32_t addi(unsigned rd, unsigned rs1, int32_t imm) { return itype(imm, rs1, 0, rd, 0x13); }
uint32_t lw(unsigned rd, unsigned rs1, int32_t imm) { return itype(imm, rs1, 2, rd, 0x03); }
uint32_t sw(unsigned rs2, unsigned rs1, int32_t imm) {
  return (uint32_t(imm) >> 5 & 0x7Fu) << 25 | rs2 << 20 | rs1 << 15 | 2u << 12 | (uint32_t(imm) & 0x1Fu) << 7 | 0x23;
}
uint32_t lui(unsigned rd, uint32_t upper) { return upper << 12 | rd << 7 | 0x37; }
uint32_t bne(unsigned rs1, unsigned rs2, int32_t off) {
  const uint32_t o = uint32_t(off);
  return (o >> 12 & 1u) << 31 | (o >> 5 & 0x3Fu) << 25 | rs2 << 20 | rs1 << 15 | 1u << 12 | (o >> 1 & 0xFu) << 8 |
         (o >> 11 & 1u) << 7 | 0x63;
}
uint32_t amoswap_w(unsigned rd, unsigned rs2, unsigned rs1) { return 1u << 27 | rs2 << 20 | rs1 << 15 | 2u << 12 | rd << 7 | 0x2F; }
constexpr uint32_t kEcall = 0x00000073;   // ends a program (a trap the test takes)
// c.sw rs2', uimm(rs1')
uint16_t c_sw(unsigned rs2, unsigned rs1, uint32_t uimm) {
  return uint16_t(6u << 13 | (uimm >> 3 & 7u) << 10 | (rs1 - 8) << 7 | (uimm >> 2 & 1u) << 6 | (uimm >> 6 & 1u) << 5 |
                  (rs2 - 8) << 2);
}

constexpr uint32_t kCode = 0x0, kRam = 0x80000000u, kMmio = 0x40000000u, kSize = 0x10000;

struct Program {
  std::vector<uint16_t> parcels;
  Program& op(uint32_t insn) {
    parcels.push_back(uint16_t(insn));
    parcels.push_back(uint16_t(insn >> 16));
    return *this;
  }
  Program& op16(uint16_t insn) {
    parcels.push_back(insn);
    return *this;
  }
};

// A hart with code, RAM and one peripheral window that logs every access.
struct Machine : Rv32Iss::Bus {
  struct Access {
    bool write;
    uint32_t offset, value;
    uint64_t retired;
    uint32_t pc;
    bool operator==(const Access& o) const {
      return write == o.write && offset == o.offset && value == o.value && retired == o.retired && pc == o.pc;
    }
  };
  std::unique_ptr<Rv32Iss> iss = make_unicorn_rv32();
  std::vector<uint8_t> code = std::vector<uint8_t>(kSize), ram = std::vector<uint8_t>(kSize);
  std::vector<Access> log;
  std::function<void(const Access&)> on_access;

  Machine(const Program& p, bool exact) {
    std::memcpy(code.data(), p.parcels.data(), p.parcels.size() * 2);
    iss->map_memory(kCode, kSize, code.data(), true);
    iss->map_memory(kRam, kSize, ram.data(), false);
    iss->map_mmio(kMmio, 0x1000, *this);
    iss->set_exact(exact);
    iss->set_pc(kCode);
  }
  uint32_t mmio_read(uint32_t offset, unsigned) override {
    log.push_back({false, offset, 0x1234, iss->retired(), iss->access_pc()});
    if (on_access) on_access(log.back());
    return 0x1234;
  }
  void mmio_write(uint32_t offset, unsigned, uint32_t value) override {
    log.push_back({true, offset, value, iss->retired(), iss->access_pc()});
    if (on_access) on_access(log.back());
  }
  uint32_t ram32(uint32_t off) const {
    uint32_t v;
    std::memcpy(&v, &ram[off], 4);
    return v;
  }
};

// A block of five instructions that loops (t0 counts down from 0: practically forever).
Program five_instruction_loop() {
  Program p;
  p.op(addi(t1, t1, 1)).op(addi(t1, t1, 1)).op(addi(t1, t1, 1)).op(addi(t0, t0, -1)).op(bne(t0, zero, -16));
  return p;
}

// One block (11 instructions, ecall last) mixing RAM and peripheral accesses.
Program mixed_block() {
  Program p;
  p.op(lui(s0, kMmio >> 12))      // 0   idx 0
      .op(lui(s1, kRam >> 12))    // 4   idx 1
      .op(sw(t1, s1, 0))          // 8   idx 2  RAM
      .op(lw(a0, s0, 4))          // 12  idx 3  peripheral read  +4
      .op(addi(a0, a0, 1))        // 16  idx 4
      .op(sw(a0, s1, 8))          // 20  idx 5  RAM
      .op(sw(a0, s0, 8))          // 24  idx 6  peripheral write +8
      .op(lw(a1, s0, 4))          // 28  idx 7  peripheral read  +4 again
      .op16(c_sw(a0, s0, 12))     // 32  idx 8  peripheral write +12 (compressed)
      .op(amoswap_w(a2, a0, s0))  // 34  idx 9  peripheral read and write +0
      .op(kEcall);               // 38  idx 10
  return p;
}

const std::vector<Machine::Access> kMixedBlockAccesses = {
    {false, 4, 0x1234, 4, 12}, {true, 8, 0x1235, 7, 24},  {false, 4, 0x1234, 8, 28},
    {true, 12, 0x1235, 9, 32}, {false, 0, 0x1234, 10, 34}, {true, 0, 0x1235, 10, 34},
};

}  // namespace

TEST(Rv32Iss, NamesItsEngine) {
  Machine m(five_instruction_loop(), false);
  EXPECT_EQ(m.iss->engine().rfind("Unicorn 2.", 0), 0u) << m.iss->engine();
}

TEST(Rv32Iss, BlockRunsEndAtTheFirstBlockBoundaryAtOrAfterTheBudget) {
  Machine m(five_instruction_loop(), false);
  EXPECT_FALSE(m.iss->exact());
  EXPECT_EQ(m.iss->simulate(98), 100u);   // 20 whole blocks
  EXPECT_EQ(m.iss->pc(), kCode);          // at a block start
  EXPECT_EQ(m.iss->simulate(1), 5u);      // at least one block
  EXPECT_EQ(m.iss->simulate(5), 5u);
  EXPECT_EQ(m.iss->retired(), 110u);
  EXPECT_EQ(m.iss->reg(t1), 66u);         // 22 blocks of three increments, no more
}

TEST(Rv32Iss, ExactRunsEndAtTheBudget) {
  Machine m(five_instruction_loop(), true);
  EXPECT_TRUE(m.iss->exact());
  EXPECT_EQ(m.iss->simulate(98), 98u);
  EXPECT_EQ(m.iss->pc(), kCode + 12);     // 19 blocks and three instructions
  EXPECT_EQ(m.iss->reg(t1), 60u);
  EXPECT_EQ(m.iss->simulate(2), 2u);
  EXPECT_EQ(m.iss->retired(), 100u);
}

TEST(Rv32Iss, PeripheralAccessesKnowTheirInstructionPerBlock) {
  Machine m(mixed_block(), false);
  m.iss->simulate(1000);
  Rv32Iss::Trap trap;
  ASSERT_TRUE(m.iss->take_trap(trap)) << m.iss->error();
  EXPECT_EQ(trap.cause, 11u);
  EXPECT_EQ(trap.epc, 38u);
  EXPECT_EQ(m.log, kMixedBlockAccesses);
  EXPECT_EQ(m.iss->unlocated_accesses(), 0u);
  EXPECT_EQ(m.iss->reg(a1), 0x1234u);
  EXPECT_EQ(m.ram32(8), 0x1235u);   // the RAM stores between the peripheral ones happened
}

TEST(Rv32Iss, PeripheralAccessesKnowTheirInstructionExactly) {
  Machine m(mixed_block(), true);
  m.iss->simulate(1000);
  Rv32Iss::Trap trap;
  ASSERT_TRUE(m.iss->take_trap(trap)) << m.iss->error();
  EXPECT_EQ(m.log, kMixedBlockAccesses);
}

// An end requested by a peripheral (sleep, halt) takes effect after the accessing instruction
// (exact) or at the end of its block (per block), never inside the access.
Program end_in_block() {
  Program p;
  p.op(lui(s0, kMmio >> 12))    // 0
      .op(sw(zero, s0, 0))      // 4   the peripheral asks to end here
      .op(addi(t0, t0, 1))      // 8
      .op(addi(t0, t0, 1))      // 12
      .op(bne(s0, zero, 8))     // 16  -> 24: the block ends
      .op(kEcall)              // 20
      .op(addi(t1, t1, 1))      // 24
      .op(kEcall);             // 28
  return p;
}

TEST(Rv32Iss, EarlyEndPerBlockTakesEffectAtTheBlockEnd) {
  Machine m(end_in_block(), false);
  m.on_access = [&](const Machine::Access&) { m.iss->end_after_current(); };
  EXPECT_EQ(m.iss->simulate(1000), 5u);
  EXPECT_EQ(m.iss->pc(), 24u);
  EXPECT_EQ(m.iss->reg(t0), 2u);
  EXPECT_EQ(m.iss->reg(t1), 0u);
  ASSERT_EQ(m.log.size(), 1u);   // the store was not repeated
  EXPECT_EQ(m.log[0].retired, 2u);
}

TEST(Rv32Iss, EarlyEndExactTakesEffectAfterTheInstruction) {
  Machine m(end_in_block(), true);
  m.on_access = [&](const Machine::Access&) { m.iss->end_after_current(); };
  EXPECT_EQ(m.iss->simulate(1000), 2u);
  EXPECT_EQ(m.iss->pc(), 8u);
  EXPECT_EQ(m.iss->reg(t0), 0u);
  EXPECT_EQ(m.iss->simulate(1000), 5u);   // 8, 12, 16, 24 and the ecall at 28
  ASSERT_EQ(m.log.size(), 1u);
}

TEST(Rv32Iss, DataAddressTranslationIsInvisible) {
  Program p;
  p.op(lui(s1, kRam >> 12))
      .op(addi(t0, zero, 0x55))
      .op(sw(t0, s1, 16))
      .op(lw(t1, s1, 16))
      .op(sw(t1, zero, 0x7F0))          // data in the code region
      .op(amoswap_w(t2, t0, s1))        // an atomic in RAM
      .op(lui(a0, 0x20000))             // 0x2000_0000: nothing there
      .op(sw(t0, a0, 4))
      .op(kEcall);
  for (bool exact : {false, true}) {
    Machine m(p, exact);
    std::memcpy(&m.ram[0], "\x11\x22\x33\x44", 4);
    m.iss->simulate(1000);
    EXPECT_EQ(m.ram32(16), 0x55u);
    EXPECT_EQ(m.iss->reg(t1), 0x55u);
    uint32_t in_code;
    std::memcpy(&in_code, &m.code[0x7F0], 4);
    EXPECT_EQ(in_code, 0x55u);
    EXPECT_EQ(m.iss->reg(t2), 0x44332211u);
    EXPECT_EQ(m.ram32(0), 0x55u);
    EXPECT_NE(m.iss->error().find("write to unmapped address 0x20000004"), std::string::npos) << m.iss->error();
    // The speed device behind it: data accesses go through the identity map (MPRV).
    EXPECT_TRUE(m.iss->csr(Rv32Iss::Csr::Mstatus) & (1u << 17));
  }
}

// ebreak and c.ebreak end the run as breakpoint traps (mcause 3, mepc at the instruction),
// in both counting modes, and are counted like any instruction.
TEST(Rv32Iss, EbreakIsABreakpointTrap) {
  for (bool exact : {false, true}) {
    Program p;
    p.op(addi(t0, zero, 1)).op(0x00100073).op16(0x9002);
    Machine m(p, exact);
    EXPECT_EQ(m.iss->simulate(1000), 2u);
    Rv32Iss::Trap trap;
    ASSERT_TRUE(m.iss->take_trap(trap)) << m.iss->error();
    EXPECT_EQ(trap.cause, 3u);
    EXPECT_EQ(trap.epc, 4u);
    EXPECT_TRUE(m.iss->error().empty());
    m.iss->set_pc(8);   // as a handler returning past it would
    EXPECT_EQ(m.iss->simulate(1000), 1u);
    ASSERT_TRUE(m.iss->take_trap(trap));
    EXPECT_EQ(trap.epc, 8u);
  }
}

TEST(Rv32Iss, BreakpointsMakeRunsExact) {
  Machine m(five_instruction_loop(), false);
  m.iss->set_breakpoint_filter([](uint32_t pc) { return pc == kCode + 12; });
  EXPECT_TRUE(m.iss->exact());
  EXPECT_EQ(m.iss->simulate(1000), 3u);
  EXPECT_EQ(m.iss->pc(), kCode + 12);
  m.iss->set_breakpoint_filter(nullptr);
  EXPECT_FALSE(m.iss->exact());
  EXPECT_EQ(m.iss->simulate(1), 2u);   // the rest of the block, then block boundaries again
  EXPECT_EQ(m.iss->simulate(1), 5u);
}
