// Base of every memory-mapped peripheral: a TLM-2.0 target socket whose 32-bit register
// reads and writes arrive as read32/write32 with the initiator's local time offset (loosely
// timed: the access happens at sc_time_stamp() + delay).  Unaligned or non-32-bit accesses
// get TLM_BURST/ADDRESS errors.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>

namespace ssdvp {

class MmioDevice : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<MmioDevice> socket;

  explicit MmioDevice(sc_core::sc_module_name name) : sc_core::sc_module(name), socket("socket") {
    socket.register_b_transport(this, &MmioDevice::b_transport);
  }

 protected:
  virtual uint32_t read32(uint32_t offset, sc_core::sc_time& delay) = 0;
  virtual void write32(uint32_t offset, uint32_t value, sc_core::sc_time& delay) = 0;

 private:
  void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    const uint64_t off = t.get_address();
    if (t.get_data_length() != 4 || (off & 3u) || off >= 0x1000) {
      t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    uint32_t* data = reinterpret_cast<uint32_t*>(t.get_data_ptr());
    if (t.is_read()) *data = read32(uint32_t(off), delay);
    else write32(uint32_t(off), *data, delay);
    t.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

}  // namespace ssdvp
