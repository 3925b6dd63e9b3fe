#include "models/flash/tlm_channel.h"

#include "models/common/bit_count.h"
#include "models/common/fatal.h"
#include "models/nand/die.h"

namespace ssdvp {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

TlmChannel::TlmChannel(sc_core::sc_module_name name, const ChannelParams& p,
                       std::vector<nand::Die*> dies, FlashDataPort& port, EventQueue& events)
    : sc_core::sc_module(name), p_(p), dies_(std::move(dies)), port_(port), ways_(dies_.size()), events_(events) {}

// Schedules advance() at t unless an earlier wake-up is already scheduled.
void TlmChannel::wake_at(sc_time t) {
  if (has_wake_ && wake_pending_ <= t) return;
  has_wake_ = true;
  wake_pending_ = t;
  events_.at(t, [this, t] {
    if (has_wake_ && wake_pending_ == t) has_wake_ = false;
    advance();
  });
}

uint32_t TlmChannel::planes_of(const FlashOp& op) const {
  return bit_count(op.desc.plane_mask);
}

void TlmChannel::submit(FlashOp* op) {
  const sc_time now = sc_core::sc_time_stamp();
  if (op->t_submit < now) op->t_submit = now;
  ways_.at(op->desc.way).queue.push_back(op);
  dies_[op->desc.way]->prefetch(op->desc.plane_mask, op->desc.block, op->desc.page);
  wake_at(p_.on_grid(op->t_submit));
}

// Starts the bus phase way `w` is waiting for, at `now` (the bus is free).
void TlmChannel::start_bus_phase(uint32_t w, sc_time now) {
  Way& way = ways_[w];
  FlashOp* op = way.queue.front();
  nand::Die& die = *dies_[w];
  const ssd_flash_desc& d = op->desc;
  const uint32_t planes = planes_of(*op);
  sc_time bus_end = now, done = now;
  const BusWork work = way.work;
  try {
    switch (way.work) {
      case BusWork::Command: {
        if (d.opcode == SSD_FOP_PROGRAM) {
          die.latch(nand::ArrayOp::Program, d.plane_mask, d.block, d.page, now);
          sc_time data_ready = now;
          const uint64_t bytes = uint64_t(die.sectors_per_page()) * 4096;
          for (uint32_t pl = 0; pl < die.planes(); pl++) {
            if (!(d.plane_mask >> pl & 1u)) continue;
            sc_time start = bus_end + p_.cmd_addr + p_.data_setup;
            data_ready = std::max(data_ready, port_.to_die(*op, die, pl, start));
            bus_end = start + p_.transfer(bytes);
          }
          op->t_array = std::max(bus_end, data_ready);
          op->t_array_end = die.start_array(op->t_array);
          way.since = p_.on_grid(op->t_array_end);
        } else {
          die.latch(d.opcode == SSD_FOP_READ ? nand::ArrayOp::Read : nand::ArrayOp::Erase,
                    d.plane_mask, d.block, d.page, now, d.flags & SSD_FDF_SLC_MODE);
          bus_end = now + p_.cmd_addr * double(planes);
          op->t_array = bus_end;
          op->t_array_end = die.start_array(bus_end);
          way.since = p_.on_grid(op->t_array_end);
        }
        way.phase = Phase::Array;
        way.work = d.opcode == SSD_FOP_READ ? BusWork::DataOut : BusWork::Status;
        break;
      }
      case BusWork::DataOut: {
        const uint64_t bytes = uint64_t(d.nsect) * 4096;
        for (uint32_t pl = 0; pl < die.planes(); pl++) {
          if (!(d.plane_mask >> pl & 1u)) continue;
          sc_time start = bus_end + p_.data_setup;
          bus_end = start + p_.transfer(bytes);
          done = std::max(done, port_.from_die(*op, die, pl, start));
        }
        done = std::max(done, bus_end);
        way.phase = Phase::Hold;
        way.since = bus_end;
        break;
      }
      case BusWork::Status: {   // reads the die's FAIL bit
        if (die.last_failed()) op->status = d.opcode == SSD_FOP_PROGRAM ? SSD_FST_PROGRAM_FAIL : SSD_FST_ERASE_FAIL;
        bus_end = now + p_.status;
        done = bus_end;
        way.phase = Phase::Hold;
        way.since = bus_end;
        break;
      }
    }
  } catch (const nand::RuleViolation& e) {
    report_fatal(e.what());
    op->status = SSD_FST_BAD_DESC;
    done = bus_end = now;
    way.phase = Phase::Hold;
    way.since = now;
  }
  bus_busy_ps_ += (bus_end - now).value();
  bus_free_ = bus_end;
  if (on_bus_phase) on_bus_phase(w, uint32_t(work), op->id, now, bus_end);
  if (way.phase == Phase::Hold) {
    way.queue.pop_front();
    op->t_done = done;
    ops_done_++;
    done_(op);
  }
}

void TlmChannel::advance() {
  const sc_time now = sc_core::sc_time_stamp();
  for (;;) {
    // Array phases that ended, holds that ended, new operations whose die is ready.
    for (uint32_t w = 0; w < ways_.size(); w++) {
      Way& way = ways_[w];
      if ((way.phase == Phase::Array || way.phase == Phase::Hold) && way.since <= now) {
        if (way.phase == Phase::Array) {
          way.phase = Phase::WaitBus;      // since = array end: ready for the bus from then
        } else {
          way.phase = Phase::Idle;
        }
      }
      if (way.phase == Phase::Idle && !way.queue.empty() && dies_[w]->ready(now) &&
          p_.on_grid(way.queue.front()->t_submit) <= now) {
        way.phase = Phase::WaitBus;
        way.work = BusWork::Command;
        way.since = p_.on_grid(std::max(way.queue.front()->t_submit, dies_[w]->busy_until()));
      }
    }
    if (bus_free_ > now) break;
    // Bus arbitration: earliest ready phase, ties to the lower way.
    uint32_t pick = uint32_t(ways_.size());
    for (uint32_t w = 0; w < ways_.size(); w++)
      if (ways_[w].phase == Phase::WaitBus && (pick == ways_.size() || ways_[w].since < ways_[pick].since))
        pick = w;
    if (pick == ways_.size()) break;
    start_bus_phase(pick, now);
  }
  // Next moment something can change.
  sc_time next = sc_core::SC_ZERO_TIME;
  bool any = false;
  auto consider = [&](sc_time t) {
    if (t > now && (!any || t < next)) { next = t; any = true; }
  };
  bool waiting = false;
  for (const Way& way : ways_) {
    if (way.phase == Phase::Array || way.phase == Phase::Hold) consider(way.since);
    if (way.phase == Phase::WaitBus) waiting = true;
    if (way.phase == Phase::Idle && !way.queue.empty()) consider(p_.on_grid(way.queue.front()->t_submit));
  }
  if (waiting) consider(bus_free_);
  if (any) wake_at(next);
}

}  // namespace ssdvp
