// Inter-core mailbox: per-core inboxes of 32-bit messages with an interrupt line to the
// addressed core (register map in ftl-sw/hal/regs.h).
// Leaves out: message priorities, DMA of larger payloads (cores share DRAM for that).
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "models/bus/mmio_device.h"
#include "models/cpu/sysctl.h"

namespace ssdvp {

class Mailbox : public MmioDevice {
 public:
  Mailbox(sc_core::sc_module_name name, SysCtl& sysctl);
  uint64_t messages_sent() const { return sent_; }

 protected:
  uint32_t read32(uint32_t offset, sc_core::sc_time& delay) override;
  void write32(uint32_t offset, uint32_t value, sc_core::sc_time& delay) override;

 private:
  struct Message {
    uint32_t from, data;
  };
  struct Core {
    std::deque<Message> inbox;
    uint32_t target = 0, status = 0;
  };
  SysCtl& sysctl_;
  std::vector<Core> cores_;
  uint64_t sent_ = 0;
};

}  // namespace ssdvp
