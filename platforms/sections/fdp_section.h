// run.json's "fdp" section (ftl.fdp.handles > 0; docs/fdp.md): the drive's FDP logs as the host
// read them at the end of the run (HostDriver::fdp_logs: the configuration, each handle's use and
// status, the statistics, the events), next to the NAND's own counts of programmed and erased
// bytes taken at the moment the logs were read (the drive at rest), so that the two can be held
// against each other.
// Leaves out: per-handle write amplification (the spec's logs count the endurance group's).
#pragma once

#include <cstdint>
#include <memory>

#include "models/common/params.h"
#include "platforms/run_sections.h"

namespace ssdvp {

class HostDriver;

// The NAND's counts when the host read the logs (filled by the platform's on_fdp_logs_read).
struct NandCountsAtFdpLogs {
  bool taken = false;
  bool at_rest = false;            // the drive came to rest before the logs were read
  uint64_t programmed_bytes = 0;   // every die's programmed sectors x 4 KiB
  uint64_t erased_bytes = 0;       // every block's erase count x its bytes
};

SectionReporter fdp_section(const HostDriver& driver, const FtlParams& ftl,
                            std::shared_ptr<const NandCountsAtFdpLogs> nand);

}  // namespace ssdvp
