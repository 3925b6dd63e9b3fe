#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "models/cpu/sysctl.h"

#include <sstream>

#include "models/common/fatal.h"

extern "C" {
#include "ftl-sw/hal/regs.h"
}

namespace ssdvp {

SysCtl::SysCtl(sc_core::sc_module_name name, uint32_t cores, uint64_t dram_bytes, uint32_t config_addr)
    : MmioDevice(name), on_sleep(cores), cores_(cores), dram_bytes_(dram_bytes), config_addr_(config_addr),
      cores_state_(cores), turns_(cores) {
  for (uint32_t c = 0; c < cores; c++) {
    sc_core::sc_spawn_options o;
    o.spawn_method();
    o.dont_initialize();
    o.set_sensitivity(&cores_state_[c].irq);
    sc_core::sc_spawn([this, c] { turns_.irq_fired(c); }, sc_core::sc_gen_unique_name("irq_fired"), &o);
  }
}

void SysCtl::notify_irq(uint32_t core, const sc_core::sc_time& delay) {
  cores_state_[core].irq.notify(delay);
  turns_.irq_notified(core, sc_core::sc_time_stamp() + delay);
}

void SysCtl::raise(uint32_t bits, uint32_t core, const sc_core::sc_time& delay) {
  CoreLines& c = cores_state_.at(core);
  c.pending |= bits;
  if (c.pending & c.enable) notify_irq(core, delay);
}

uint32_t SysCtl::read32(uint32_t offset, sc_core::sc_time&) {
  switch (offset) {
    case SYSCTL_CORE_ID: return current_core_;
    case SYSCTL_NUM_CORES: return cores_;
    case SYSCTL_DRAM_SIZE: return uint32_t(dram_bytes_ > 0xFFFFFFFFull ? 0xFFFFFFFFu : dram_bytes_);
    case SYSCTL_IRQ_PENDING: return cores_state_[current_core_].pending;
    case SYSCTL_IRQ_ENABLE: return cores_state_[current_core_].enable;
    case SYSCTL_CONFIG_ADDR: return config_addr_;
    case SYSCTL_FW_STATE: return fw_state_;
    case SYSCTL_DEBUG_ADDR: return debug_addr_;
    default:
      if (offset >= SYSCTL_NVRAM && offset < SYSCTL_NVRAM + 4 * SSD_NVRAM_WORDS) return nvram_[(offset - SYSCTL_NVRAM) / 4];
      return 0;
  }
}

void SysCtl::write32(uint32_t offset, uint32_t value, sc_core::sc_time& delay) {
  switch (offset) {
    case SYSCTL_SLEEP:
      if (on_sleep[current_core_]) on_sleep[current_core_](false);
      break;
    case SYSCTL_WAIT_EVENT:
      if (irq_ready(current_core_)) clear_enabled(current_core_);   // an event is already there
      else if (on_sleep[current_core_]) on_sleep[current_core_](true);
      break;
    case SYSCTL_IRQ_PENDING: cores_state_[current_core_].pending &= ~value; break;
    case SYSCTL_IRQ_ENABLE: {
      CoreLines& c = cores_state_[current_core_];
      c.enable = value;
      if (c.pending & c.enable) notify_irq(current_core_, delay);
      break;
    }
    case SYSCTL_HALT: {
      std::ostringstream s;
      s << "firmware halted with code 0x" << std::hex << value << " (core " << std::dec << current_core_ << ")";
      if (last_message) {
        const std::string m = last_message();
        if (!m.empty()) s << ": " << m;
      }
      if (explain_halt) {
        const std::string e = explain_halt(value);
        if (!e.empty()) s << " (" << e << ")";
      }
      report_fatal(s.str());
      break;
    }
    case SYSCTL_FW_STATE:
      fw_state_ = value;
      break;
    case SYSCTL_DEBUG_ADDR: debug_addr_ = value; break;
    case SYSCTL_POWER_DUMPED:
      if (on_power_dumped) on_power_dumped();
      break;
    case SYSCTL_IPI:
      if (value < cores_) {
        raise(SSD_IRQ_IPI, value, delay);
        ipis_++;
      }
      break;
    default:
      if (offset >= SYSCTL_NVRAM && offset < SYSCTL_NVRAM + 4 * SSD_NVRAM_WORDS) nvram_[(offset - SYSCTL_NVRAM) / 4] = value;
      break;
  }
}

}  // namespace ssdvp
