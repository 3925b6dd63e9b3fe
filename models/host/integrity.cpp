#include "models/host/integrity.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace ssdvp {

IntegrityChecker::IntegrityChecker(uint64_t logical_sectors)
    : acked_(logical_sectors) {
  writes_.reserve(1 << 20);
}

uint32_t IntegrityChecker::write_submitted(uint64_t lba, uint32_t nsect, uint64_t t_ns, ssd_sector_tag* data,
                                           bool durable) {
  if (writes_.size() >= kTrim - 1)
    throw std::runtime_error("integrity checker: more than 2^31 - 1 writes in one run (the sequence numbers would "
                             "collide with trims')");
  writes_.push_back(WriteRecord{lba, nsect, t_ns, UINT64_MAX, durable});
  const uint32_t seq = uint32_t(writes_.size());
  for (uint32_t i = 0; i < nsect; i++) data[i] = ssd_sector_tag{uint32_t(lba + i), seq};
  return seq;
}

void IntegrityChecker::durable_required(uint64_t flush_submit_ns, std::vector<uint32_t>& seq_out) const {
  seq_out.assign(acked_.size(), 0);
  for (size_t i = writes_before_cut_; i < writes_.size(); i++) {
    const WriteRecord& w = writes_[i];
    if (w.complete_ns == UINT64_MAX || w.complete_ns >= flush_submit_ns) continue;
    for (uint32_t k = 0; k < w.nsect; k++) seq_out[w.lba + k] = uint32_t(i + 1);   // seq order = submit order
  }
  for (size_t lba = 0; lba < seq_out.size(); lba++) {
    const uint32_t a = acked_[lba];
    if (seq_out[lba] && is_trim(a) && acked_time(a) > writes_[seq_out[lba] - 1].submit_ns + 1) seq_out[lba] = 0;
  }
  // A trim not completed before the write was submitted (after it, or overlapping it in
  // time): the drive may have applied it last and dropped the write.
  for (const TrimRecord& t : trims_)
    for (uint64_t lba = t.lba; lba < t.lba + t.nsect && lba < seq_out.size(); lba++)
      if (seq_out[lba] && t.complete_ns >= writes_[seq_out[lba] - 1].submit_ns) seq_out[lba] = 0;
}

std::string IntegrityChecker::durable_write_missing(uint32_t seq, const std::vector<uint32_t>& held) const {
  const WriteRecord& w = writes_.at(seq - 1);
  for (uint32_t k = 0; k < w.nsect; k++) {
    const uint64_t lba = w.lba + k;
    const uint32_t h = lba < held.size() ? held[lba] : 0;
    if (h >= seq) continue;
    bool trimmed = false;
    for (const TrimRecord& t : trims_) trimmed |= lba - t.lba < t.nsect && t.complete_ns >= w.submit_ns;
    if (trimmed) continue;
    return "durable write #" + std::to_string(seq) + " (FUA or write cache off) of LBA " + std::to_string(lba) +
           " completed while the flash held " + (h ? "write #" + std::to_string(h) : std::string("nothing")) +
           " there";
  }
  return "";
}

void IntegrityChecker::write_completed(uint32_t seq, bool ok, uint64_t t_ns) {
  WriteRecord& w = writes_[seq - 1];
  if (!ok) return;   // not acknowledged: may or may not have happened; stays "in flight"
  w.complete_ns = t_ns;
  for (uint32_t i = 0; i < w.nsect; i++) {
    uint32_t& a = acked_.ref(w.lba + i);
    // An older write's sequence number needs no lookup: seq order is submit order.
    if ((!is_trim(a) && a <= seq) || w.submit_ns + 1 >= acked_time(a)) a = seq;
  }
}

void IntegrityChecker::trim_submitted(uint64_t lba, uint32_t nsect, uint64_t t_ns) {
  if (trims_.size() >= 4096) {   // forget the oldest completed one
    for (size_t i = 0; i < trims_.size(); i++)
      if (trims_[i].complete_ns != UINT64_MAX) {
        trims_.erase(trims_.begin() + long(i));
        break;
      }
  }
  if (all_trims_.size() >= kTrim - 1) throw std::runtime_error("integrity checker: more than 2^31 - 1 trims in one run");
  trims_.push_back({lba, nsect, t_ns, UINT64_MAX});
  all_trims_.push_back({lba, nsect, t_ns, UINT64_MAX});
}

