#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "models/cpu/timer.h"

extern "C" {
#include "ftl-sw/hal/regs.h"
}

namespace ssdvp {

Timer::Timer(sc_core::sc_module_name name, SysCtl& irq) : MmioDevice(name), irq_(irq) {
  SC_HAS_PROCESS(Timer);
  for (uint32_t k = 0; k < irq.cores(); k++) {
    cmp_.push_back(std::make_unique<Compare>());
    sc_core::sc_spawn_options o;
    o.spawn_method();
    o.set_sensitivity(&cmp_.back()->event);
    o.dont_initialize();
    sc_core::sc_spawn([this, k] { irq_.raise(SSD_IRQ_TIMER, k); }, sc_core::sc_gen_unique_name("fire"), &o);
  }
}

uint32_t Timer::read32(uint32_t offset, sc_core::sc_time& delay) {
  const uint64_t now_ns = uint64_t((sc_core::sc_time_stamp() + delay).to_seconds() * 1e9 + 0.5);
  if (offset == TIMER_NOW_LO) {
    latched_hi_ = now_ns >> 32;
    return uint32_t(now_ns);
  }
  if (offset == TIMER_NOW_HI) return uint32_t(latched_hi_);
  const uint32_t k = (offset - TIMER_CMP_LO) / 8u;
  if (offset < TIMER_CMP_LO || k >= cmp_.size()) return 0;
  return offset == TIMER_CMP_LO_OF(k) ? uint32_t(cmp_[k]->cmp) : uint32_t(cmp_[k]->cmp >> 32);
}

void Timer::write32(uint32_t offset, uint32_t value, sc_core::sc_time& delay) {
  const uint32_t k = (offset - TIMER_CMP_LO) / 8u;
  if (offset < TIMER_CMP_LO || k >= cmp_.size()) return;
  Compare& c = *cmp_[k];
  if (offset == TIMER_CMP_HI_OF(k)) c.cmp = (uint64_t(value) << 32) | (c.cmp & 0xFFFFFFFFu);
  else c.cmp = (c.cmp & ~0xFFFFFFFFull) | value;
  const sc_core::sc_time at(double(c.cmp), sc_core::SC_NS);
  const sc_core::sc_time now = sc_core::sc_time_stamp() + delay;
  c.event.cancel();
  if (c.cmp != ~0ull) c.event.notify(at > now ? at - sc_core::sc_time_stamp() : delay);
}

}  // namespace ssdvp
