// One 32-bit register access as a TLM generic payload, the way every firmware core issues it.
#pragma once

#include <tlm>

#include <cstdint>

namespace ssdvp {

inline void prepare_register_access(tlm::tlm_generic_payload& t, tlm::tlm_command cmd, uint32_t addr, uint32_t* data) {
  t.set_command(cmd);
  t.set_address(addr);
  t.set_data_ptr(reinterpret_cast<unsigned char*>(data));
  t.set_data_length(4);
  t.set_streaming_width(4);
  t.set_byte_enable_ptr(nullptr);
  t.set_dmi_allowed(false);
  t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

}  // namespace ssdvp
