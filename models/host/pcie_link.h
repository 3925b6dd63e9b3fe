// PCIe link between host and controller: one serial resource per direction with a data rate
// and per-TLP framing overhead (a transfer split into TLPs of host.max_payload_bytes), plus a one-way latency that overlaps with other transfers
// (pipelined).  Transfers are reserved in the order they are requested.
// Leaves out: flow-control credits, max read request splitting, link errors and replay.
#pragma once

#include <systemc>

#include <cstdint>

#include "models/common/params.h"

namespace ssdvp {

class PcieLink {
 public:
  enum Dir { HostToDevice = 0, DeviceToHost = 1 };
  explicit PcieLink(const HostParams& p);

  // Moves `bytes` of payload in direction `dir`, starting no earlier than `start`; returns
  // when the last byte arrives at the other end.
  sc_core::sc_time send(Dir dir, sc_core::sc_time start, uint64_t bytes);
  // The device reads host memory: the request goes down, the data comes up.
  sc_core::sc_time device_read(sc_core::sc_time start, uint64_t bytes) {
    return send(HostToDevice, start + latency_, bytes);
  }
  uint64_t busy_ps(Dir d) const { return busy_ps_[d]; }
  sc_core::sc_time latency() const { return latency_; }

 private:
  double ps_per_byte_;
  uint32_t overhead_;
  uint32_t payload_;   // bytes per TLP at most (Max_Payload_Size)
  sc_core::sc_time latency_;
  sc_core::sc_time free_at_[2] = {sc_core::SC_ZERO_TIME, sc_core::SC_ZERO_TIME};
  uint64_t busy_ps_[2] = {0, 0};
};

}  // namespace ssdvp
