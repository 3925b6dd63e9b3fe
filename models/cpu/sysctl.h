// System control block: core identity, DRAM size, where the platform left the firmware's
// configuration, each core's interrupt lines (pending/enable, write-1-to-clear: the device
// lines of the HIF, flash controller and timer go to the core whose register bank raised them,
// a mailbox line to the core it addresses, an inter-processor interrupt (SYSCTL_IPI) to the
// core named), "sleep until interrupt", the firmware's state and halt register, and a few
// words of non-volatile memory (SYSCTL_NVRAM: a controller's SPI NOR boot area) that the
// platform keeps with the NAND image across power loss.
// Leaves out: interrupt priorities, routing a device line anywhere but its bank's core.
#pragma once

#include <systemc>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/bus/mmio_device.h"
#include "models/cpu/core_turns.h"

extern "C" {
#include "ftl-sw/hal/regs.h"
}

namespace ssdvp {

class SysCtl : public MmioDevice {
 public:
  SysCtl(sc_core::sc_module_name name, uint32_t cores, uint64_t dram_bytes, uint32_t config_addr);

  // Peripherals raise interrupt lines (SSD_IRQ_*) of a core at the current simulated time; a
  // core's register write (an IPI, a mailbox message) `delay` after it, at the writer's local
  // time, as every access of a loosely-timed initiator takes effect.
  void raise(uint32_t bits, uint32_t core = 0, const sc_core::sc_time& delay = sc_core::SC_ZERO_TIME);
  bool irq_ready(uint32_t core = 0) const { return (cores_state_[core].pending & cores_state_[core].enable) != 0; }
  const sc_core::sc_event& irq_event(uint32_t core = 0) const { return cores_state_[core].irq; }
  uint32_t cores() const { return cores_; }
  uint64_t ipis() const { return ipis_; }

  uint32_t fw_state() const { return fw_state_; }
  std::vector<uint32_t>& nvram() { return nvram_; }
  uint32_t debug_addr() const { return debug_addr_; }
  // The core whose access is in progress (native cores set it; the ISS passes it too).
  void set_current_core(uint32_t c) { current_core_ = c; }
  uint32_t current_core() const { return current_core_; }
  // Called when core c writes SYSCTL_SLEEP or SYSCTL_WAIT_EVENT (an ISS core stops until
  // irq_event(c)); with clear = true the core calls clear_enabled() when it wakes.
  std::vector<std::function<void(bool clear)>> on_sleep;
  // The firmware's last message (UART), quoted in the error a halt reports.
  std::function<std::string()> last_message;
  // What the platform says of a halt code (e.g. the configuration keys behind a bad-config
  // halt); empty: nothing.
  std::function<std::string(uint32_t code)> explain_halt;
  // The firmware wrote SYSCTL_POWER_DUMPED (power-loss protection).
  std::function<void()> on_power_dumped;
  // Which core runs first when several resume at one instant (the ISS cores keep it).
  CoreTurns& turns() { return turns_; }
  // Clears core c's pending lines that are enabled.
  void clear_enabled(uint32_t core) { cores_state_[core].pending &= ~cores_state_[core].enable; }

 protected:
  uint32_t read32(uint32_t offset, sc_core::sc_time& delay) override;
  void write32(uint32_t offset, uint32_t value, sc_core::sc_time& delay) override;

 private:
  uint32_t cores_;
  uint64_t dram_bytes_;
  uint32_t config_addr_;
  struct CoreLines {
    uint32_t pending = 0, enable = 0;
    sc_core::sc_event irq;
  };
  std::vector<CoreLines> cores_state_;
  CoreTurns turns_;
  void notify_irq(uint32_t core, const sc_core::sc_time& delay);
  uint32_t fw_state_ = 0, debug_addr_ = 0, current_core_ = 0;
  uint64_t ipis_ = 0;
  std::vector<uint32_t> nvram_ = std::vector<uint32_t>(SSD_NVRAM_WORDS, 0);
};

}  // namespace ssdvp
