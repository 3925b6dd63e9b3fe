// run.json's "ftl" section (the FTL's totals in the measured window: host and flash sectors,
// GC, erases, reads, stalls, durable writes, the trim log, bad blocks and wear levelling,
// capacities) and the write amplification figures "waf" and "program_unit_sectors".  Bad blocks
// and the firmware's erase counts are of the drive at the end (since it was formatted), beside
// the dies' own counts.
// Leaves out: the mechanisms' own sections (firmware_sections.h), the NAND's view ("nand",
// "wear": device_sections.h).
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "models/common/params.h"
#include "platforms/run_sections.h"

namespace ssdvp {

class Dram;
class FlashController;
class HostDriver;
namespace nand { class Die; }

// "recovery" (a drive that powered on over a NAND image: what the scan read and found, and with
// `checked` what the host read back against its durability record).  `ops_before_start`: the
// flash operations from power-on to the workload (the recovery's).
SectionReporter recovery_section(const HostDriver& driver, std::function<const ssd_fw_stats*()> fw_now,
                                 const uint64_t& ops_before_start, bool checked);

// `fw_now`: the firmware's statistics block now (nullptr before boot).
SectionReporter ftl_section(const PlatformParams& p, const std::vector<std::unique_ptr<nand::Die>>& dies,
                            const FlashController& fctl, Dram& dram,
                            std::function<const ssd_fw_stats*()> fw_now);

}  // namespace ssdvp
