#include "models/cpu/timer.h"

extern "C" {
#include "ftl-sw/hal/regs.h"
}

namespace ssdvp {

Timer::Timer(sc_core::sc_module_name name, SysCtl& irq) : MmioDevice(name), irq_(irq) {
  SC_HAS_PROCESS(Timer);
  SC_METHOD(fire);
  sensitive << cmp_event_;
  dont_initialize();
}

uint32_t Timer::read32(uint32_t offset, sc_core::sc_time& delay) {
  const uint64_t now_ns = uint64_t((sc_core::sc_time_stamp() + delay).to_seconds() * 1e9 + 0.5);
  switch (offset) {
    case TIMER_NOW_LO: latched_hi_ = now_ns >> 32; return uint32_t(now_ns);
    case TIMER_NOW_HI: return uint32_t(latched_hi_);
    case TIMER_CMP_LO: return uint32_t(cmp_);
    case TIMER_CMP_HI: return uint32_t(cmp_ >> 32);
    default: return 0;
  }
}

void Timer::write32(uint32_t offset, uint32_t value, sc_core::sc_time& delay) {
  if (offset == TIMER_CMP_HI) cmp_ = (uint64_t(value) << 32) | (cmp_ & 0xFFFFFFFFu);
  else if (offset == TIMER_CMP_LO) cmp_ = (cmp_ & ~0xFFFFFFFFull) | value;
  else return;
  const sc_core::sc_time at(double(cmp_), sc_core::SC_NS);
  const sc_core::sc_time now = sc_core::sc_time_stamp() + delay;
  cmp_event_.cancel();
  if (cmp_ != ~0ull) cmp_event_.notify(at > now ? at - sc_core::sc_time_stamp() : delay);
}

void Timer::fire() { irq_.raise(SSD_IRQ_TIMER); }

}  // namespace ssdvp
