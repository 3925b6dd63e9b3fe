#include "models/cpu/native_core.h"

#include <sstream>

#include "models/bus/register_access.h"
#include "models/common/fatal.h"
#include "models/cpu/sysctl.h"
#include "models/dram/dram.h"

extern "C" {
#include "ftl-sw/hal/hal.h"
}

namespace ssdvp {

NativeCore::NativeCore(sc_core::sc_module_name name, uint32_t core_id, const FirmwareParams& p,
                       Dram& dram, SysCtl& sysctl, void (*entry)(void))
    : sc_core::sc_module(name),
      socket("socket"),
      id_(core_id),
      p_(p),
      dram_(dram),
      sysctl_(sysctl),
      entry_(entry),
      sram_(SSD_SRAM_PER_CORE),
      units_(HAL_COST_KINDS, 0) {
  tlm_utils::tlm_quantumkeeper::set_global_quantum(p.quantum);
  SC_HAS_PROCESS(NativeCore);
  SC_THREAD(run);
}

void NativeCore::run() {
  make_current(this);
  qk_.reset();
  entry_();
}

void NativeCore::access(tlm::tlm_command cmd, uint32_t addr, uint32_t* data) {
  make_current(this);
  sysctl_.set_current_core(id_);
  prepare_register_access(trans_, cmd, addr, data);
  sc_core::sc_time delay = qk_.get_local_time();
  socket->b_transport(trans_, delay);
  qk_.set(delay);
  mmio_++;
  if (trans_.is_response_error()) {
    std::ostringstream s;
    s << "firmware core " << id_ << ": bus error at address 0x" << std::hex << addr;
    report_fatal(s.str());
  }
  if (!fatal_errors().empty()) halt_forever();
  if (qk_.need_sync()) qk_.sync();
  make_current(this);
}

// After a fatal error the simulation is stopping: the core must yield and never run on in a
// state the error made meaningless.
void NativeCore::halt_forever() {
  sc_core::sc_event never;
  for (;;) wait(never);
}

uint32_t NativeCore::read32(uint32_t addr) {
  uint32_t v = 0;
  access(tlm::TLM_READ_COMMAND, addr, &v);
  return v;
}

void NativeCore::write32(uint32_t addr, uint32_t value) { access(tlm::TLM_WRITE_COMMAND, addr, &value); }

void NativeCore::sleep(bool clear_on_wake) {
  if (!fatal_errors().empty()) halt_forever();
  qk_.sync();
  asleep_ = true;
  bool slept = false;
  while (!sysctl_.irq_ready(id_)) {
    sleep_since_ = sc_core::sc_time_stamp();
    if (!slept) note_asleep(sleep_since_);
    slept = true;
    wait(sysctl_.irq_event(id_));
    idle_ += sc_core::sc_time_stamp() - sleep_since_;
  }
  if (slept) note_awake(sc_core::sc_time_stamp());
  asleep_ = false;
  if (clear_on_wake) sysctl_.clear_enabled(id_);
  wakeups_++;
  qk_.reset();
  make_current(this);
}

void NativeCore::cost(unsigned kind, uint32_t count) {
  if (sysctl_.fw_state() == SSD_FW_STATE_PRECOND || kind >= p_.cost.size()) return;
  units_[kind] += count;
  const sc_core::sc_time t = p_.cost[kind] * double(count);
  busy_ += t;
  qk_.inc(t);
  if (qk_.need_sync()) {
    qk_.sync();
    make_current(this);
  }
}

// A spin turn is charged even while preconditioning (else a core spinning on a lock held
// across the functional preconditioning would never let the holder run).
void NativeCore::relax() {
  units_[HAL_COST_SPIN]++;
  const sc_core::sc_time t = p_.cost[HAL_COST_SPIN];
  busy_ += t;
  qk_.inc(t);
  if (qk_.need_sync()) {
    qk_.sync();
    make_current(this);
  }
}

}  // namespace ssdvp

// ---------------------------------------------------------------- the HAL, native flavour
// Every call goes to the current HalContext (models/cpu/hal_context.h): a controller core running
// the device firmware, or a host thread running the FTL on the host.  (In this file, which every
// platform links, so that the static firmware library finds it.)
using ssdvp::HalContext;

extern "C" {

uint32_t hal_read32(uint32_t addr) { return HalContext::current()->read32(addr); }
void hal_write32(uint32_t addr, uint32_t value) { HalContext::current()->write32(addr, value); }
void* hal_dram_ptr(uint32_t addr) { return HalContext::current()->dram().at(addr); }
uint32_t hal_dram_addr(const void* ptr) {
  auto& d = HalContext::current()->dram();
  return uint32_t(static_cast<const uint8_t*>(ptr) - d.base()) + SSD_DRAM_BASE;
}
void* hal_sram(void) { return HalContext::current()->sram(); }
void hal_sleep(void) { HalContext::current()->sleep(false); }
void hal_wait_for_event(void) { HalContext::current()->sleep(true); }
void hal_cost(enum hal_cost kind, uint32_t count) { HalContext::current()->cost(unsigned(kind), count); }
void hal_relax(void) { HalContext::current()->relax(); }

}  // extern "C"
