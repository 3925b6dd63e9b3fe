#include "models/flash/tlm_channel.h"

#include <stdexcept>

#include "models/common/bit_count.h"
#include "models/common/fatal.h"
#include "models/nand/die.h"

namespace ssdvp {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

TlmChannel::TlmChannel(sc_core::sc_module_name name, const ChannelParams& p,
                       std::vector<nand::Die*> dies, FlashDataPort& port, EventQueue& events)
    : sc_core::sc_module(name), p_(p), dies_(std::move(dies)), port_(port), ways_(dies_.size()), events_(events) {
  if (ways_.size() > 32) throw std::invalid_argument("a TLM channel takes at most 32 dies (nand.ways)");
}

// Schedules advance() at t unless an earlier wake-up is already scheduled.
void TlmChannel::wake_at(sc_time t) {
  if (has_wake_ && wake_pending_ <= t) return;
  has_wake_ = true;
  wake_pending_ = t;
  // The capture is two words (a time as its picoseconds), so std::function keeps it in place
  // instead of allocating: an sc_time is not trivially copyable.
  events_.at(t, [this, ps = t.value()] {
    if (has_wake_ && wake_pending_.value() == ps) has_wake_ = false;
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
  active_ |= 1u << op->desc.way;
  dies_[op->desc.way]->prefetch(op->desc.plane_mask, op->desc.block, op->desc.page);
  wake_at(p_.on_grid(op->t_submit));
}

static nand::ArrayOp array_op(const ssd_flash_desc& d) {
  return d.opcode == SSD_FOP_READ      ? nand::ArrayOp::Read
         : d.opcode == SSD_FOP_PROGRAM ? nand::ArrayOp::Program
                                       : nand::ArrayOp::Erase;
}

uint32_t TlmChannel::command_slot(uint32_t w, sc_time now, sc_time& since) const {
  const Way& way = ways_[w];
  if (way.queue.empty() || p_.on_grid(way.queue.front()->t_submit) > now) return kCommand;
  const FlashOp& next = *way.queue.front();
  const nand::Die& die = *dies_[w];
  const nand::ArrayOp kind = array_op(next.desc);
  const uint8_t occupied = die.occupied_planes(kind, next.desc.plane_mask);
  uint32_t free = kCommand;
  for (uint32_t s = 0; s < kOpsInFlightPerDie; s++) {
    const Slot& slot = way.slots[s];
    if (slot.phase == Phase::Free) {
      if (free == kCommand) free = s;
      continue;
    }
    // Only reads of other planes run beside one another.
    const nand::ArrayOp running = array_op(slot.op->desc);
    if (kind != nand::ArrayOp::Read || running != nand::ArrayOp::Read ||
        (die.occupied_planes(running, slot.op->desc.plane_mask) & occupied))
      return kCommand;
  }
  if (free == kCommand || die.busy_until(occupied) > now) return kCommand;
  since = p_.on_grid(std::max(next.t_submit, die.busy_until(occupied)));
  return free;
}

// Starts a bus phase of way `w` at `now` (the bus is free): the command of its next operation
// into the free slot `s` if `command`, else the phase slot `s` waits for.
void TlmChannel::start_bus_phase(uint32_t w, uint32_t s, sc_time now) {
  Way& way = ways_[w];
  Slot& slot = way.slots[s];
  const bool command = slot.phase == Phase::Free;
  if (command) {
    slot.op = way.queue.front();
    way.queue.pop_front();
  }
  FlashOp* op = slot.op;
  nand::Die& die = *dies_[w];
  const ssd_flash_desc& d = op->desc;
  const uint32_t planes = planes_of(*op);
  sc_time bus_end = now, done = now;
  const BusWork work = command ? BusWork::Command : d.opcode == SSD_FOP_READ ? BusWork::DataOut : BusWork::Status;
  try {
    switch (work) {
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
        } else {
          die.latch(array_op(d), d.plane_mask, d.block, d.page, now, d.flags & SSD_FDF_SLC_MODE);
          bus_end = now + p_.cmd_addr * double(planes);
          op->t_array = bus_end;
        }
        op->t_array_end = die.start_array(op->t_array);
        slot.phase = Phase::Array;
        slot.since = p_.on_grid(op->t_array_end);
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
        slot.phase = Phase::Hold;
        slot.since = bus_end;
        break;
      }
      case BusWork::Status: {   // reads the die's FAIL bit
        if (die.last_failed()) op->status = d.opcode == SSD_FOP_PROGRAM ? SSD_FST_PROGRAM_FAIL : SSD_FST_ERASE_FAIL;
        bus_end = now + p_.status;
        done = bus_end;
        slot.phase = Phase::Hold;
        slot.since = bus_end;
        break;
      }
    }
  } catch (const nand::RuleViolation& e) {
    report_fatal(e.what());
    op->status = SSD_FST_BAD_DESC;
    done = bus_end = now;
    slot.phase = Phase::Hold;
    slot.since = now;
  }
  bus_busy_ps_ += (bus_end - now).value();
  bus_free_ = bus_end;
  if (on_bus_phase) on_bus_phase(w, uint32_t(work), op->id, now, bus_end);
  if (slot.phase == Phase::Hold) {
    op->t_done = done;
    ops_done_++;
    done_(op);
  }
}

// Ways with nothing queued and every slot free take no part in arbitration or in the next
// wake-up; leaving them out of the scans changes no decision.
void TlmChannel::update_active(uint32_t w) {
  const Way& way = ways_[w];
  bool any = !way.queue.empty();
  for (const Slot& slot : way.slots) any = any || slot.phase != Phase::Free;
  if (!any) active_ &= ~(1u << w);
}

void TlmChannel::advance() {
  const sc_time now = sc_core::sc_time_stamp();
  for (;;) {
    // Array phases that ended wait for the bus; holds that ended free their slot.
    for (uint32_t m = active_; m; m &= m - 1) {
      const uint32_t w = uint32_t(__builtin_ctz(m));
      bool freed = false;
      for (Slot& slot : ways_[w].slots)
        if ((slot.phase == Phase::Array || slot.phase == Phase::Hold) && slot.since <= now) {
          if (slot.phase == Phase::Array) {
            slot.phase = Phase::WaitBus;   // since = array end: ready for the bus from then
          } else {
            slot.phase = Phase::Free;
            slot.op = nullptr;
            freed = true;
          }
        }
      if (freed) update_active(w);
    }
    if (bus_free_ > now) break;
    // Bus arbitration: earliest ready phase; ties to the lower way, in a way to its slots in
    // order, then its next command.
    uint32_t pick_way = uint32_t(ways_.size()), pick_slot = 0;
    sc_time best;
    auto consider = [&](uint32_t w, uint32_t s, sc_time since) {
      if (pick_way == ways_.size() || since < best) {
        pick_way = w;
        pick_slot = s;
        best = since;
      }
    };
    for (uint32_t m = active_; m; m &= m - 1) {
      const uint32_t w = uint32_t(__builtin_ctz(m));
      for (uint32_t s = 0; s < kOpsInFlightPerDie; s++)
        if (ways_[w].slots[s].phase == Phase::WaitBus) consider(w, s, ways_[w].slots[s].since);
      sc_time since;
      const uint32_t s = command_slot(w, now, since);
      if (s != kCommand) consider(w, s, since);
    }
    if (pick_way == ways_.size()) break;
    start_bus_phase(pick_way, pick_slot, now);
  }
  // Next moment something can change.
  sc_time next = sc_core::SC_ZERO_TIME;
  bool any = false;
  auto consider = [&](sc_time t) {
    if (t > now && (!any || t < next)) { next = t; any = true; }
  };
  bool waiting = false;
  for (uint32_t m = active_; m; m &= m - 1) {
    const uint32_t w = uint32_t(__builtin_ctz(m));
    const Way& way = ways_[w];
    for (const Slot& slot : way.slots) {
      if (slot.phase == Phase::Array || slot.phase == Phase::Hold) consider(slot.since);
      if (slot.phase == Phase::WaitBus) waiting = true;
    }
    if (way.queue.empty()) continue;
    consider(p_.on_grid(way.queue.front()->t_submit));
    sc_time since;
    if (command_slot(w, now, since) != kCommand) waiting = true;   // a command waits for the bus
  }
  if (waiting) consider(bus_free_);
  if (any) wake_at(next);
}

}  // namespace ssdvp
