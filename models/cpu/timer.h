// CLINT-like timer: simulated time in ns, and one compare register per core that raises
// SSD_IRQ_TIMER on that core (TIMER_CMP_*_OF(k)).
// The firmware takes time from here, never from mcycle/minstret.
#pragma once

#include <systemc>

#include <memory>
#include <vector>

#include "models/bus/mmio_device.h"
#include "models/cpu/sysctl.h"

namespace ssdvp {

class Timer : public MmioDevice {
 public:
  Timer(sc_core::sc_module_name name, SysCtl& irq);

 protected:
  uint32_t read32(uint32_t offset, sc_core::sc_time& delay) override;
  void write32(uint32_t offset, uint32_t value, sc_core::sc_time& delay) override;

 private:
  struct Compare {
    uint64_t cmp = ~0ull;
    sc_core::sc_event event;
  };
  SysCtl& irq_;
  uint64_t latched_hi_ = 0;
  std::vector<std::unique_ptr<Compare>> cmp_;
};

}  // namespace ssdvp
