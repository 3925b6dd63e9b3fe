#include "models/host/pcie_link.h"

#include "models/common/sim_time.h"

namespace ssdvp {

PcieLink::PcieLink(const HostParams& p)
    : ps_per_byte_(1e6 / p.link_mbps), overhead_(p.tlp_overhead_bytes), payload_(p.max_payload_bytes),
      latency_(p.link_latency) {}

sc_core::sc_time PcieLink::send(Dir dir, sc_core::sc_time start, uint64_t bytes) {
  const uint64_t tlps = bytes == 0 ? 1 : (bytes + payload_ - 1) / payload_;
  const uint64_t wire = bytes + tlps * overhead_;
  sc_core::sc_time begin = start > free_at_[dir] ? start : free_at_[dir];
  const sc_core::sc_time dur = time_ps(round_ps(double(wire) * ps_per_byte_));
  free_at_[dir] = begin + dur;
  busy_ps_[dir] += dur.value();
  return free_at_[dir] + latency_;
}

}  // namespace ssdvp
