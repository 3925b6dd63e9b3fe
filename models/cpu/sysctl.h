// System control block: core identity, DRAM size, where the platform left the firmware's
// configuration, the interrupt lines of every peripheral (pending/enable, write-1-to-clear),
// "sleep until interrupt", the firmware's state and halt register.
// Leaves out: per-core interrupt routing (all lines go to every core for now), priorities.
#pragma once

#include <systemc>

#include <cstdint>
#include <functional>
#include <string>

#include "models/bus/mmio_device.h"

namespace ssdvp {

class SysCtl : public MmioDevice {
 public:
  SysCtl(sc_core::sc_module_name name, uint32_t cores, uint64_t dram_bytes, uint32_t config_addr);

  // Peripherals raise interrupt lines (SSD_IRQ_*) at the current simulated time.
  void raise(uint32_t bits);
  bool irq_ready() const { return (pending_ & enable_) != 0; }
  const sc_core::sc_event& irq_event() const { return irq_; }

  uint32_t fw_state() const { return fw_state_; }
  const sc_core::sc_event& fw_state_changed() const { return state_changed_; }
  uint32_t debug_addr() const { return debug_addr_; }
  // The core whose access is in progress (native cores set it; the ISS passes it too).
  void set_current_core(uint32_t c) { current_core_ = c; }
  // Called when the firmware writes SYSCTL_SLEEP (the ISS core stops until irq_event).
  std::function<void()> on_sleep;

 protected:
  uint32_t read32(uint32_t offset, sc_core::sc_time& delay) override;
  void write32(uint32_t offset, uint32_t value, sc_core::sc_time& delay) override;

 private:
  uint32_t cores_;
  uint64_t dram_bytes_;
  uint32_t config_addr_;
  uint32_t pending_ = 0, enable_ = 0;
  uint32_t fw_state_ = 0, debug_addr_ = 0, current_core_ = 0;
  sc_core::sc_event irq_, state_changed_;
};

}  // namespace ssdvp
