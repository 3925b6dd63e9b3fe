// RTL channel: the Verilated channel controller (rtl/nand_channel_ctrl.sv as a --cc model)
// behind the channel interface, so that `channel.model = "rtl"` puts the RTL between the
// flash controller and the NAND dies.
//
// Models: one bus cycle per byte of the 8-bit bus (period 1 / channel.bus_mbps); the timing
// registers set from channel.cmd_addr_ns / data_setup_ns / status_ns in cycles, and its
// FEATURES register from nand.independent_plane_reads; the model
// clocked by hand in an SC_THREAD, in batches, never more than a few cycles ahead of SystemC
// time, and skipping the cycles in which nothing can change (the RTL says so with `quiet`:
// a long bus phase, every way waiting for its die); pin adapters that let the existing die
// models answer the phases: a die latches its command when the RTL's command phase for it
// starts (and takes program data then), starts its array on array_go (it owns tR/tPROG/tBERS
// and drives each plane's R/B#), and gives read data when the data-out phase starts; data
// moves beside the pins through the flash controller's DMA port.  Descriptors carry their arrival cycle, so
// the RTL orders them as the TLM channel does; they are fed ahead of that cycle (the flash
// controller's decode time is longer than the RTL's lead over SystemC time).  The timing
// registers are written through the RTL's register block at reset, from the configuration.
// The model carries its assertions (rtl/nand_channel_ctrl_checks.sv): one that fails ends the
// run with an error naming the bus cycle (Verilator prints the assertion and its signals).
// With channel.rtl_monitor the protocol monitor watches the pins (bus phases are then clocked
// cycle by cycle); its first violation ends the run.
// Leaves out: the register block on the firmware bus (firmware does not program the channel).
#pragma once

#include <systemc>

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "models/common/event_queue.h"
#include "models/common/params.h"
#include "models/flash/channel_if.h"
#include "models/flash/nand_protocol_monitor.h"

class Vnand_channel_ctrl16;
class VerilatedContext;
class VerilatedFstC;

namespace ssdvp {

namespace nand { class Die; }

class RtlChannel : public sc_core::sc_module, public ChannelIf {
 public:
  static constexpr uint32_t kMaxWays = 16;   // ways of the RTL instance in the platform

  // `trace`: FST waveform path ("" = none).
  // `events`: data movement through `port` happens at the SystemC time of the bus phase (as in
  // the TLM channel), not when the RTL, running ahead, clocks it.
  RtlChannel(sc_core::sc_module_name name, const ChannelParams& p, std::vector<nand::Die*> dies, FlashDataPort& port,
             EventQueue& events, sc_core::sc_time max_lead, const std::string& trace = "");
  ~RtlChannel() override;

  void submit(FlashOp* op) override;
  void on_done(DoneFn fn) override { done_ = std::move(fn); }
  uint64_t bus_busy_ps() const override { return bus_busy_cycles_ * period_ps_; }
  uint64_t ops_done() const override { return ops_done_; }
  // A register of the RTL's register block (see rtl/nand_channel_ctrl.sv).
  uint32_t read_register(uint32_t addr);
  // Operations that reached the RTL after their start cycle had been clocked (the RTL ran
  // too far ahead of SystemC time): each may start later than in the TLM channel.  0 when
  // the submitter keeps the contract.
  uint64_t late_starts() const { return late_starts_; }
  // Cycles the Verilated model was clocked (the others were skipped as quiet).
  uint64_t cycles_clocked() const { return cycles_clocked_; }
  // channel.rtl_monitor: the protocol monitor on the pins (null without it).
  const NandProtocolMonitor* monitor() const { return monitor_.get(); }

  static constexpr uint32_t kRegCmdAddr = 0, kRegDataSetup = 1, kRegStatus = 2, kRegId = 3, kRegWaysBusy = 4,
                            kRegQueued = 5, kRegCompleted = 6, kRegBusCycles = 7, kRegFeatures = 8,
                            kRegInFlight = 9;

 private:
  static constexpr uint32_t kRtlQueue = 8;    // the RTL's descriptor queue per way (QDEPTH)
  static constexpr uint32_t kRtlPlanes = 8;   // the RTL's plane mask width (PLANES)

  struct Started {                // an operation in one of the way's RTL slots
    FlashOp* op;
    sc_core::sc_time dram_done;   // program data in the die's register / read data in DRAM
  };
  struct Way {
    std::deque<FlashOp*> waiting; // submitted, not yet taken by the RTL (its queue was full)
    std::deque<FlashOp*> queue;   // in the RTL's queue, not yet started, oldest first
    std::vector<Started> started; // started, not yet completed
    FlashOp* slot[kOpsInFlightPerDie] = {};   // the operation each RTL slot started last
    uint64_t ready_cycle[kRtlPlanes] = {};    // each plane's R/B# rises at this cycle
    Started& of(const FlashOp* op);
  };
  void run();
  void present_cycle();
  void tick();
  void phase_started(uint32_t way, uint32_t slot, uint32_t phase, uint64_t cycle);
  uint64_t cycle_of(const sc_core::sc_time& t) const;   // first cycle at or after t
  sc_core::sc_time time_of(uint64_t cycle) const;
  uint64_t next_event_cycle() const;
  bool in_flight() const;
  Way* next_to_feed();   // the way whose waiting operation arrived first and fits

  ChannelParams p_;
  std::vector<nand::Die*> dies_;
  FlashDataPort& port_;
  EventQueue& events_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vnand_channel_ctrl16> m_;
  std::unique_ptr<VerilatedFstC> fst_;
  std::unique_ptr<NandProtocolMonitor> monitor_;
  std::vector<bool> ready_bits_;   // the R/B# the monitor sees
  void monitor_cycle();
  uint64_t period_ps_;
  uint64_t lead_cycles_;
  std::vector<Way> ways_;
  DoneFn done_;
  sc_core::sc_event wake_;
  uint64_t cycle_ = 0;             // the next cycle to clock
  uint64_t bus_busy_cycles_ = 0, ops_done_ = 0, late_starts_ = 0, cycles_clocked_ = 0;
};

}  // namespace ssdvp
