// A host thread's HAL context in the host FTL: see host_ftl_context.h.
#include "models/host/host_ftl_context.h"

#include <sstream>

#include "models/bus/register_access.h"
#include "models/common/fatal.h"
#include "models/cpu/sysctl.h"

extern "C" {
#include "ftl-sw/hal/hal.h"
#include "ftl-sw/hal/regs.h"
}

namespace ssdvp {

HostFtlContext::HostFtlContext(sc_core::sc_module_name name, Dram& mem, SysCtl& sysctl, std::vector<sc_core::sc_time> cost,
                               sc_core::sc_time spin)
    : sc_core::sc_module(name),
      socket("socket"),
      mem_(mem),
      sysctl_(sysctl),
      cost_(std::move(cost)),
      spin_(spin),
      units_(cost_.size(), 0),
      sram_(SSD_SRAM_PER_CORE) {}

void HostFtlContext::enter(uint32_t core) {
  core_ = core;
  make_current(this);
}

HostFtlContext::Spent HostFtlContext::take_spent() {
  const Spent t = spent_;
  spent_ = Spent{};
  return t;
}

void HostFtlContext::access(tlm::tlm_command cmd, uint32_t addr, uint32_t* data) {
  sysctl_.set_current_core(core_);
  prepare_register_access(trans_, cmd, addr, data);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  socket->b_transport(trans_, delay);
  if (trans_.is_response_error()) {
    std::ostringstream s;
    s << "host FTL: bus error at address 0x" << std::hex << addr;
    report_fatal(s.str());
  }
}

uint32_t HostFtlContext::read32(uint32_t addr) {
  uint32_t v = 0;
  access(tlm::TLM_READ_COMMAND, addr, &v);
  return v;
}

void HostFtlContext::write32(uint32_t addr, uint32_t value) { access(tlm::TLM_WRITE_COMMAND, addr, &value); }

void HostFtlContext::sleep(bool clear_on_wake) {
  const uint32_t core = core_;
  if (!fatal_errors().empty()) {   // the FTL halted (a configuration it cannot run): it never goes on
    sc_core::sc_event never;
    for (;;) sc_core::wait(never);
  }
  while (!sysctl_.irq_ready(core)) sc_core::wait(sysctl_.irq_event(core));
  if (clear_on_wake) sysctl_.clear_enabled(core);
  core_ = core;
  make_current(this);
}

void HostFtlContext::cost(unsigned kind, uint32_t count) {
  if (kind >= cost_.size() || sysctl_.fw_state() == SSD_FW_STATE_PRECOND) return;
  // Building a device command or a DMA descriptor needs no shared state: outside the lock.
  const bool outside = kind == HAL_COST_FLASH_SUBMIT || kind == HAL_COST_DMA_SUBMIT;
  (outside ? spent_.unlocked : spent_.locked) += cost_[kind] * double(count);
  units_[kind] += count;
}

}  // namespace ssdvp
