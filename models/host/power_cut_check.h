// What the host may read back after a power cut (docs/reliability.md, "After a power cut"),
// computed from what it knew when the power went: per sector the newest **durable** write
// (a FUA write, any write with the write cache off, or a write completed before a flush that
// completed was submitted) and whether zeros are allowed (never durably written, or a trim
// was submitted after that write).  After recovery each sector must read that write, a newer
// write of the sector the host had submitted before the cut (acknowledged or not: a write the
// drive had not acknowledged may have reached flash), an older write that was still in flight
// when the durable one was submitted (NVMe does not order overlapping commands: the drive may
// have taken them in either order), or zeros where allowed; never an older version, another sector's data, garbage or a media error where durable data was.
// Saved by the process that cut the power, loaded by the one that powers on again.
// Leaves out: payload bytes (tags only).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

extern "C" {
#include "ftl-sw/hal/regs.h"
}

namespace ssdvp {

struct DurableState {
  struct Write {
    uint64_t lba;
    uint32_t nsect;
    uint64_t submit_ns, complete_ns;   // complete_ns = UINT64_MAX: not acknowledged
  };
  std::vector<uint32_t> durable;      // per sector: seq of the newest durable write (0: none)
  std::vector<uint8_t> zeros_ok;      // per sector: zeros are an allowed answer
  std::vector<Write> writes;          // index seq - 1: every write submitted before the cut
  uint64_t precond_below = 0;         // sectors below it hold preconditioned data (seq 0)
  uint64_t cut_ns = 0;

  void save(const std::string& path) const;
  static DurableState load(const std::string& path);

  // "" if `tag` (or a media error, `unreadable`) is an allowed answer for sector `lba`, else
  // what is wrong ("older version #5 (durable: #9)", ...).
  std::string check(uint64_t lba, const ssd_sector_tag& tag, bool unreadable) const;
};

}  // namespace ssdvp
