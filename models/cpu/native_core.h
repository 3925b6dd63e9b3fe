// Native firmware core: the firmware built for the host, run in an SC_THREAD.  The native
// flavour of the HAL (hal_read32, hal_cost, ...) is at the end of native_core.cpp: it calls the
// current HalContext, which a NativeCore is while it runs.
//
// Models: one controller core executing the firmware's event loop; firmware time from the
// documented cost model (firmware.cost.*, charged through hal_cost) accumulated in a
// tlm_quantumkeeper (temporal decoupling, sim.quantum_ns); register accesses as TLM-2.0
// b_transport calls with the core's local time; "sleep until interrupt" that costs no host
// time; controller DRAM reached directly (DMI-like); per-core SRAM.
// Leaves out: caches, pipeline effects, anything the cost model does not name.  The ISS core
// (firmware.mode = "iss") replaces this with instruction-accurate time.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include <cstdint>
#include <vector>

#include "models/common/params.h"
#include "models/cpu/firmware_core.h"
#include "models/cpu/hal_context.h"

namespace ssdvp {

class Dram;
class SysCtl;

class NativeCore : public sc_core::sc_module, public FirmwareCore, public HalContext {
 public:
  tlm_utils::simple_initiator_socket<NativeCore> socket;

  NativeCore(sc_core::sc_module_name name, uint32_t core_id, const FirmwareParams& p, Dram& dram,
             SysCtl& sysctl, void (*entry)(void));

  // HAL services (the native HAL calls these on the current context).
  uint32_t read32(uint32_t addr) override;
  void write32(uint32_t addr, uint32_t value) override;
  void sleep(bool clear_on_wake) override;
  void cost(unsigned kind, uint32_t count) override;
  void relax() override;
  Dram& dram() override { return dram_; }
  uint8_t* sram() override { return sram_.data(); }

  // Statistics.
  sc_core::sc_time busy_time() const override { return busy_; }
  // With the sleep under way: a snapshot of the figures mid-sleep counts it so far.
  sc_core::sc_time idle_time() const override {
    return asleep_ ? idle_ + (sc_core::sc_time_stamp() - sleep_since_) : idle_;
  }
  bool asleep() const override { return asleep_; }
  uint64_t wakeups() const override { return wakeups_; }
  uint64_t mmio_accesses() const override { return mmio_; }
  uint64_t instructions() const override { return 0; }
  double host_seconds_executing() const override { return 0; }
  std::vector<uint64_t> cost_units() const override { return units_; }

 private:
  void run();
  void access(tlm::tlm_command cmd, uint32_t addr, uint32_t* data);
  [[noreturn]] void halt_forever();

  uint32_t id_;
  FirmwareParams p_;
  Dram& dram_;
  SysCtl& sysctl_;
  void (*entry_)(void);
  std::vector<uint8_t> sram_;
  bool asleep_ = false;
  sc_core::sc_time sleep_since_;
  tlm_utils::tlm_quantumkeeper qk_;
  tlm::tlm_generic_payload trans_;
  sc_core::sc_time busy_ = sc_core::SC_ZERO_TIME, idle_ = sc_core::SC_ZERO_TIME;
  uint64_t wakeups_ = 0, mmio_ = 0;
  std::vector<uint64_t> units_;   // per hal_cost kind
};

}  // namespace ssdvp
