// What the firmware finds in controller DRAM when it boots: its configuration block
// (ftl-sw/hal/regs.h ssd_fw_config: the FTL's policies and sizes from the platform's
// parameters, each policy name turned into its firmware code) and the NAND geometry
// (ssd_geometry); and what the firmware's refusals of a configuration mean, by the keys behind
// each halt code (SSD_HALT_BAD_CONFIG | reason).
// Leaves out: the firmware image (ISS) or entry point (native), the register map's live
// registers (models/cpu/sysctl.h).
#pragma once

#include <cstdint>
#include <string>

#include "models/common/params.h"

namespace ssdvp {

class Dram;

// Writes the configuration block at config_addr and the geometry at geometry_addr; ConfigError
// for a policy name the firmware has no code for.
void write_firmware_boot_config(Dram& dram, const PlatformParams& p, uint32_t config_addr, uint32_t geometry_addr);

// The configuration keys behind a halt code the firmware gave for a configuration it refuses
// ("" for a halt that is not a refusal).
std::string explain_firmware_halt(uint32_t code);

}  // namespace ssdvp
