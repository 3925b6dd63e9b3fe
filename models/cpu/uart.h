// UART: bytes the firmware writes go to the run log a line at a time, prefixed "fw: ".
#pragma once

#include <string>
#include <vector>

#include "models/bus/mmio_device.h"

namespace ssdvp {

class Uart : public MmioDevice {
 public:
  explicit Uart(sc_core::sc_module_name name) : MmioDevice(name) {}
  const std::vector<std::string>& lines() const { return lines_; }

 protected:
  uint32_t read32(uint32_t, sc_core::sc_time&) override { return 0; }
  void write32(uint32_t offset, uint32_t value, sc_core::sc_time&) override;

 private:
  std::string line_;
  std::vector<std::string> lines_;
};

}  // namespace ssdvp
