#include "models/cpu/mailbox.h"

extern "C" {
#include "ftl-sw/hal/regs.h"
}

namespace ssdvp {

Mailbox::Mailbox(sc_core::sc_module_name name, SysCtl& sysctl)
    : MmioDevice(name), sysctl_(sysctl), cores_(sysctl.cores()) {}

uint32_t Mailbox::read32(uint32_t offset, sc_core::sc_time&) {
  Core& me = cores_[sysctl_.current_core()];
  switch (offset) {
    case MBOX_SEND_TARGET: return me.target;
    case MBOX_RECV_COUNT: return uint32_t(me.inbox.size());
    case MBOX_RECV_FROM: return me.inbox.empty() ? 0xFFFFFFFFu : me.inbox.front().from;
    case MBOX_RECV_DATA: {
      if (me.inbox.empty()) return 0;
      const uint32_t d = me.inbox.front().data;
      me.inbox.pop_front();
      return d;
    }
    case MBOX_STATUS: return me.status;
    default: return 0;
  }
}

void Mailbox::write32(uint32_t offset, uint32_t value, sc_core::sc_time& delay) {
  const uint32_t self = sysctl_.current_core();
  Core& me = cores_[self];
  switch (offset) {
    case MBOX_SEND_TARGET: me.target = value; break;
    case MBOX_SEND_DATA:
      if (me.target >= cores_.size() || cores_[me.target].inbox.size() >= MBOX_DEPTH) {
        me.status |= 1u;
        break;
      }
      cores_[me.target].inbox.push_back(Message{self, value});
      sent_++;
      sysctl_.raise(SSD_IRQ_MBOX, me.target, delay);
      break;
    case MBOX_STATUS: me.status &= ~value; break;
    default: break;
  }
}

}  // namespace ssdvp
