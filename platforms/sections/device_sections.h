// run.json sections of the device's hardware: how busy each block was in the measured window
// ("utilisation": dies, channels, the PCIe link both ways, DRAM), the RTL channels' own figures
// ("rtl"), the firmware cores ("firmware": busy time, commands, locks, instructions, the UART,
// the ISS's engine and profile) and the NAND array ("nand": programmed sectors, the dies' own
// WAF, block modes; "wear": erase counts of every block, timed erases per die, read retries).
// Leaves out: the firmware's statistics (firmware_sections.h, ftl_section.h).
#pragma once

#include <memory>
#include <vector>

#include "models/common/params.h"
#include "platforms/run_sections.h"

namespace ssdvp {

class ChannelIf;
class FirmwareCore;
class Mailbox;
class Uart;
namespace nand { class Die; }

SectionReporter utilisation_section();
// Registered with the RTL channels only.
SectionReporter rtl_channel_section(const std::vector<ChannelIf*>& channels, const ChannelParams& channel);
SectionReporter firmware_cores_section(const std::vector<FirmwareCore*>& cores, const FirmwareParams& firmware,
                                       const Uart& uart, const Mailbox& mailbox);
SectionReporter nand_section(const std::vector<std::unique_ptr<nand::Die>>& dies, const NandParams& nand);

}  // namespace ssdvp
