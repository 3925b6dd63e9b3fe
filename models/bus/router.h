// Address decoder between the firmware cores and the peripherals: a multi-target socket that
// every core binds, one initiator binding per 4 KiB peripheral window at
// SSD_PERIPH_BASE + i*4 KiB.
// Addresses outside every window get TLM_ADDRESS_ERROR_RESPONSE.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <cstdint>
#include <vector>

extern "C" {
#include "ftl-sw/hal/regs.h"
}

namespace ssdvp {

class Router : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<Router> target;
  tlm_utils::multi_passthrough_initiator_socket<Router> initiator;

  explicit Router(sc_core::sc_module_name name) : sc_core::sc_module(name), target("target"), initiator("initiator") {
    target.register_b_transport(this, &Router::b_transport);
  }
  // Window i of the peripheral space goes to initiator binding `port`.
  void map(uint32_t window, int port) {
    if (window_port_.size() <= window) window_port_.resize(window + 1, -1);
    window_port_[window] = port;
  }
  // The device's socket bound to the next initiator binding, its window at `base`.
  template <class Device>
  void attach(uint32_t base, Device& dev) {
    initiator.bind(dev.socket);
    map((base - SSD_PERIPH_BASE) / SSD_PERIPH_SIZE, ports_++);
  }

 private:
  void b_transport(int, tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    const uint64_t a = t.get_address();
    const uint64_t w = (a - SSD_PERIPH_BASE) / SSD_PERIPH_SIZE;
    if (a < SSD_PERIPH_BASE || w >= window_port_.size() || window_port_[w] < 0) {
      t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    t.set_address(a - SSD_PERIPH_BASE - w * SSD_PERIPH_SIZE);
    initiator[window_port_[w]]->b_transport(t, delay);
    t.set_address(a);
  }
  std::vector<int> window_port_;
  int ports_ = 0;
};

}  // namespace ssdvp
