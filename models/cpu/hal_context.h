// What firmware sources built for the host run on: the native HAL (ftl-sw/hal/hal.h, host
// flavour, at the end of models/cpu/native_core.cpp) sends every register access, sleep and cost to the
// context current when it is called.  A context is a controller core running the device
// firmware (NativeCore) or a host thread running the FTL as a host FTL
// (models/host/host_ftl_context.h); several run in one process, each making itself current
// whenever it (re)enters firmware code.
// Leaves out: nothing of its own; each context says what it models.
#pragma once

#include <cstdint>

namespace ssdvp {

class Dram;

class HalContext {
 public:
  virtual ~HalContext() = default;
  virtual uint32_t read32(uint32_t addr) = 0;
  virtual void write32(uint32_t addr, uint32_t value) = 0;
  virtual void sleep(bool clear_on_wake) = 0;
  virtual void cost(unsigned kind, uint32_t count) = 0;
  virtual void relax() = 0;
  virtual Dram& dram() = 0;
  virtual uint8_t* sram() = 0;

  static HalContext* current() { return current_; }
  static void make_current(HalContext* c) { current_ = c; }

 private:
  static inline HalContext* current_ = nullptr;
};

}  // namespace ssdvp
