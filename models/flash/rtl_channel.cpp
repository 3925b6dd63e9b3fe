#include "models/flash/rtl_channel.h"

#include <algorithm>
#include <cmath>

using sc_core::sc_time_stamp;   // the Verilated --cc header expects it in scope
// Verilator's runtime headers are not ours: no warnings from them.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "Vnand_channel_ctrl16.h"
#include "verilated.h"
#include "verilated_fst_c.h"
#pragma GCC diagnostic pop

#include "models/common/fatal.h"
#include "models/common/sim_time.h"
#include "models/nand/die.h"

namespace ssdvp {

using sc_core::sc_time;

namespace {
constexpr uint64_t kNever = UINT64_MAX;
constexpr uint32_t kPhaseCmd = 0, kPhaseDataOut = 1;
}  // namespace

RtlChannel::RtlChannel(sc_core::sc_module_name name, const ChannelParams& p, std::vector<nand::Die*> dies,
                       FlashDataPort& port, EventQueue& events, sc_time max_lead, const std::string& trace)
    : sc_core::sc_module(name),
      p_(p),
      dies_(std::move(dies)),
      port_(port),
      events_(events),
      ctx_(std::make_unique<VerilatedContext>()),
      m_(std::make_unique<Vnand_channel_ctrl16>(ctx_.get())),
      period_ps_(p.cycle.value()),
      ways_(dies_.size()) {
  if (dies_.size() > kMaxWays)
    throw std::runtime_error("channel.model = \"rtl\": the RTL channel has " + std::to_string(kMaxWays) +
                             " ways, the platform " + std::to_string(dies_.size()));
  // Clocked cycles stay below the start cycle of any operation submitted later: those start at
  // least max_lead after the SystemC time they are submitted at.
  if (max_lead < p.cycle)
    throw std::runtime_error("channel.model = \"rtl\": fctl.desc_ns and fctl.cpl_ns must be at least one bus cycle");
  // At most 1024 cycles: data movement happens at the phase's SystemC time, before the RTL
  // reaches the phase's end (a data phase is at least 4096 cycles).
  lead_cycles_ = std::min<uint64_t>((max_lead.value() - 1) / period_ps_, 1024);
  if (!trace.empty()) {
    ctx_->traceEverOn(true);
    fst_ = std::make_unique<VerilatedFstC>();
    m_->trace(fst_.get(), 99);
    fst_->set_time_unit("1ps");
    fst_->set_time_resolution("1ps");
    fst_->open(trace.c_str());
  }
  ctx_->fatalOnError(false);   // a failed assertion ends the run with an error, not an abort (tick())
  m_->rst_n = 0;
  m_->clk = 0;
  for (uint32_t i = 0; i < kMaxWays * kRtlPlanes / 32; i++) m_->plane_ready[i] = ~0u;
  m_->cpl_ready = 1;
  m_->eval();
  m_->clk = 1;
  m_->eval();
  m_->rst_n = 1;
  // The register block: identification, then the timing registers from the configuration.
  m_->reg_addr = kRegId;
  m_->clk = 0;
  m_->eval();
  if ((m_->reg_rdata >> 16) != 0x4E43 || (m_->reg_rdata >> 8 & 0xFF) != 3 || (m_->reg_rdata & 0xFF) != kMaxWays)
    throw std::runtime_error("RTL channel: unexpected ID register " + std::to_string(m_->reg_rdata));
  const uint32_t features = (uint32_t(kRtlPlanes) << 16) | (uint32_t(kOpsInFlightPerDie) << 8) |
                            (!dies_.empty() && dies_[0]->independent_reads() ? 1u : 0u);
  for (auto [a, v] : {std::pair<uint32_t, uint32_t>{kRegCmdAddr, p.cmd_addr_cycles},
                      {kRegDataSetup, p.data_setup_cycles}, {kRegStatus, p.status_cycles}, {kRegFeatures, features}}) {
    m_->reg_we = 1;
    m_->reg_addr = a;
    m_->reg_wdata = v;
    m_->clk = 0;
    m_->eval();
    m_->clk = 1;
    m_->eval();
    m_->reg_we = 0;
    m_->clk = 0;
    m_->eval();
    if (m_->reg_rdata != v) throw std::runtime_error("RTL channel: timing register " + std::to_string(a) + " reads back " +
                                                     std::to_string(m_->reg_rdata) + ", wrote " + std::to_string(v));
  }
  if (p.rtl_monitor) {
    monitor_ = std::make_unique<NandProtocolMonitor>(kMaxWays, kRtlPlanes, 1);
    monitor_->set_timing(p.cmd_addr_cycles, p.data_setup_cycles, p.status_cycles);
    monitor_->set_independent_reads(features & 1u);
    ready_bits_.assign(kMaxWays * kRtlPlanes, true);
  }
  SC_HAS_PROCESS(RtlChannel);
  SC_THREAD(run);
}

// The pins and R/B# of the presented cycle to the monitor (every clocked cycle, and the first
// of a skipped stretch: it sees each R/B# fall and rise); its first violation ends the run.
void RtlChannel::monitor_cycle() {
  for (uint32_t b = 0; b < kMaxWays * kRtlPlanes; b++) ready_bits_[b] = m_->plane_ready[b / 32] >> (b % 32) & 1u;
  const size_t before = monitor_->violations().size();
  monitor_->cycle(cycle_, pins_of(*m_), ready_bits_);
  if (m_->cpl_valid) monitor_->completed(cycle_, m_->cpl_way, m_->cpl_tag);
  if (monitor_->violations().size() > before && before == 0)
    report_fatal("channel.model = \"rtl\": the NAND protocol monitor (" + std::string(name()) +
                 "): " + monitor_->violations().front());
}

RtlChannel::~RtlChannel() {
  m_->final();
  if (fst_) fst_->close();
}

uint32_t RtlChannel::read_register(uint32_t addr) {
  m_->reg_addr = addr;
  m_->eval();
  return m_->reg_rdata;
}

uint64_t RtlChannel::cycle_of(const sc_time& t) const { return (t.value() + period_ps_ - 1) / period_ps_; }
sc_time RtlChannel::time_of(uint64_t cycle) const { return time_ps(cycle * period_ps_); }

void RtlChannel::submit(FlashOp* op) {
  const sc_time now = sc_time_stamp();
  if (op->t_submit < now) op->t_submit = now;
  ways_.at(op->desc.way).waiting.push_back(op);
  wake_.notify(sc_core::SC_ZERO_TIME);
}

bool RtlChannel::in_flight() const {
  return std::any_of(ways_.begin(), ways_.end(),
                     [](const Way& w) { return !w.queue.empty() || !w.waiting.empty() || !w.started.empty(); });
}

RtlChannel::Started& RtlChannel::Way::of(const FlashOp* op) {
  return *std::find_if(started.begin(), started.end(), [op](const Started& s) { return s.op == op; });
}

RtlChannel::Way* RtlChannel::next_to_feed() {
  Way* best = nullptr;
  for (Way& w : ways_)
    if (!w.waiting.empty() && w.queue.size() < kRtlQueue &&
        (!best || w.waiting.front()->t_submit < best->waiting.front()->t_submit))
      best = &w;
  return best;
}

// The next cycle, from cycle_ on, at which something can happen that the RTL does not count
// by itself: its bus phase's last cycle, a die's R/B# rising, a queued operation's start
// cycle, a descriptor to feed.
uint64_t RtlChannel::next_event_cycle() const {
  uint64_t next = kNever;
  if (m_->bus_busy) next = cycle_ + m_->bus_remaining - 1;
  for (const Way& w : ways_) {
    for (uint64_t r : w.ready_cycle)
      if (r > cycle_) next = std::min(next, r);
    for (const FlashOp* op : w.queue)
      if (cycle_of(op->t_submit) > cycle_) next = std::min(next, cycle_of(op->t_submit));
    if (!w.waiting.empty() && w.queue.size() < kRtlQueue) next = cycle_;
  }
  return next;
}

// A bus phase of `way` starts at `cycle`: the die answers it.
void RtlChannel::phase_started(uint32_t way, uint32_t slot, uint32_t phase, uint64_t cycle) {
  Way& w = ways_[way];
  if (phase == kPhaseCmd) {   // the queue's head goes into the slot
    w.slot[slot] = w.queue.front();
    w.queue.pop_front();
    w.started.push_back({w.slot[slot], sc_core::SC_ZERO_TIME});
  }
  FlashOp* op = w.slot[slot];
  nand::Die& die = *dies_[way];
  const ssd_flash_desc& d = op->desc;
  const sc_time t = time_of(cycle);
  if (on_bus_phase) on_bus_phase(way, phase, op->id, t, time_of(cycle + m_->bus_remaining));
  bus_busy_cycles_ += m_->bus_remaining;
  try {
    if (phase == kPhaseCmd) {
      const auto kind = d.opcode == SSD_FOP_READ ? nand::ArrayOp::Read
                        : d.opcode == SSD_FOP_PROGRAM ? nand::ArrayOp::Program
                                                      : nand::ArrayOp::Erase;
      die.latch(kind, d.plane_mask, d.block, d.page, t, d.flags & SSD_FDF_SLC_MODE);
      if (kind == nand::ArrayOp::Program) {
        events_.at(t, [this, op, &w, &die, cycle] {
          const uint64_t seg = p_.cmd_addr_cycles + p_.data_setup_cycles + uint64_t(die.sectors_per_page()) * 4096;
          sc_time& dram_done = w.of(op).dram_done;
          uint32_t k = 0;
          for (uint32_t pl = 0; pl < die.planes(); pl++)
            if (op->desc.plane_mask >> pl & 1u)
              dram_done = std::max(dram_done, port_.to_die(*op, die, pl,
                                                           time_of(cycle + k++ * seg + p_.cmd_addr_cycles + p_.data_setup_cycles)));
        });
      }
    } else if (phase == kPhaseDataOut) {
      events_.at(t, [this, op, &w, &die, cycle] {
        const uint64_t seg = p_.data_setup_cycles + uint64_t(op->desc.nsect) * 4096;
        sc_time& dram_done = w.of(op).dram_done;
        uint32_t k = 0;
        for (uint32_t pl = 0; pl < die.planes(); pl++)
          if (op->desc.plane_mask >> pl & 1u)
            dram_done = std::max(dram_done, port_.from_die(*op, die, pl, time_of(cycle + k++ * seg + p_.data_setup_cycles)));
      });
    }
  } catch (const nand::RuleViolation& e) {
    report_fatal(e.what());
    op->status = SSD_FST_BAD_DESC;
  }
}

// Sets the inputs of cycle_ (time, each plane's R/B#) and evaluates the model's view of that
// cycle.
void RtlChannel::present_cycle() {
  for (uint32_t i = 0; i < kMaxWays * kRtlPlanes / 32; i++) m_->plane_ready[i] = ~0u;
  for (uint32_t w = 0; w < ways_.size(); w++)
    for (uint32_t pl = 0; pl < kRtlPlanes; pl++)
      if (ways_[w].ready_cycle[pl] > cycle_) {
        const uint32_t bit = w * kRtlPlanes + pl;
        m_->plane_ready[bit / 32] &= ~(1u << (bit % 32));
      }
  m_->now = cycle_;
  m_->clk = 0;
  m_->eval();
}

// Clocks cycle_ (its inputs already presented).
void RtlChannel::tick() {
  // The oldest waiting descriptor that fits goes in (operations are submitted ahead of their
  // start cycle: the flash controller's decode time covers the RTL's lead).
  FlashOp* feed = nullptr;
  Way* from = next_to_feed();
  if (from) {
    feed = from->waiting.front();
    m_->desc_way = feed->desc.way;
    m_->desc_op = feed->desc.opcode;
    m_->desc_mask = feed->desc.plane_mask;
    m_->desc_xfer = feed->desc.opcode == SSD_FOP_READ ? uint32_t(feed->desc.nsect) * 4096
                    : feed->desc.opcode == SSD_FOP_PROGRAM ? dies_[feed->desc.way]->sectors_per_page() * 4096u
                                                           : 0u;
    m_->desc_tag = uint16_t(feed->id);
    m_->desc_start = cycle_of(feed->t_submit);
    if (cycle_of(feed->t_submit) < cycle_ && from->queue.empty() && from->started.empty()) late_starts_++;
    m_->desc_valid = 1;
    m_->eval();
  }
  const bool fed = feed && m_->desc_ready;
  if (monitor_) {
    if (fed)
      monitor_->expect(feed->desc.way, feed->desc.opcode, feed->desc.plane_mask, m_->desc_xfer, uint16_t(feed->id));
    monitor_cycle();
  }
  // Outputs of this cycle: a completion leaving (its way may start its next operation in this
  // cycle), a phase granted, a die starting its array.
  if (m_->cpl_valid) {
    Way& w = ways_[m_->cpl_way];
    auto it = std::find_if(w.started.begin(), w.started.end(),
                           [this](const Started& s) { return uint16_t(s.op->id) == m_->cpl_tag; });
    if (it == w.started.end())
      throw std::runtime_error("RTL channel: completion of tag " + std::to_string(m_->cpl_tag) + " on way " +
                               std::to_string(m_->cpl_way) + ", which has no such operation in flight");
    FlashOp* op = it->op;
    const sc_time dram_done = it->dram_done;
    w.started.erase(it);
    // A program or erase ends with the status read: the die's FAIL bit.
    if (op->desc.opcode != SSD_FOP_READ && op->status == SSD_FST_OK && dies_[m_->cpl_way]->last_failed())
      op->status = op->desc.opcode == SSD_FOP_PROGRAM ? SSD_FST_PROGRAM_FAIL : SSD_FST_ERASE_FAIL;
    op->t_done = std::max(time_of(cycle_), dram_done);
    ops_done_++;
    done_(op);
  }
  if (m_->bus_grant) phase_started(m_->bus_way, m_->bus_slot, m_->bus_phase, cycle_);
  const uint64_t next = cycle_ + 1;
  if (m_->array_go) {
    for (uint32_t w = 0; w < ways_.size(); w++) {
      if (!(m_->array_go >> w & 1u)) continue;
      // The die starts at the end of the command phase, or when the program data is in; the
      // planes it occupies are busy until the array ends (R/B# low for a cycle at least).
      Way& way = ways_[w];
      FlashOp* op = way.slot[m_->bus_slot];
      Started& s = way.of(op);
      const uint8_t occupied = dies_[w]->occupied_planes(
          op->desc.opcode == SSD_FOP_READ ? nand::ArrayOp::Read : nand::ArrayOp::Program, op->desc.plane_mask);
      uint64_t ready = next + 1;
      try {
        op->t_array = std::max(time_of(next), s.dram_done);
        op->t_array_end = dies_[w]->start_array(op->t_array);
        ready = std::max(ready, cycle_of(op->t_array_end));
      } catch (const nand::RuleViolation& e) {
        report_fatal(e.what());
      }
      for (uint32_t pl = 0; pl < kRtlPlanes; pl++)
        if (occupied >> pl & 1u) way.ready_cycle[pl] = ready;
      s.dram_done = sc_core::SC_ZERO_TIME;
    }
  }
  if (fst_) fst_->dump(cycle_ * period_ps_);
  m_->clk = 1;
  m_->eval();
  if (ctx_->gotError()) {   // a failed assertion (rtl/nand_channel_ctrl_checks.sv): Verilator printed which
    ctx_->gotError(false);
    report_fatal("channel.model = \"rtl\": an assertion of the channel controller failed in bus cycle " +
                 std::to_string(cycle_) + " (its name, the cycle and the signals are on the line above)");
  }
  cycles_clocked_++;
  if (fst_) fst_->dump(cycle_ * period_ps_ + period_ps_ / 2);
  m_->desc_valid = 0;
  if (fed) {
    from->waiting.pop_front();
    from->queue.push_back(feed);
  }
  cycle_ = next;
}

void RtlChannel::run() {
  for (;;) {
    const uint64_t target = sc_time_stamp().value() / period_ps_ + lead_cycles_;
    present_cycle();
    while (cycle_ <= target) {
      // Nothing happens in this cycle: skip to the next event (with a waveform, bus phases are
      // clocked cycle by cycle so that the strobes show).
      if (m_->quiet && !((fst_ || monitor_) && m_->bus_busy)) {
        const uint64_t next = next_event_cycle();
        if (next > cycle_) {
          if (monitor_) monitor_cycle();
          cycle_ = std::min(next, target + 1);
          present_cycle();
          continue;
        }
      }
      tick();
      present_cycle();
    }
    if (!in_flight() && m_->quiet && !m_->bus_busy) {
      wait(wake_);
      cycle_ = std::max<uint64_t>(cycle_, sc_time_stamp().value() / period_ps_);
      continue;
    }
    const uint64_t next = m_->quiet ? next_event_cycle() : cycle_;
    const sc_time now = sc_time_stamp();
    sc_time at = next == kNever ? now + time_of(std::max<uint64_t>(lead_cycles_, 1))
                                : time_of(next > lead_cycles_ ? next - lead_cycles_ : 0);
    if (at <= now) at = now + time_of(1);
    wait(at - now, wake_);
  }
}

}  // namespace ssdvp
