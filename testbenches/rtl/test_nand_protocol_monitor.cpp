// The NAND protocol monitor (models/flash/nand_protocol_monitor.h) on hand-written bus cycles:
// the legal forms pass, and each broken rule is reported under its name.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "models/flash/nand_protocol_monitor.h"

namespace {

using ssdvp::NandPins;
using ssdvp::NandProtocolMonitor;

constexpr unsigned kWays = 2, kPlanes = 4;

// Writes bus cycles for way 0 into a monitor, with R/B# as set.
class Bus {
 public:
  Bus() : m(kWays, kPlanes, 1), ready(kWays * kPlanes, true) { m.set_timing(4, 5, 3); }   // CMD_ADDR 4: 2 address bytes
  void cmd(uint8_t c) { cyc(true, false, false, true, c); }
  void addr(uint8_t a) { cyc(false, true, false, true, a); }
  void din() { cyc(false, false, false, true, 0); }
  void dout() { cyc(false, false, true, false, 0); }
  void idle(int n = 1) {
    for (int i = 0; i < n; i++) cyc(false, false, true, true, 0);
  }
  void off(int n = 1) {   // no CE# low
    for (int i = 0; i < n; i++) {
      NandPins p;
      m.cycle(now++, p, ready);
    }
  }
  void busy(int plane_mask, int cycles) {   // way 0's planes busy for a while, then ready
    for (unsigned p = 0; p < kPlanes; p++)
      if (plane_mask >> p & 1) ready[p] = false;
    off(cycles);
    for (unsigned p = 0; p < kPlanes; p++) ready[p] = true;
    off(1);
  }
  // A single-plane read of plane 1 (4 data bytes), its array and its data out.
  void read_plane1(int dout_bytes = 4, int twhr = 2) {
    cmd(0x00), addr(1), addr(0), cmd(0x30);
    off();
    busy(0xF, 10);
    cmd(0x06), addr(1), cmd(0xE0), idle(twhr);
    for (int i = 0; i < dout_bytes; i++) dout();
    off();
  }
  std::string first() const { return m.violations().empty() ? "" : m.violations().front(); }

  NandProtocolMonitor m;
  std::vector<bool> ready;
  uint64_t now = 0;
  uint32_t ce_n = 0b10;   // way 0 selected

 private:
  void cyc(bool cle, bool ale, bool we_n, bool re_n, uint8_t dq) {
    NandPins p;
    p.ce_n = ce_n;
    p.cle = cle;
    p.ale = ale;
    p.we_n = !(cle || ale) ? we_n : false;
    p.re_n = re_n;
    p.dq = dq;
    m.cycle(now++, p, ready);
  }
};

TEST(NandProtocolMonitor, LegalFormsPass) {
  Bus b;
  b.m.expect(0, 1, 0b0010, 4, 7);
  b.read_plane1();
  b.m.completed(b.now, 0, 7);
  // A two-plane program (planes 0 and 2, 3 bytes each), then its status.
  b.m.expect(0, 2, 0b0101, 3, 8);
  b.cmd(0x80), b.addr(0), b.addr(0), b.idle(5), b.din(), b.din(), b.din(), b.cmd(0x11);
  b.cmd(0x80), b.addr(2), b.addr(0), b.idle(5), b.din(), b.din(), b.din(), b.cmd(0x10);
  b.off();
  b.busy(0xF, 20);
  b.cmd(0x70), b.dout(), b.dout();
  b.off();
  b.m.completed(b.now, 0, 8);
  // An erase.
  b.m.expect(0, 3, 0b0001, 0, 9);
  b.cmd(0x60), b.addr(0), b.addr(0), b.cmd(0xD0);
  b.off();
  b.busy(0xF, 30);
  b.cmd(0x70), b.dout(), b.dout();
  b.off();
  b.m.completed(b.now, 0, 9);
  EXPECT_EQ(b.first(), "");
  EXPECT_EQ(b.m.operations_decoded(), 3u);
}

TEST(NandProtocolMonitor, EachBrokenRuleIsNamed) {
  struct Case {
    const char* rule;
    void (*run)(Bus&);
  };
  const Case cases[] = {
      {"[one CE#]", [](Bus& b) { b.ce_n = 0b00, b.m.expect(0, 1, 2, 4, 1), b.read_plane1(); }},
      {"[address cycles]", [](Bus& b) { b.m.expect(0, 1, 2, 4, 1), b.cmd(0x00), b.addr(1), b.addr(0), b.addr(0); }},
      {"[sequence]", [](Bus& b) { b.cmd(0x55); }},
      {"[descriptor]", [](Bus& b) { b.m.expect(0, 1, 0b0100, 4, 1), b.read_plane1(); }},
      {"[data cycles]", [](Bus& b) { b.m.expect(0, 1, 2, 4, 1), b.read_plane1(5); }},
      {"[tWHR]", [](Bus& b) { b.m.expect(0, 1, 2, 4, 1), b.read_plane1(4, 1); }},
      {"[tADL]", [](Bus& b) { b.m.expect(0, 2, 1, 1, 1), b.cmd(0x80), b.addr(0), b.addr(0), b.idle(4), b.din(), b.cmd(0x10); }},
      {"[R/B#]", [](Bus& b) {
         b.m.expect(0, 1, 2, 4, 1), b.cmd(0x00), b.addr(1), b.addr(0), b.cmd(0x30), b.off();
         b.cmd(0x06), b.addr(1), b.cmd(0xE0), b.idle(2), b.dout(), b.dout(), b.dout(), b.dout(), b.off();   // R/B# never fell
       }},
      {"[tRR]", [](Bus& b) {
         b.m.expect(0, 1, 2, 4, 1), b.cmd(0x00), b.addr(1), b.addr(0), b.cmd(0x30);
         b.ready[1] = false, b.off(5);
         b.cmd(0x06), b.addr(1), b.cmd(0xE0), b.idle(2);
         b.ready[1] = true, b.dout();   // R/B# rises in the cycle the data out begins
       }},
      {"[address cycles]", [](Bus& b) { b.m.expect(0, 3, 1, 0, 1), b.cmd(0x60), b.addr(0), b.cmd(0xD0); }},
      {"[completion]", [](Bus& b) {
         b.m.expect(0, 1, 2, 4, 1), b.cmd(0x00), b.addr(1), b.addr(0), b.cmd(0x30), b.off(), b.m.completed(b.now, 0, 1);
       }},
      {"[status cycles]", [](Bus& b) {
         b.m.expect(0, 3, 1, 0, 1), b.cmd(0x60), b.addr(0), b.addr(0), b.cmd(0xD0), b.off(), b.busy(0xF, 5);
         b.cmd(0x70), b.dout(), b.off();
       }},
      {"[CLE/ALE]", [](Bus& b) {
         NandPins p;
         p.ce_n = 0b10, p.cle = p.ale = true, p.we_n = false;
         b.m.cycle(0, p, b.ready);
       }},
  };
  for (const Case& c : cases) {
    Bus b;
    c.run(b);
    EXPECT_NE(b.first().find(c.rule), std::string::npos) << c.rule << ": got \"" << b.first() << "\"";
  }
}

}  // namespace
