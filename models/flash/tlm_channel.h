// Fast channel model (TLM twin of the RTL channel controller).
//
// Models: one shared bus per channel with its data rate; each operation's bus phases
// (command/address, data in/out with setup time, status read) serialised on the bus and its
// array phase overlapping with other dies' work; per-die FIFO issue order, one operation of a
// die in flight, or with independent plane reads up to kOpsInFlightPerDie reads of disjoint
// planes (a read waits behind an earlier one to its plane; a program or erase waits for the
// die's reads to finish, and later reads wait for it); bus arbitration first-come-first-served
// by the time a phase became ready (ties: lower way first, then a die's operations in flight
// by slot before its next command), which is what the RTL arbiter implements; data moved
// through the flash controller's DMA port.
// Works on the bus clock grid as the RTL does (rtl/nand_channel_ctrl.sv states the cycle
// contract): phases are whole cycles and start on a clock edge, an operation may start from
// the first edge at or after it reaches the channel, a die's R/B# is seen at the first edge
// at or after its array ends.
// Leaves out: cache read/program, interleaved multi-LUN dies, reordering a die's reads by
// plane, ONFI timing below the phase level (the RTL channel models those).
#pragma once

#include <systemc>

#include <deque>
#include <vector>

#include "models/common/event_queue.h"
#include "models/common/params.h"
#include "models/flash/channel_if.h"

namespace ssdvp {

namespace nand { class Die; }

class TlmChannel : public sc_core::sc_module, public ChannelIf {
 public:
  TlmChannel(sc_core::sc_module_name name, const ChannelParams& p, std::vector<nand::Die*> dies,
             FlashDataPort& port, EventQueue& events);

  void submit(FlashOp* op) override;
  void on_done(DoneFn fn) override { done_ = std::move(fn); }
  uint64_t bus_busy_ps() const override { return bus_busy_ps_; }
  uint64_t ops_done() const override { return ops_done_; }

 private:
  // An operation in flight, from its command phase to the end of its last bus phase (the
  // RTL's slot of the same index).
  enum class Phase : uint8_t { Free, Array, WaitBus, Hold };
  enum class BusWork : uint8_t { Command, DataOut, Status };
  struct Slot {
    FlashOp* op = nullptr;
    Phase phase = Phase::Free;
    sc_core::sc_time since;        // WaitBus: ready for the bus since; Array/Hold: until
  };
  struct Way {
    std::deque<FlashOp*> queue;    // not yet started
    Slot slots[kOpsInFlightPerDie];
  };
  static constexpr uint32_t kCommand = kOpsInFlightPerDie;   // a pick of the way's next command

  void advance();
  void update_active(uint32_t w);
  void wake_at(sc_core::sc_time t);
  // The slot the way's next operation may start its command phase in, now, and since when it
  // could; kCommand (none) if it has to wait.
  uint32_t command_slot(uint32_t w, sc_core::sc_time now, sc_core::sc_time& since) const;
  void start_bus_phase(uint32_t w, uint32_t slot, sc_core::sc_time now);
  uint32_t planes_of(const FlashOp& op) const;

  ChannelParams p_;
  std::vector<nand::Die*> dies_;
  FlashDataPort& port_;
  std::vector<Way> ways_;
  DoneFn done_;
  sc_core::sc_time bus_free_ = sc_core::SC_ZERO_TIME;
  EventQueue& events_;
  sc_core::sc_time wake_pending_ = sc_core::SC_ZERO_TIME;   // earliest scheduled wake-up
  bool has_wake_ = false;
  uint32_t active_ = 0;   // bit w: way w has a queued operation or a slot in use
  uint64_t bus_busy_ps_ = 0, ops_done_ = 0;
};

}  // namespace ssdvp
