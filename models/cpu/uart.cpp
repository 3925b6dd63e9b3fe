#include "models/cpu/uart.h"

#include <iostream>

extern "C" {
#include "ftl-sw/hal/regs.h"
}

namespace ssdvp {

void Uart::write32(uint32_t offset, uint32_t value, sc_core::sc_time&) {
  if (offset != UART_TX) return;
  const char c = char(value & 0xFF);
  if (c != '\n') { line_ += c; return; }
  std::cerr << "[uart] " << line_ << "\n";
  lines_.push_back(line_);
  line_.clear();
}

}  // namespace ssdvp
