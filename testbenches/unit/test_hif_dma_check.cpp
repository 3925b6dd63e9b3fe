// The host interface's check of the firmware's DMA descriptors (models/host/hif_dma_check.h):
// a second completion for one command slot is refused naming the slot (it used to free the
// slot twice, so that two commands later shared it and the host waited forever), as are
// descriptors for empty or impossible slots, unknown directions and sector ranges outside the
// command, including one whose sect_off + nsect wraps around 32 bits.
#include <gtest/gtest.h>

#include "models/host/hif_dma_check.h"

namespace ssdvp {
namespace {

ssd_hif_dma descriptor(uint16_t slot, uint8_t dir, uint8_t flags, uint32_t sect_off, uint32_t nsect) {
  ssd_hif_dma d{};
  d.slot = slot;
  d.dir = dir;
  d.flags = flags;
  d.sect_off = sect_off;
  d.nsect = nsect;
  return d;
}

const HifSlotState kEightSectors{true, 8, false};

TEST(HifDmaCheck, AcceptsTransfersInsideTheCommandAndOneCompletion) {
  EXPECT_EQ(hif_dma_problem(descriptor(5, SSD_DMA_TO_HOST, SSD_DMAF_COMPLETE, 0, 8), kEightSectors), "");
  EXPECT_EQ(hif_dma_problem(descriptor(5, SSD_DMA_FROM_HOST, SSD_DMAF_NOTIFY, 6, 2), kEightSectors), "");
  EXPECT_EQ(hif_dma_problem(descriptor(5, SSD_DMA_NONE, SSD_DMAF_COMPLETE, 0, 0), kEightSectors), "");
}

TEST(HifDmaCheck, ASecondCompletionForASlotIsRefusedNamingTheSlot) {
  const HifSlotState completing{true, 8, true};
  EXPECT_EQ(hif_dma_problem(descriptor(17, SSD_DMA_NONE, SSD_DMAF_COMPLETE, 0, 0), completing),
            "slot 17 completed twice: a second completion for its command");
  EXPECT_EQ(hif_dma_problem(descriptor(17, SSD_DMA_TO_HOST, SSD_DMAF_NOTIFY, 0, 1), completing),
            "slot 17: a DMA after its command's completion was posted");
}

TEST(HifDmaCheck, RefusesEmptyAndImpossibleSlots) {
  EXPECT_EQ(hif_dma_problem(descriptor(3, SSD_DMA_NONE, SSD_DMAF_COMPLETE, 0, 0), HifSlotState{}),
            "slot 3 holds no command");
  EXPECT_EQ(hif_dma_problem(descriptor(SSD_HOST_SLOTS, SSD_DMA_NONE, SSD_DMAF_COMPLETE, 0, 0), kEightSectors),
            "slot 1024 is beyond the 1024 command slots");
}

TEST(HifDmaCheck, RefusesDirectionsAndSectorRangesOutsideTheCommand) {
  EXPECT_EQ(hif_dma_problem(descriptor(2, 3, 0, 0, 1), kEightSectors), "slot 2: direction 3");
  EXPECT_EQ(hif_dma_problem(descriptor(2, SSD_DMA_TO_HOST, 0, 4, 5), kEightSectors),
            "slot 2: sectors 4+5 outside the command's 8");
  EXPECT_EQ(hif_dma_problem(descriptor(2, SSD_DMA_TO_HOST, 0, 0, 0), kEightSectors),
            "slot 2: sectors 0+0 outside the command's 8");
  // 0xFFFFFFFF + 2 wraps to 1 in 32 bits: it must not pass as inside the command.
  EXPECT_EQ(hif_dma_problem(descriptor(2, SSD_DMA_FROM_HOST, 0, 0xFFFFFFFFu, 2), kEightSectors),
            "slot 2: sectors 4294967295+2 outside the command's 8");
}

}  // namespace
}  // namespace ssdvp