DurableState IntegrityChecker::durable_state(uint64_t cut_ns) const {
  if (before_) return durable_state_after_cut(cut_ns);
  DurableState s;
  s.cut_ns = cut_ns;
  s.precond_below = precond_below_;
  const size_t n = acked_.size();
  s.durable.assign(n, 0);
  s.zeros_ok.assign(n, 0);
  s.writes.reserve(writes_.size());
  for (size_t i = 0; i < writes_.size(); i++) {
    const WriteRecord& w = writes_[i];
    s.writes.push_back({w.lba, w.nsect, w.submit_ns, w.complete_ns});
    const bool acked = w.complete_ns != UINT64_MAX;
    if (!acked || !(w.durable || w.complete_ns <= flushed_before_)) continue;
    for (uint32_t k = 0; k < w.nsect; k++) s.durable[w.lba + k] = uint32_t(i + 1);   // seq order = submit order
  }
  for (size_t lba = 0; lba < n; lba++) s.zeros_ok[lba] = s.durable[lba] == 0 && lba >= precond_below_;
  // A trim not completed before the durable write was submitted (or with none): zeros are
  // allowed.
  for (const TrimRecord& t : all_trims_)
    for (uint64_t lba = t.lba; lba < t.lba + t.nsect && lba < n; lba++) {
      const uint32_t d = s.durable[lba];
      if (d == 0 || t.complete_ns >= writes_[d - 1].submit_ns) s.zeros_ok[lba] = 1;
    }
  return s;
}

// The record after a power cycle that wrote: the earlier cycle's, with this cycle's writes and
// trims on top (their times shifted past the earlier cut, so that every earlier write counts as
// done before any of this cycle's was sent).
DurableState IntegrityChecker::durable_state_after_cut(uint64_t cut_ns) const {
  const DurableState& b = *before_;
  const uint64_t shift = b.cut_ns + 1;
  const auto shifted = [shift](uint64_t t) { return t == UINT64_MAX ? t : t + shift; };
  DurableState s;
  s.cut_ns = shifted(cut_ns);
  s.precond_below = b.precond_below;
  s.durable = b.durable;
  s.zeros_ok = b.zeros_ok;
  s.durable.resize(acked_.size(), 0);
  s.zeros_ok.resize(acked_.size(), uint8_t(1));
  s.writes = b.writes;
  for (size_t i = writes_before_cut_; i < writes_.size(); i++) {
    const WriteRecord& w = writes_[i];
    s.writes.push_back({w.lba, w.nsect, shifted(w.submit_ns), shifted(w.complete_ns)});
    const bool acked = w.complete_ns != UINT64_MAX;
    if (!acked || !(w.durable || w.complete_ns <= flushed_before_)) continue;
    for (uint32_t k = 0; k < w.nsect; k++) {
      s.durable[w.lba + k] = uint32_t(i + 1);
      s.zeros_ok[w.lba + k] = 0;
    }
  }
  // A trim of this cycle not completed before the durable write was submitted (or over a
  // sector whose durable write is the earlier cycle's): zeros are allowed.
  for (const TrimRecord& t : all_trims_)
    for (uint64_t lba = t.lba; lba < t.lba + t.nsect && lba < s.durable.size(); lba++) {
      const uint32_t d = s.durable[lba];
      if (d <= writes_before_cut_ || t.complete_ns >= writes_[d - 1].submit_ns) s.zeros_ok[lba] = 1;
    }
  return s;
}

// A trim covering lba was still in flight at since_ns or later.
bool IntegrityChecker::racing_trim(uint64_t lba, uint64_t since_ns) const {
  for (const TrimRecord& t : trims_)
    if (lba >= t.lba && lba < t.lba + t.nsect && t.complete_ns >= since_ns) return true;
  return false;
}

void IntegrityChecker::trim_completed(uint64_t lba, uint32_t nsect, uint64_t t_submit_ns, bool ok,
                                      uint64_t t_complete_ns) {
  // The newest matching record still in flight (searched from the back: it is near the end);
  // returns its index (v.size() if none).
  const auto complete = [&](std::vector<TrimRecord>& v) {
    for (size_t i = v.size(); i-- > 0;)
      if (v[i].lba == lba && v[i].nsect == nsect && v[i].submit_ns == t_submit_ns && v[i].complete_ns == UINT64_MAX) {
        v[i].complete_ns = t_complete_ns;
        return i;
      }
    return v.size();
  };
  complete(trims_);
  if (!ok) return;   // not acknowledged: may yet have happened; stays "in flight" in all_trims_
  const size_t index = complete(all_trims_);
  if (index == all_trims_.size())   // its submission was not seen: it happened all the same
    all_trims_.push_back({lba, nsect, t_submit_ns, t_complete_ns});
  const uint32_t id = kTrim | uint32_t(index + 1);
  for (uint32_t i = 0; i < nsect; i++) {
    uint32_t& a = acked_.ref(lba + i);
    if (t_submit_ns + 1 >= acked_time(a)) a = id;
  }
}

