// The registers of a host-interface bank that only say where its rings are and how far the
// firmware consumed (ftl-sw/hal/regs.h, HIF_*), as every model of the bank keeps them: the
// device's HIF (models/host/host_interface.h) and a host FTL's front end
// (models/host/host_ftl_front.h).  Their doorbells and heads, which make things happen, each
// model handles itself.
#pragma once

#include <cstdint>

extern "C" {
#include "ftl-sw/hal/regs.h"
}

namespace ssdvp {

// Sets one of them in bank `k`; false if `reg` is not one.
template <class Bank>
bool set_hif_ring_register(Bank& k, uint32_t reg, uint32_t value) {
  switch (reg) {
    case HIF_CMD_RING_ADDR: k.cmd_addr = value; return true;
    case HIF_CMD_RING_SIZE: k.cmd_size = value; return true;
    case HIF_DMA_RING_ADDR: k.dma_addr = value; return true;
    case HIF_DMA_RING_SIZE: k.dma_size = value; return true;
    case HIF_DONE_RING_ADDR: k.done_addr = value; return true;
    case HIF_DONE_RING_SIZE: k.done_size = value; return true;
    case HIF_DONE_HEAD: k.done_head = value; return true;
    case HIF_DONE_IRQ_ALL: k.done_irq_all = value & 1u; return true;
    default: return false;
  }
}

}  // namespace ssdvp
