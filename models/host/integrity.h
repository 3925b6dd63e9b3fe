// Host-side data-integrity checker.  Every written 4 KiB sector carries the tag (lba, seq)
// of the write that produced it; every read sector's tag is checked against what the read
// may legally return: the newest write acknowledged before the read was submitted, or any
// write to that sector still in flight or submitted while the read was (NVMe does not order
// overlapping commands); likewise zeros may come from a trim that overlapped the read, or
// that overlapped that newest write (the drive may have applied the trim last).  Preconditioning writes carry seq 0; never-written or trimmed sectors read as zeros.
#pragma once

#include <cstdint>
#include <string>
#include <algorithm>
#include <memory>
#include <vector>

#include "models/host/paged_words.h"
#include "models/host/power_cut_check.h"

extern "C" {
#include "ftl-sw/hal/regs.h"
}

namespace ssdvp {

class IntegrityChecker {
 public:
  explicit IntegrityChecker(uint64_t logical_sectors);

  // A write of nsect sectors at lba submitted at t_ns: returns its sequence number and fills
  // the host buffer with the tags.
  // `durable`: FUA, or the write cache is off (it completes only once on flash).
  uint32_t write_submitted(uint64_t lba, uint32_t nsect, uint64_t t_ns, ssd_sector_tag* data, bool durable = false);
  void write_completed(uint32_t seq, bool ok, uint64_t t_ns);
  void trim_submitted(uint64_t lba, uint32_t nsect, uint64_t t_ns);
  void trim_completed(uint64_t lba, uint32_t nsect, uint64_t t_submit_ns, bool ok, uint64_t t_complete_ns);

  // Snapshot taken when a read is submitted (one entry per sector).
  struct ReadSnapshot {
    uint64_t acked_submit;   // latest submit time (+1) of a write or trim acknowledged so far
    bool trimmed;            // that newest acknowledged operation was a trim
    uint64_t read_submit;    // when the read was submitted (ns)
  };
  void read_submitted(uint64_t lba, uint32_t nsect, std::vector<ReadSnapshot>& out, uint64_t t_ns = 0) const;
  // Checks the tags a read returned; returns the number of bad sectors.
  uint32_t read_completed(uint64_t lba, uint32_t nsect, const ReadSnapshot* snap, const ssd_sector_tag* data);
  uint32_t read_completed(uint64_t lba, uint32_t nsect, const std::vector<ReadSnapshot>& snap,
                          const ssd_sector_tag* data) {
    return read_completed(lba, nsect, snap.data(), data);
  }

  // A sector whose tag was right but whose payload differs at byte `offset`.
  void payload_mismatch(uint64_t lba, uint32_t offset);

  // Sectors below `lba` were written by preconditioning (its sequential fill): reading them
  // back as never-written zeros is an error.
  void set_preconditioned_below(uint64_t lba) { precond_below_ = lba; }

  // What a flush submitted at flush_submit_ns must have made durable: for each sector the
  // sequence number of its newest write acknowledged before then (0: none, or a trim came
  // after it).  Flash holding that write or a newer one satisfies the flush.
  void durable_required(uint64_t flush_submit_ns, std::vector<uint32_t>& seq_out) const;
  // A durable write just completed: "" if `held` (per sector, the newest write on flash) has
  // it or a newer write of each of its sectors (or a trim submitted after it may have dropped
  // it), else what is missing.
  std::string durable_write_missing(uint32_t seq, const std::vector<uint32_t>& held) const;

  // Continues after a power cut (the host powers on over the cut's NAND image with a workload
  // that writes again): the writes submitted before the cut keep their sequence numbers (they
  // count as done at time 0, before anything of this power cycle), new writes number on, and
  // a flush of this cycle asks nothing of them.  A sector's data from before the cut is held
  // to the durability record by the caller the first time it is read (record_recovered),
  // then must read the same until this cycle writes or trims it (recovered_read).
  void continue_after_cut(const DurableState& before);
  uint32_t writes_before_cut() const { return writes_before_cut_; }
  // The tag sector lba read first after recovery (seq UINT32_MAX: not read yet).
  ssd_sector_tag recovered_tag(uint64_t lba) const { return recovered_[lba]; }
  void record_recovered(uint64_t lba, const ssd_sector_tag& t) { recovered_[lba] = t; }
  // A later read of such a sector (nothing of this cycle acknowledged on it at the read's
  // submission, tag from before the cut): the tag must be the recorded one, or zeros from a
  // trim of this cycle racing the read.  Counts a mismatch; returns the bad sectors (0 or 1).
  uint32_t recovered_read(uint64_t lba, const ssd_sector_tag& t, const ReadSnapshot& s);

  // A flush submitted at submit_ns completed successfully.
  void flush_completed(uint64_t submit_ns) { flushed_before_ = std::max(flushed_before_, submit_ns); }
  // What may be read back after power is lost now (power_cut_check.h).  After
  // continue_after_cut: the earlier record for every sector this cycle has made nothing durable
  // on (what the recovery may have left there is still allowed), this cycle's writes and trims
  // on top, their times after the earlier cut's.
  DurableState durable_state(uint64_t cut_ns) const;
  bool wrote_since_cut() const { return writes_.size() > writes_before_cut_; }

  uint64_t sectors_checked() const { return checked_; }
  uint64_t mismatches() const { return mismatches_; }
  const std::vector<std::string>& first_errors() const { return errors_; }

 private:
  struct WriteRecord {
    uint64_t lba;
    uint32_t nsect;
    uint64_t submit_ns, complete_ns;   // complete_ns = UINT64_MAX while in flight
    bool durable;                      // FUA, or the write cache off
  };
  std::vector<WriteRecord> writes_;      // index = seq - 1
  struct TrimRecord {
    uint64_t lba;
    uint32_t nsect;
    uint64_t submit_ns, complete_ns;   // complete_ns = UINT64_MAX while in flight
  };
  std::vector<TrimRecord> trims_;        // the latest trims (bounded), to excuse racing reads
  bool racing_trim(uint64_t lba, uint64_t since_ns) const;
  // Per sector: the newest acknowledged write or trim, as one 32-bit word (4 bytes per logical
  // sector the run has written or trimmed, paged_words.h): 0 for none, a write's sequence
  // number, or kTrim | (its index in all_trims_ + 1).  Its submit time is looked up in the
  // record (acked_time).
  PagedWords acked_;
  static constexpr uint32_t kTrim = uint32_t(1) << 31;
  static bool is_trim(uint32_t id) { return (id & kTrim) != 0; }
  // Submit time (ns) + 1 of the operation `id` names (0: none).
  uint64_t acked_time(uint32_t id) const {
    if (id == 0) return 0;
    return (is_trim(id) ? all_trims_[(id & ~kTrim) - 1].submit_ns : writes_[id - 1].submit_ns) + 1;
  }
  uint64_t checked_ = 0, mismatches_ = 0, precond_below_ = 0;
  uint64_t flushed_before_ = 0;          // writes completed by then are durable (a flush done)
  std::vector<TrimRecord> all_trims_;     // every trim (the durability state needs them all)
  uint32_t writes_before_cut_ = 0;        // continue_after_cut: seqs up to it are the last cycle's
  std::shared_ptr<const DurableState> before_;   // ... and the last cycle's record
  DurableState durable_state_after_cut(uint64_t cut_ns) const;
  std::vector<ssd_sector_tag> recovered_; // ... and each sector's tag as first read back
  void mismatch(const std::string& why);
  std::vector<std::string> errors_;
};

}  // namespace ssdvp
