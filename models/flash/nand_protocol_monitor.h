// A passive protocol monitor of one NAND channel's pins (rtl/nand_channel_ctrl.sv's ONFI-like
// bus): it decodes the bus cycles of each way (CE#) into operations and checks them against the
// interface's rules and against the descriptors that asked for them.
//
// Decodes, a byte per bus cycle (CLE + WE# a command byte, ALE + WE# an address byte, WE# alone
// a data byte in, RE# a data byte out, CE# low with no strobe an idle cycle):
//   read      (00h A 32h)* 00h A 30h          program  (80h A tADL D 11h)* 80h A tADL D 10h
//   erase     (60h A D1h)* 60h A D0h          data out 06h A E0h tWHR D (one plane)
//   status    70h D (the status byte, repeated to the end of the phase)
// where A is CMD_ADDR - 2 address bytes, the first the plane, and D the data bytes.
// Checks (a violation names its rule, the cycle and the signals):
//   * pins: one CE# low at most; CLE and ALE never together, each with WE# low; WE# and RE#
//     never together; nothing strobed while no CE# is low;
//   * sequence: each form's bytes in order (an unknown command, an address where a command
//     belongs, a data byte outside a data stretch, a form cut short), multi-plane forms with
//     rising planes and the same command throughout, a plane's data out only for a read of
//     that plane in flight, status only for a program or erase in flight;
//   * timing, in bus cycles, against the timing registers: CMD_ADDR - 2 address cycles, tADL =
//     DATA_SETUP idle cycles between the address and the data in, tWHR = DATA_SETUP - 3 idle
//     cycles between E0h and the data out, tRR (the data out starts at least one cycle after
//     its plane's R/B# rose), the data cycles of a plane = its bytes over the bus width;
//   * R/B#: no command to planes that are busy, no data out or status while its planes are
//     busy, and R/B# must have fallen (the array ran) between an operation's confirm and its
//     data out or status;
//   * descriptors: each operation confirmed on a way equals the next descriptor of that way
//     (operation, plane set, data bytes), and a completion handed out names an operation whose
//     every phase has crossed the pins.
// Leaves out: data values (the bytes move beside the pins), setup and hold times inside a cycle
// (the model is cycle based: a strobe is a whole cycle), tWB, cache and LUN forms, the order
// of completions (the testbenches' scoreboards).
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace ssdvp {

struct NandPins {
  uint32_t ce_n = ~0u;   // bit per way, 0 = selected
  bool cle = false, ale = false, we_n = true, re_n = true;
  uint8_t dq = 0;
};

// The pins of a Verilated channel controller (its onfi_* outputs) in this cycle.
template <class Model>
NandPins pins_of(const Model& m) {
  NandPins p;
  p.ce_n = m.onfi_ce_n;
  p.cle = m.onfi_cle;
  p.ale = m.onfi_ale;
  p.we_n = m.onfi_we_n;
  p.re_n = m.onfi_re_n;
  p.dq = m.onfi_dq;
  return p;
}

class NandProtocolMonitor {
 public:
  // ways on the channel, planes per way (R/B# each), bytes per bus cycle.
  NandProtocolMonitor(unsigned ways, unsigned planes, unsigned bus_bytes);

  void set_timing(uint32_t cmd_addr, uint32_t data_setup, uint32_t status);
  void set_independent_reads(bool on) { indep_ = on; }
  // A descriptor accepted by the controller (op: 1 read, 2 program, 3 erase; xfer: bytes per plane).
  void expect(unsigned way, int op, uint32_t mask, uint32_t xfer, uint32_t tag);
  // One bus cycle: its pins and each plane's R/B# (bit w * planes + p: 1 = ready).
  void cycle(uint64_t now, const NandPins& pins, const std::vector<bool>& plane_ready);
  // A completion handed out.
  void completed(uint64_t now, unsigned way, uint32_t tag);
  // Forgets everything in flight (the controller was reset).
  void reset();

  const std::vector<std::string>& violations() const { return violations_; }
  uint64_t operations_decoded() const { return decoded_; }
  uint64_t cycles_seen() const { return cycles_; }

 private:
  enum class Form { None, Read, Program, Erase, DataOut, Status };
  struct Op {
    int op = 0;
    uint32_t mask = 0, xfer = 0, tag = 0;
    uint32_t planes_out = 0;   // read: planes whose data out has crossed
    bool confirmed = false, saw_busy = false, status_done = false;
    uint32_t occupied = 0;
  };
  struct Way {
    std::deque<Op> queued;   // descriptors not yet confirmed on the pins
    std::vector<Op> flight;  // confirmed, not yet completed
    // the form being decoded
    Form form = Form::None;
    int step = 0;             // 0 after the command byte; addresses; ...
    uint32_t count = 0;       // cycles in the current step
    uint32_t plane = 0, planes = 0, first_cmd = 0;
    int last_plane = -1;
    uint32_t data = 0;        // data bytes in the current plane
    uint32_t target_tag = 0;  // status: the operation it reads the status of
    bool has_target = false;
  };
  void violation(uint64_t now, const std::string& rule, const std::string& what);
  void byte(uint64_t now, unsigned w, const NandPins& p, const std::vector<bool>& ready);
  void command(uint64_t now, unsigned w, uint8_t c, const std::vector<bool>& ready);
  void end_form(uint64_t now, unsigned w, const char* why);
  void confirm(uint64_t now, unsigned w, int op);
  uint32_t ready_mask(unsigned w, const std::vector<bool>& ready) const;
  uint32_t data_cycles(uint32_t xfer) const { return (xfer + bus_bytes_ - 1) / bus_bytes_; }

  unsigned ways_, planes_, bus_bytes_;
  uint32_t cmd_addr_ = 40, data_setup_ = 40, status_ = 20;
  bool indep_ = false;
  std::vector<Way> way_;
  std::vector<uint32_t> ready_prev_;   // R/B# of the previous cycle, per way
  int selected_ = -1;                  // the way whose CE# was low in the previous cycle
  uint64_t decoded_ = 0, cycles_ = 0;
  std::vector<std::string> violations_;
};

}  // namespace ssdvp
