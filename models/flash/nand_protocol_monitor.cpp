// See nand_protocol_monitor.h.
#include "models/flash/nand_protocol_monitor.h"

#include <fmt/format.h>

namespace ssdvp {

namespace {

// Steps of a form after its first command byte.
enum Step : int { kAddr = 0, kTadl, kData, kAwaitConfirm, kAwaitNext, kTwhr, kDone };

const char* form_name(int op) { return op == 1 ? "read" : op == 2 ? "program" : "erase"; }

}  // namespace

NandProtocolMonitor::NandProtocolMonitor(unsigned ways, unsigned planes, unsigned bus_bytes)
    : ways_(ways), planes_(planes), bus_bytes_(bus_bytes ? bus_bytes : 1), way_(ways), ready_prev_(ways, ~0u) {}

void NandProtocolMonitor::set_timing(uint32_t cmd_addr, uint32_t data_setup, uint32_t status) {
  cmd_addr_ = cmd_addr;
  data_setup_ = data_setup;
  status_ = status;
  // The forms need room: a command byte, an address, a confirm; 06h, an address, E0h; 70h and
  // the status byte.
  if (cmd_addr < 3 || data_setup < 3 || status < 2)
    violation(0, "timing registers", fmt::format("CMD_ADDR {}, DATA_SETUP {}, STATUS {}: the forms need at least 3, 3 and 2 "
                                                 "cycles", cmd_addr, data_setup, status));
}

void NandProtocolMonitor::expect(unsigned way, int op, uint32_t mask, uint32_t xfer, uint32_t tag) {
  if (way >= ways_) return violation(0, "descriptor", fmt::format("a descriptor for way {} of {}", way, ways_));
  Op o;
  o.op = op;
  o.mask = mask;
  o.xfer = xfer;
  o.tag = tag;
  way_[way].queued.push_back(o);
}

void NandProtocolMonitor::reset() {
  for (Way& w : way_) w = Way{};
  std::fill(ready_prev_.begin(), ready_prev_.end(), ~0u);
  selected_ = -1;
}

void NandProtocolMonitor::violation(uint64_t now, const std::string& rule, const std::string& what) {
  if (violations_.size() < 1000) violations_.push_back(fmt::format("[{}] cycle {}: {}", rule, now, what));
}

uint32_t NandProtocolMonitor::ready_mask(unsigned w, const std::vector<bool>& ready) const {
  uint32_t m = 0;
  for (unsigned p = 0; p < planes_; p++)
    if (ready[w * planes_ + p]) m |= 1u << p;
  return m;
}

void NandProtocolMonitor::cycle(uint64_t now, const NandPins& p, const std::vector<bool>& plane_ready) {
  cycles_++;
  int low = 0, way = -1;
  for (unsigned w = 0; w < ways_; w++)
    if (!(p.ce_n >> w & 1u)) low++, way = int(w);
  auto pins = [&] {
    return fmt::format("CE#={:0{}b} CLE={} ALE={} WE#={} RE#={} DQ={:02X}h", p.ce_n & ((1u << ways_) - 1), ways_, int(p.cle),
                       int(p.ale), int(p.we_n), int(p.re_n), unsigned(p.dq));
  };
  if (low > 1) violation(now, "one CE#", "more than one CE# low: " + pins());
  if (p.cle && p.ale) violation(now, "CLE/ALE", "CLE and ALE high together: " + pins());
  if ((p.cle || p.ale) && p.we_n) violation(now, "latch", "CLE or ALE high without WE# low: " + pins());
  if (!p.we_n && !p.re_n) violation(now, "WE#/RE#", "WE# and RE# low together: " + pins());
  if (low == 0 && (p.cle || p.ale || !p.we_n || !p.re_n)) violation(now, "CE#", "a strobe with no CE# low: " + pins());
  // The arrays: R/B# of an operation's planes falling after its confirm.
  for (unsigned w = 0; w < ways_; w++) {
    const uint32_t rdy = ready_mask(w, plane_ready);
    for (Op& o : way_[w].flight)
      if (o.confirmed && (rdy & o.occupied) != o.occupied) o.saw_busy = true;
  }
  if (selected_ >= 0 && selected_ != way) end_form(now, unsigned(selected_), way < 0 ? "CE# went high" : "CE# moved to another way");
  if (low == 1) byte(now, unsigned(way), p, plane_ready);
  selected_ = low == 1 ? way : -1;
  for (unsigned w = 0; w < ways_; w++) ready_prev_[w] = ready_mask(w, plane_ready);
}

void NandProtocolMonitor::byte(uint64_t now, unsigned w, const NandPins& p, const std::vector<bool>& ready) {
  Way& s = way_[w];
  if (p.cle) return command(now, w, p.dq, ready);
  const std::string where = fmt::format("way {}", w);
  if (p.ale) {
    const bool addressed = s.form == Form::Read || s.form == Form::Program || s.form == Form::Erase || s.form == Form::DataOut;
    if (addressed && (s.step == kAwaitConfirm || (s.step == kTadl && s.count == 0)))
      return violation(now, "address cycles", fmt::format("{}: more address cycles than {}", where,
                                                          s.form == Form::DataOut ? std::string("one (data out)")
                                                                                  : fmt::format("CMD_ADDR - 2 = {}", cmd_addr_ - 2)));
    const bool addr_ok = (s.form == Form::Read || s.form == Form::Program || s.form == Form::Erase || s.form == Form::DataOut) &&
                         s.step == kAddr;
    if (!addr_ok) return violation(now, "sequence", where + ": an address byte outside an address stretch");
    if (s.count == 0) {
      s.plane = p.dq;
      if (s.plane >= planes_) violation(now, "address", fmt::format("{}: plane {} of {}", where, s.plane, planes_));
      if (int(s.plane) <= s.last_plane)
        violation(now, "multi-plane", fmt::format("{}: plane {} after plane {} (planes must rise)", where, s.plane, s.last_plane));
      s.last_plane = int(s.plane);
      s.planes |= 1u << (s.plane & 31);
    }
    s.count++;
    const uint32_t want = s.form == Form::DataOut ? 1 : cmd_addr_ >= 2 ? cmd_addr_ - 2 : 0;
    if (s.count > want) violation(now, "address cycles", fmt::format("{}: {} address cycles, CMD_ADDR - 2 = {}", where, s.count, want));
    if (s.count == want) {
      s.step = s.form == Form::Program ? kTadl : kAwaitConfirm;
      s.count = 0;
    }
    return;
  }
  if (!p.we_n) {   // a data byte in
    if (s.form != Form::Program || (s.step != kTadl && s.step != kData))
      return violation(now, "sequence", where + ": a data byte in outside a program's data stretch");
    if (s.step == kTadl) {
      if (s.count != data_setup_)
        violation(now, "tADL", fmt::format("{}: {} cycles from the address to the data in, DATA_SETUP = {}", where, s.count, data_setup_));
      s.step = kData;
      s.data = 0;
    }
    s.data++;
    return;
  }
  if (!p.re_n) {   // a data byte out
    if (s.form == Form::Status) {
      s.count++;
      return;
    }
    if (s.form != Form::DataOut || (s.step != kTwhr && s.step != kData))
      return violation(now, "sequence", where + ": a data byte out outside a data-out or status stretch");
    if (s.step == kTwhr) {
      const uint32_t want = data_setup_ >= 3 ? data_setup_ - 3 : 0;
      if (s.count != want)
        violation(now, "tWHR", fmt::format("{}: {} cycles from E0h to the data out, DATA_SETUP - 3 = {}", where, s.count, want));
      const uint32_t bit = 1u << (s.plane & 31);
      if (!(ready_prev_[w] & bit) || !(ready_mask(w, ready) & bit))
        violation(now, "tRR", fmt::format("{}: data out of plane {} within a cycle of its R/B# rising (or while busy)", where, s.plane));
      s.step = kData;
      s.data = 0;
    }
    s.data++;
    return;
  }
  // An idle cycle: allowed in tADL, tWHR, between forms, and in a data out whose DATA_SETUP
  // leaves no room for its change-read-column command.
  if (s.form == Form::Program && s.step == kTadl) s.count++;
  else if (s.form == Form::DataOut && s.step == kTwhr) s.count++;
  else if (s.form != Form::None && s.step != kDone)
    violation(now, "sequence", fmt::format("{}: an idle cycle inside a form (step {})", where, s.step));
}

void NandProtocolMonitor::command(uint64_t now, unsigned w, uint8_t c, const std::vector<bool>& ready) {
  Way& s = way_[w];
  const std::string where = fmt::format("way {}", w);
  // A confirm where an address belongs: too few address cycles (then taken as the confirm).
  const bool confirm_byte = (s.form == Form::Read && (c == 0x30 || c == 0x32)) || (s.form == Form::Erase && (c == 0xD0 || c == 0xD1)) ||
                            (s.form == Form::DataOut && c == 0xE0);
  if (confirm_byte && s.step == kAddr) {
    violation(now, "address cycles", fmt::format("{}: {} address cycles before the confirm, {} wanted", where, s.count,
                                                 s.form == Form::DataOut ? 1u : cmd_addr_ - 2));
    s.step = kAwaitConfirm;
  }
  // Confirms and the bytes that continue a form.
  if ((s.form == Form::Read && s.step == kAwaitConfirm && (c == 0x30 || c == 0x32)) ||
      (s.form == Form::Erase && s.step == kAwaitConfirm && (c == 0xD0 || c == 0xD1)) ||
      (s.form == Form::Program && s.step == kData && (c == 0x10 || c == 0x11))) {
    if (s.form == Form::Program) {
      const uint32_t want = s.queued.empty() ? 0 : data_cycles(s.queued.front().xfer);
      if (s.data != want)
        violation(now, "data cycles", fmt::format("{}: {} data bytes in for plane {}, the descriptor's {} bytes over {} = {}", where,
                                                  s.data, s.plane, s.queued.empty() ? 0 : s.queued.front().xfer, bus_bytes_, want));
    }
    if (c == 0x30 || c == 0xD0 || c == 0x10) {
      confirm(now, w, s.form == Form::Read ? 1 : s.form == Form::Program ? 2 : 3);
      s.step = kDone;
    } else {
      s.step = kAwaitNext;
    }
    s.count = 0;
    return;
  }
  if (s.form == Form::DataOut && s.step == kAwaitConfirm && c == 0xE0) {
    s.step = kTwhr;
    s.count = 0;
    return;
  }
  if (s.step == kAwaitNext && c == s.first_cmd) {   // the next plane of a multi-plane form
    s.step = kAddr;
    s.count = 0;
    return;
  }
  // A new form: whatever was being decoded must be complete.
  if (s.form != Form::None) end_form(now, w, "a new command byte");
  s = Way{std::move(s.queued), std::move(s.flight)};
  s.first_cmd = c;
  s.count = 0;
  s.step = kAddr;
  const uint32_t rdy = ready_mask(w, ready);
  switch (c) {
    case 0x00: s.form = Form::Read; break;
    case 0x80: s.form = Form::Program; break;
    case 0x60: s.form = Form::Erase; break;
    case 0x06: s.form = Form::DataOut; break;
    case 0x70: s.form = Form::Status; break;
    default:
      s.form = Form::None;
      return violation(now, "sequence", fmt::format("{}: command byte {:02X}h where a form begins", where, unsigned(c)));
  }
  if (s.form == Form::Read || s.form == Form::Program || s.form == Form::Erase) {
    if (s.queued.empty()) return violation(now, "descriptor", where + ": an operation begins on the pins with no descriptor for the way");
    const Op& next = s.queued.front();
    const uint32_t occ = indep_ && next.op == 1 ? next.mask : (planes_ >= 32 ? ~0u : (1u << planes_) - 1);
    if ((rdy & occ) != occ)
      violation(now, "R/B#", fmt::format("{}: a {} command while its planes are busy (R/B# {:0{}b})", where, form_name(next.op), rdy, planes_));
  }
  if (s.form == Form::Status) {
    const Op* target = nullptr;
    for (const Op& o : s.flight)
      if (o.op != 1 && o.confirmed && !o.status_done) target = &o;
    s.step = kData;
    if (!target) return violation(now, "sequence", where + ": a status read with no program or erase in flight");
    s.target_tag = target->tag;
    s.has_target = true;
    if (!target->saw_busy)
      violation(now, "R/B#", fmt::format("{}: the status of tag {} read, but R/B# never fell after its confirm", where, target->tag));
    if ((rdy & target->occupied) != target->occupied)
      violation(now, "R/B#", fmt::format("{}: the status of tag {} read while its planes are busy", where, target->tag));
  }
}

void NandProtocolMonitor::end_form(uint64_t now, unsigned w, const char* why) {
  Way& s = way_[w];
  const std::string where = fmt::format("way {}", w);
  switch (s.form) {
    case Form::None: break;
    case Form::Read:
    case Form::Program:
    case Form::Erase:
      if (s.step != kDone) violation(now, "sequence", fmt::format("{}: a {} cut short ({}, step {})", where,
                                                                  form_name(s.form == Form::Read ? 1 : s.form == Form::Program ? 2 : 3),
                                                                  why, s.step));
      break;
    case Form::DataOut: {
      Op* target = nullptr;
      for (Op& o : s.flight)
        if (o.op == 1 && o.confirmed && (o.mask >> s.plane & 1u) && !(o.planes_out >> s.plane & 1u)) {
          target = &o;
          break;
        }
      if (!target) {
        violation(now, "sequence", fmt::format("{}: data out of plane {} with no read of it in flight", where, s.plane));
        break;
      }
      if (!target->saw_busy)
        violation(now, "R/B#", fmt::format("{}: data out of tag {} but R/B# never fell after its confirm", where, target->tag));
      const uint32_t want = data_cycles(target->xfer);
      if (s.step != kData || s.data != want)
        violation(now, "data cycles", fmt::format("{}: {} data bytes out of plane {} for tag {}, its {} bytes over {} = {}", where,
                                                  s.step == kData ? s.data : 0, s.plane, target->tag, target->xfer, bus_bytes_, want));
      target->planes_out |= 1u << s.plane;
      break;
    }
    case Form::Status:
      if (s.count + 1 != status_)
        violation(now, "status cycles", fmt::format("{}: 70h and {} status read cycles, STATUS = {}", where, s.count, status_));
      for (Op& o : s.flight)
        if (s.has_target && o.tag == s.target_tag) o.status_done = true;
      break;
  }
  s.form = Form::None;
  s.step = kDone;
  s.last_plane = -1;
  s.planes = 0;
}

void NandProtocolMonitor::confirm(uint64_t now, unsigned w, int op) {
  Way& s = way_[w];
  const std::string where = fmt::format("way {}", w);
  if (s.queued.empty()) return violation(now, "descriptor", where + ": an operation confirmed with no descriptor for the way");
  Op o = s.queued.front();
  s.queued.pop_front();
  if (o.op != op || o.mask != s.planes)
    violation(now, "descriptor", fmt::format("{}: the pins carried a {} of planes {:b}, the descriptor (tag {}) a {} of planes {:b}", where,
                                             form_name(op), s.planes, o.tag, form_name(o.op), o.mask));
  o.confirmed = true;
  o.occupied = indep_ && o.op == 1 ? o.mask : (planes_ >= 32 ? ~0u : (1u << planes_) - 1);
  s.flight.push_back(o);
  decoded_++;
}

void NandProtocolMonitor::completed(uint64_t now, unsigned w, uint32_t tag) {
  if (w >= ways_) return violation(now, "completion", fmt::format("a completion on way {} of {}", w, ways_));
  auto& f = way_[w].flight;
  for (auto it = f.begin(); it != f.end(); ++it)
    if (it->tag == tag) {
      const bool done = it->op == 1 ? it->planes_out == it->mask : it->status_done;
      if (!done)
        violation(now, "completion", fmt::format("way {}: tag {} ({}) completed before all its phases crossed the pins", w, tag,
                                                 form_name(it->op)));
      f.erase(it);
      return;
    }
  violation(now, "completion", fmt::format("way {}: a completion of tag {}, which never crossed the pins", w, tag));
}

}  // namespace ssdvp
