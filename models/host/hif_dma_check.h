// The host interface's check of one HIF DMA descriptor the firmware posted, before the
// interface acts on it: a pure function of the descriptor and the state of the command slot
// it names, so that it can be tested and fuzzed without SystemC.
//
// Models: slot range and occupancy, the direction, the sector range against the command's
// sectors (in 64 bits: sect_off + nsect may not wrap), and a descriptor for a command whose
// completion is already posted (a second completion for one slot).
// Leaves out: the DRAM addresses of the data or scatter list (Dram::at checks those when the
// list is built), the completion status and info the firmware reports (the host's business).
#pragma once

#include <cstdint>
#include <string>

extern "C" {
#include "ftl-sw/hal/regs.h"
}

namespace ssdvp {

// What the interface knows of the slot a descriptor names.
struct HifSlotState {
  bool holds_command = false;     // a fetched command is in the slot
  uint32_t nsect = 0;             // its sectors
  bool completion_posted = false; // a descriptor with SSD_DMAF_COMPLETE for it was accepted
};

// "" when `d` may run, otherwise what is wrong with it, naming the slot ("slot 17 ...").
// `slot` is the state of slot d.slot (ignored when d.slot >= SSD_HOST_SLOTS).
std::string hif_dma_problem(const ssd_hif_dma& d, const HifSlotState& slot);

}  // namespace ssdvp
