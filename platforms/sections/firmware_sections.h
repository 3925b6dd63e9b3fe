// run.json sections of the firmware's statistics, by mechanism: the demand-based map
// ("mapping"), SLC/MLC placement ("placement"), the write buffer ("write_buffer"), read-ahead
// ("readahead"); each from the firmware's statistics block (ftl-sw/hal/regs.h ssd_fw_stats) at
// the start and end of the measured window, added only where the mechanism is configured.
// Leaves out: the FTL's totals, GC, bad blocks and wear ("ftl": ftl_section.h).
#pragma once

#include "models/common/params.h"
#include "platforms/run_sections.h"

namespace ssdvp {

SectionReporter mapping_section(const FtlParams& ftl);        // ftl.mapping != opt
SectionReporter placement_section(const FtlParams& ftl);      // ftl.placement != none
SectionReporter write_buffer_section(const FtlParams& ftl);   // always
SectionReporter readahead_section(const FtlParams& ftl);      // ftl.readahead != none

}  // namespace ssdvp
