// RTL channel: the Verilated channel controller (rtl/nand_channel_ctrl.sv as a --cc model)
// behind the channel interface, so that `channel.model = "rtl"` puts the RTL between the
// flash controller and the NAND dies.
//
// Models: one bus cycle per byte of the 8-bit bus (period 1 / channel.bus_mbps); the timing
// registers set from channel.cmd_addr_ns / data_setup_ns / status_ns in cycles; the model
// clocked by hand in an SC_THREAD, in batches, never more than a few cycles ahead of SystemC
// time, and skipping the cycles in which nothing can change (the RTL says so with `quiet`:
// a long bus phase, every way waiting for its die); pin adapters that let the existing die
// models answer the phases: a die latches its command when the RTL's command phase for it
// starts (and takes program data then), starts its array on array_go (it owns tR/tPROG/tBERS
// and drives R/B#), and gives read data when the data-out phase starts; data moves beside the
// pins through the flash controller's DMA port.  Descriptors carry their arrival cycle, so
// the RTL orders them as the TLM channel does even when they are fed a batch late.
// Leaves out: the RTL's register block on the firmware bus (the timing registers come from
// the configuration).
#pragma once

#include <systemc>

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "models/common/params.h"
#include "models/flash/channel_if.h"

class Vnand_channel_ctrl16;
class VerilatedContext;
class VerilatedFstC;

namespace ssdvp {

namespace nand { class Die; }

class RtlChannel : public sc_core::sc_module, public ChannelIf {
 public:
  static constexpr uint32_t kMaxWays = 16;   // ways of the RTL instance in the platform

  // `trace`: FST waveform path ("" = none).
  RtlChannel(sc_core::sc_module_name name, const ChannelParams& p, std::vector<nand::Die*> dies, FlashDataPort& port,
             sc_core::sc_time max_lead, const std::string& trace = "");
  ~RtlChannel() override;

  void submit(FlashOp* op) override;
  void on_done(DoneFn fn) override { done_ = std::move(fn); }
  uint64_t bus_busy_ps() const override { return bus_busy_cycles_ * period_ps_; }
  uint64_t ops_done() const override { return ops_done_; }

 private:
  static constexpr uint32_t kRtlQueue = 8;   // the RTL's descriptor queue per way (QDEPTH)

  struct Way {
    std::deque<FlashOp*> waiting; // submitted, not yet taken by the RTL (its queue was full)
    std::deque<FlashOp*> queue;   // given to the RTL, oldest first
    bool latched = false;         // the head's command went to the die
    bool out_started = false;     // the head's read data went to DRAM
    uint64_t ready_cycle = 0;     // R/B# rises at this cycle
    sc_core::sc_time dram_done;
  };
  void run();
  void tick();
  void phase_started(uint32_t way, uint32_t phase, uint64_t cycle);
  uint64_t cycle_of(const sc_core::sc_time& t) const;   // first cycle at or after t
  sc_core::sc_time time_of(uint64_t cycle) const;
  uint64_t next_event_cycle() const;
  bool in_flight() const;
  Way* next_to_feed();   // the way whose waiting operation arrived first and fits

  ChannelParams p_;
  std::vector<nand::Die*> dies_;
  FlashDataPort& port_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vnand_channel_ctrl16> m_;
  std::unique_ptr<VerilatedFstC> fst_;
  uint64_t period_ps_;
  uint64_t lead_cycles_;
  std::vector<Way> ways_;
  DoneFn done_;
  sc_core::sc_event wake_;
  uint64_t cycle_ = 0;             // the next cycle to clock
  uint64_t bus_busy_cycles_ = 0, ops_done_ = 0;
  bool bus_was_busy_ = false;
  uint32_t bus_owner_ = 0, bus_phase_ = 0;
  uint32_t cmd_cycles_ = 0, setup_cycles_ = 0;
};

}  // namespace ssdvp
