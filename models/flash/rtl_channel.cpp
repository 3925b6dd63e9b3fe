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
#include "models/nand/die.h"

namespace ssdvp {

using sc_core::sc_time;

namespace {
constexpr uint64_t kNever = UINT64_MAX;
constexpr uint32_t kPhaseCmd = 0, kPhaseDataOut = 1;
}  // namespace

RtlChannel::RtlChannel(sc_core::sc_module_name name, const ChannelParams& p, std::vector<nand::Die*> dies,
                       FlashDataPort& port, sc_time max_lead, const std::string& trace)
    : sc_core::sc_module(name),
      p_(p),
      dies_(std::move(dies)),
      port_(port),
      ctx_(std::make_unique<VerilatedContext>()),
      m_(std::make_unique<Vnand_channel_ctrl16>(ctx_.get())),
      period_ps_(uint64_t(std::llround(1e6 / p.bus_mbps))),
      ways_(dies_.size()) {
  if (dies_.size() > kMaxWays)
    throw std::runtime_error("channel.model = \"rtl\": the RTL channel has " + std::to_string(kMaxWays) +
                             " ways, the platform " + std::to_string(dies_.size()));
  lead_cycles_ = std::max<uint64_t>(1, max_lead.value() / period_ps_);
  if (!trace.empty()) {
    ctx_->traceEverOn(true);
    fst_ = std::make_unique<VerilatedFstC>();
    m_->trace(fst_.get(), 99);
    fst_->set_time_unit("1ps");
    fst_->set_time_resolution("1ps");
    fst_->open(trace.c_str());
  }
  auto cycles = [&](const sc_time& t) { return uint32_t(std::llround(double(t.value()) / double(period_ps_))); };
  cmd_cycles_ = cycles(p.cmd_addr);
  setup_cycles_ = cycles(p.data_setup);
  m_->rst_n = 0;
  m_->clk = 0;
  m_->die_ready = 0xFFFF;
  m_->cpl_ready = 1;
  m_->eval();
  m_->clk = 1;
  m_->eval();
  m_->rst_n = 1;
  for (auto [a, v] : {std::pair<uint32_t, uint32_t>{0, cmd_cycles_}, {1, setup_cycles_}, {2, cycles(p.status)}}) {
    m_->cfg_we = 1;
    m_->cfg_addr = a;
    m_->cfg_wdata = v;
    m_->clk = 0;
    m_->eval();
    m_->clk = 1;
    m_->eval();
  }
  m_->cfg_we = 0;
  SC_HAS_PROCESS(RtlChannel);
  SC_THREAD(run);
}

RtlChannel::~RtlChannel() {
  m_->final();
  if (fst_) fst_->close();
}

uint64_t RtlChannel::cycle_of(const sc_time& t) const { return (t.value() + period_ps_ - 1) / period_ps_; }
sc_time RtlChannel::time_of(uint64_t cycle) const { return sc_time::from_value(cycle * period_ps_); }

void RtlChannel::submit(FlashOp* op) {
  const sc_time now = sc_time_stamp();
  if (op->t_submit < now) op->t_submit = now;
  ways_.at(op->desc.way).waiting.push_back(op);
  wake_.notify(sc_core::SC_ZERO_TIME);
}

bool RtlChannel::in_flight() const {
  return std::any_of(ways_.begin(), ways_.end(), [](const Way& w) { return !w.queue.empty() || !w.waiting.empty(); });
}

RtlChannel::Way* RtlChannel::next_to_feed() {
  Way* best = nullptr;
  for (Way& w : ways_)
    if (!w.waiting.empty() && w.queue.size() < kRtlQueue &&
        (!best || w.waiting.front()->t_submit < best->waiting.front()->t_submit))
      best = &w;
  return best;
}

// The next cycle at which something outside the RTL's own counting can happen.
uint64_t RtlChannel::next_event_cycle() const {
  uint64_t next = kNever;
  // bus_remaining counts from the last clocked cycle (cycle_ - 1); the phase ends when the
  // cycle phase_end - 1 is clocked.
  if (m_->bus_busy) next = std::max<uint64_t>(cycle_, cycle_ + m_->bus_remaining - 2);
  for (const Way& w : ways_)
    if (w.ready_cycle > cycle_) next = std::min(next, w.ready_cycle);
  for (const Way& w : ways_)
    if (!w.waiting.empty() && w.queue.size() < kRtlQueue)
      next = std::min(next, std::max(cycle_, cycle_of(w.waiting.front()->t_submit)));
  return next;
}

// A bus phase of `way` starts at `cycle`: the die answers it.
void RtlChannel::phase_started(uint32_t way, uint32_t phase, uint64_t cycle) {
  Way& w = ways_[way];
  FlashOp* op = w.queue.front();
  nand::Die& die = *dies_[way];
  const ssd_flash_desc& d = op->desc;
  const sc_time t = time_of(cycle);
  if (on_bus_phase) on_bus_phase(way, phase, op->id, t);
  bus_busy_cycles_ += m_->bus_remaining;
  try {
    if (phase == kPhaseCmd && !w.latched) {
      w.latched = true;
      const auto kind = d.opcode == SSD_FOP_READ ? nand::ArrayOp::Read
                        : d.opcode == SSD_FOP_PROGRAM ? nand::ArrayOp::Program
                                                      : nand::ArrayOp::Erase;
      die.latch(kind, d.plane_mask, d.block, d.page, t);
      if (kind == nand::ArrayOp::Program) {
        const uint64_t seg = cmd_cycles_ + setup_cycles_ + uint64_t(die.sectors_per_page()) * 4096;
        uint32_t k = 0;
        for (uint32_t pl = 0; pl < die.planes(); pl++)
          if (d.plane_mask >> pl & 1u)
            w.dram_done = std::max(w.dram_done, port_.to_die(*op, die, pl, time_of(cycle + k++ * seg + cmd_cycles_ + setup_cycles_)));
      }
    } else if (phase == kPhaseDataOut && !w.out_started) {
      w.out_started = true;
      const uint64_t seg = setup_cycles_ + uint64_t(d.nsect) * 4096;
      uint32_t k = 0;
      for (uint32_t pl = 0; pl < die.planes(); pl++)
        if (d.plane_mask >> pl & 1u)
          w.dram_done = std::max(w.dram_done, port_.from_die(*op, die, pl, time_of(cycle + k++ * seg + setup_cycles_)));
    }
  } catch (const nand::RuleViolation& e) {
    report_fatal(e.what());
    op->status = SSD_FST_BAD_DESC;
  }
}

void RtlChannel::tick() {
  // Inputs for this cycle: the oldest arrived descriptor, R/B# of every die.
  FlashOp* feed = nullptr;
  Way* from = next_to_feed();
  if (from && from->waiting.front()->t_submit <= time_of(cycle_)) {
    feed = from->waiting.front();
    m_->desc_way = feed->desc.way;
    m_->desc_op = feed->desc.opcode;
    m_->desc_planes = uint8_t(__builtin_popcount(feed->desc.plane_mask));
    m_->desc_xfer = feed->desc.opcode == SSD_FOP_READ ? uint32_t(feed->desc.nsect) * 4096
                    : feed->desc.opcode == SSD_FOP_PROGRAM ? dies_[feed->desc.way]->sectors_per_page() * 4096u
                                                           : 0u;
    m_->desc_tag = uint16_t(feed->id);
    m_->desc_arrival = uint32_t(cycle_of(feed->t_submit));
  }
  uint32_t ready = 0xFFFF;
  for (uint32_t w = 0; w < ways_.size(); w++)
    if (ways_[w].ready_cycle > cycle_) ready &= ~(1u << w);
  m_->die_ready = uint16_t(ready);
  m_->now = uint32_t(cycle_);
  m_->clk = 0;
  m_->eval();
  const bool fed = feed && m_->desc_ready;
  m_->desc_valid = fed;
  m_->eval();
  const bool cpl = m_->cpl_valid;
  const uint32_t cpl_way = m_->cpl_way;
  if (fst_) fst_->dump(cycle_ * period_ps_);
  m_->clk = 1;
  m_->eval();
  if (fst_) fst_->dump(cycle_ * period_ps_ + period_ps_ / 2);
  m_->desc_valid = 0;
  const uint64_t next = cycle_ + 1;
  if (fed) {
    from->waiting.pop_front();
    from->queue.push_back(feed);
  }
  if (cpl) {
    Way& w = ways_[cpl_way];
    FlashOp* op = w.queue.front();
    w.queue.pop_front();
    op->t_done = std::max(time_of(cycle_), w.dram_done);
    w.latched = w.out_started = false;
    w.dram_done = sc_core::SC_ZERO_TIME;
    ops_done_++;
    done_(op);
  }
  // Outputs for the next cycle: a die starting its array, a bus phase starting.
  if (m_->array_go) {
    for (uint32_t w = 0; w < ways_.size(); w++) {
      if (!(m_->array_go >> w & 1u)) continue;
      try {
        ways_[w].ready_cycle = cycle_of(dies_[w]->start_array(time_of(next)));
      } catch (const nand::RuleViolation& e) {
        report_fatal(e.what());
        ways_[w].ready_cycle = next + 1;
      }
      ways_[w].ready_cycle = std::max(ways_[w].ready_cycle, next + 1);   // R/B# low for a cycle at least
    }
  }
  if (m_->bus_busy && (!bus_was_busy_ || m_->bus_way != bus_owner_ || m_->bus_phase != bus_phase_))
    phase_started(m_->bus_way, m_->bus_phase, next);
  bus_was_busy_ = m_->bus_busy;
  bus_owner_ = m_->bus_way;
  bus_phase_ = m_->bus_phase;
  cycle_ = next;
}

void RtlChannel::run() {
  for (;;) {
    const uint64_t target = cycle_of(sc_time_stamp()) + lead_cycles_;
    while (cycle_ <= target) {
      tick();
      if (m_->quiet) {   // nothing changes until the next event: skip to it
        const uint64_t next = next_event_cycle();
        if (next > cycle_) cycle_ = std::min(next, target + 1);
      }
    }
    if (!in_flight() && m_->quiet && !m_->bus_busy) {
      wait(wake_);
      cycle_ = std::max(cycle_, cycle_of(sc_time_stamp()));
      continue;
    }
    const uint64_t next = m_->quiet ? next_event_cycle() : cycle_;
    const sc_time now = sc_time_stamp();
    sc_time at = next == kNever ? now + time_of(lead_cycles_) : time_of(next > lead_cycles_ ? next - lead_cycles_ : 0);
    if (at <= now) at = now + time_of(1);
    wait(at - now, wake_);
  }
}

}  // namespace ssdvp
