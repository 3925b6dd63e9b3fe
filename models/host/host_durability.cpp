// The host driver's durability checks: a flush or durable write against what the NAND holds,
// and the reads after a power cut against what may survive it (power_cut_check.h).  Part of
// HostDriver (host_driver.h); what the driver does with requests is host_driver.cpp.
#include <string>
#include <vector>

#include "models/host/host_driver.h"
#include "models/host/host_request.h"

namespace ssdvp {

// A flush completed: everything acknowledged before it was submitted must be on flash.
void HostDriver::check_flush(uint64_t submit_ns) {
  if (!flash_versions) return;
  std::vector<uint32_t> required, held;
  checker_->durable_required(submit_ns, required);
  flash_versions(held);
  flushes_checked_++;
  for (size_t lba = 0; lba < required.size(); lba++) {
    if (!required[lba] || (lba < held.size() && held[lba] >= required[lba])) continue;
    outcomes_.unexplained++;
    if (outcomes_.first_unexplained.size() < 10)
      outcomes_.first_unexplained.push_back(
          "flush submitted at " + std::to_string(submit_ns) + " ns completed while LBA " + std::to_string(lba) +
          " held " + (lba < held.size() && held[lba] ? "write #" + std::to_string(held[lba]) : std::string("nothing")) +
          " on flash, not write #" + std::to_string(required[lba]) + " acknowledged before the flush");
  }
}

void HostDriver::flush_acknowledged_before(sc_core::sc_time t) {
  if (checker_) checker_->flush_completed(ns_of(t));
}

DurableState HostDriver::durable_state() const {
  return checker_->durable_state(ns_of(sc_core::sc_time_stamp()));
}

// Per sector of a read: 1 if the device could not read it (its command failed with a media
// error naming it, or naming none: then every sector of that command).
std::vector<uint8_t> HostDriver::unreadable_sectors(const Request* rq) const {
  std::vector<uint8_t> out(rq->nsect, 0);
  for (const HostCommand& c : rq->cmds) {
    if (c.status != SSD_ST_MEDIA_ERROR) continue;
    const uint64_t off = c.lba - rq->lba;
    for (uint32_t k = 0; k < c.nsect && off + k < rq->nsect; k++)
      out[off + k] = !c.unreadable_listed || (c.unreadable[k / 32] >> (k % 32) & 1u);
  }
  return out;
}

// A read after a power cut.  A sector this power cycle has written (acknowledged before the
// read, or in flight and read) is checked as in any run; else its first read is held to what
// may survive the cut (power_cut_check.h; a sector the device could not read is held to that)
// and later ones to what the first read found.
void HostDriver::check_after_cut(const Request* rq, const std::vector<uint8_t>& unreadable) {
  RecoveryCheck& rc = recovery_check_;
  for (uint32_t i = 0; i < rq->nsect; i++) {
    const uint64_t lba = rq->lba + i;
    const ssd_sector_tag& t = rq->data[i];
    const bool media_error = unreadable[i] != 0;
    const IntegrityChecker::ReadSnapshot& s = rq->snap[i];
    if (!media_error && (s.acked_submit != 0 || t.seq > checker_->writes_before_cut())) {
      checker_->read_completed(lba, 1, &s, &t);
      continue;
    }
    if (!media_error && checker_->recovered_tag(lba).seq != UINT32_MAX) {
      checker_->recovered_read(lba, t, s);
      continue;
    }
    const std::string why = after_cut_->check(lba, t, media_error);
    if (!media_error) checker_->record_recovered(lba, t);
    rc.sectors++;
    if (!why.empty()) {
      rc.lost++;
      if (rc.first_lost.size() < 10) rc.first_lost.push_back(why);
      continue;
    }
    if (!media_error && t.seq == 0 && t.lba == 0 && lba != 0) rc.zeros++;
    else if (!media_error && t.seq > after_cut_->durable[lba]) rc.newer++;
  }
}

// A durable write (FUA, or the write cache off) completed: its data must be on flash.
void HostDriver::check_durable_write(uint32_t seq) {
  if (!flash_versions) return;
  std::vector<uint32_t> held;
  flash_versions(held);
  durable_writes_checked_++;
  const std::string why = checker_->durable_write_missing(seq, held);
  if (why.empty()) return;
  outcomes_.unexplained++;
  if (outcomes_.first_unexplained.size() < 10) outcomes_.first_unexplained.push_back(why);
}

}  // namespace ssdvp
