// The registers of a flash-controller bank that only say where its rings are and how far the
// firmware consumed (ftl-sw/hal/regs.h, FCTL_*), as every model of the bank keeps them: the
// device's flash controller (models/flash/flash_controller.h) and a host FTL's flash side
// (models/host/flash_backend.h).  The submission doorbell, which makes things happen, each
// model handles itself.
#pragma once

#include <cstdint>

extern "C" {
#include "ftl-sw/hal/regs.h"
}

namespace ssdvp {

// Sets one of them in bank `k`; false if `reg` is not one.
template <class Bank>
bool set_fctl_ring_register(Bank& k, uint32_t reg, uint32_t value) {
  switch (reg) {
    case FCTL_SUB_RING_ADDR: k.sub_addr = value; return true;
    case FCTL_SUB_RING_SIZE: k.sub_size = value; return true;
    case FCTL_CPL_RING_ADDR: k.cpl_addr = value; return true;
    case FCTL_CPL_RING_SIZE: k.cpl_size = value; return true;
    case FCTL_CPL_HEAD: k.cpl_head = value; return true;
    default: return false;
  }
}

}  // namespace ssdvp
