// HIF DMA descriptor check: see hif_dma_check.h.
#include "models/host/hif_dma_check.h"

namespace ssdvp {

std::string hif_dma_problem(const ssd_hif_dma& d, const HifSlotState& slot) {
  auto num = [](uint64_t v) { return std::to_string(v); };
  const std::string name = "slot " + num(d.slot);
  if (d.slot >= SSD_HOST_SLOTS) return name + " is beyond the " + num(SSD_HOST_SLOTS) + " command slots";
  if (!slot.holds_command) return name + " holds no command";
  if (slot.completion_posted) {
    if (d.flags & SSD_DMAF_COMPLETE)
      return name + " completed twice: a second completion for its command";
    return name + ": a DMA after its command's completion was posted";
  }
  if (d.dir > SSD_DMA_FROM_HOST) return name + ": direction " + num(d.dir);
  if ((d.flags & SSD_DMAF_RESULT) && (d.dir != SSD_DMA_NONE || !(d.flags & SSD_DMAF_COMPLETE)))
    return name + ": a completion result on a descriptor that moves data or completes nothing";
  if (d.dir != SSD_DMA_NONE && (d.nsect == 0 || uint64_t(d.sect_off) + d.nsect > slot.nsect))
    return name + ": sectors " + num(d.sect_off) + "+" + num(d.nsect) + " outside the command's " + num(slot.nsect);
  return "";
}

}  // namespace ssdvp