void IntegrityChecker::read_submitted(uint64_t lba, uint32_t nsect, std::vector<ReadSnapshot>& out,
                                      uint64_t t_ns) const {
  out.resize(nsect);
  for (uint32_t i = 0; i < nsect; i++) {
    const uint32_t a = acked_[lba + i];
    out[i] = ReadSnapshot{acked_time(a), is_trim(a), t_ns};
  }
}

uint32_t IntegrityChecker::read_completed(uint64_t lba, uint32_t nsect, const ReadSnapshot* snap,
                                          const ssd_sector_tag* data) {
  uint32_t bad = 0;
  for (uint32_t i = 0; i < nsect; i++) {
    const uint64_t l = lba + i;
    const ssd_sector_tag t = data[i];
    const ReadSnapshot& s = snap[i];
    bool ok;
    std::string why;
    if (t.seq == 0) {
      // Preconditioned (lba, 0) or never written / trimmed (0, 0); for sector 0 the two look
      // the same, and either reading is taken.
      const bool zero = t.lba == 0;
      const bool precond = t.lba == uint32_t(l);
      if (s.acked_submit != 0) {
        ok = zero && s.trimmed;
        why = "stale data: a newer write was acknowledged before the read";
      } else if (zero && !precond) {
        ok = l >= precond_below_;
        why = "zeros where preconditioning wrote data";
      } else {
        ok = precond;
        why = "tag names another sector";
      }
    } else if (t.seq > writes_.size()) {
      ok = false;
      why = "tag with a sequence number never issued";
    } else {
      const WriteRecord& w = writes_[t.seq - 1];
      if (t.lba != uint32_t(l) || l < w.lba || l >= w.lba + w.nsect) {
        ok = false;
        why = "tag names another sector or write";
      } else if (w.complete_ns != UINT64_MAX && s.acked_submit > w.complete_ns + 1) {
        ok = false;
        why = "stale data: a newer write was acknowledged before the read";
      } else {
        ok = true;
      }
    }
    // Zeros from a trim the drive may have applied after the newest acknowledged write (one
    // that overlapped that write in time) or that overlapped the read.
    if (!ok && t.seq == 0 && t.lba == 0 && !trims_.empty() &&
        racing_trim(l, s.acked_submit ? s.acked_submit - 1 : s.read_submit))
      ok = true;
    checked_++;
    if (!ok) {
      bad++;
      std::ostringstream m;
      m << "lba " << l << ": read tag (lba " << t.lba << ", seq " << t.seq << "): " << why;
      mismatch(m.str());
    }
  }
  return bad;
}

void IntegrityChecker::mismatch(const std::string& why) {
  mismatches_++;
  if (errors_.size() < 20) errors_.push_back(why);
}

void IntegrityChecker::payload_mismatch(uint64_t lba, uint32_t offset) {
  mismatch("lba " + std::to_string(lba) + ": payload differs at byte " + std::to_string(offset));
}

void IntegrityChecker::continue_after_cut(const DurableState& before) {
  writes_.clear();
  for (const DurableState::Write& w : before.writes) writes_.push_back(WriteRecord{w.lba, w.nsect, 0, 0, false});
  writes_before_cut_ = uint32_t(writes_.size());
  before_ = std::make_shared<const DurableState>(before);
  precond_below_ = before.precond_below;
  recovered_.assign(acked_.size(), ssd_sector_tag{0, UINT32_MAX});
}

uint32_t IntegrityChecker::recovered_read(uint64_t lba, const ssd_sector_tag& t, const ReadSnapshot& s) {
  checked_++;
  const ssd_sector_tag want = recovered_[lba];
  if (t.lba == want.lba && t.seq == want.seq) return 0;
  if (t.seq == 0 && t.lba == 0 && racing_trim(lba, s.read_submit)) return 0;
  std::ostringstream m;
  m << "lba " << lba << ": read tag (lba " << t.lba << ", seq " << t.seq << ") after the recovery read (lba "
    << want.lba << ", seq " << want.seq << ") and nothing written or trimmed there since";
  mismatch(m.str());
  return 1;
}

}  // namespace ssdvp
