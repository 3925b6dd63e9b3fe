// What the host's block layer submits to: a drive's NVMe queues (HostInterface: the device's
// FTL behind them) or the host FTL (HostFtl: the FTL on the host's CPUs, an Open-Channel device
// behind it).  The host driver (models/host/host_driver.h) sees only this.
// Leaves out: everything each target models (their headers say).
#pragma once

#include <systemc>

#include <cstdint>
#include <functional>
#include <vector>

namespace ssdvp {

struct HostCommand;

class BlockTarget {
 public:
  virtual ~BlockTarget() = default;
  // Places cmd on its submission queue.
  virtual void submit(HostCommand* cmd) = 0;
  // The host rings queue's doorbell `delay` into the calling thread's time, from host CPU `cpu`.
  virtual void ring_doorbell(uint16_t queue, sc_core::sc_time delay, uint32_t cpu) = 0;
  // Called when the host thread sees a command's completion.
  std::function<void(HostCommand*)> on_complete;
  virtual const sc_core::sc_event& ready_event() const = 0;
  virtual bool ready() const = 0;
  virtual uint64_t namespace_sectors() const = 0;
  // true: ring_doorbell does the submission's work in the calling thread (it may wait, on its
  // CPU): a caller must not ring from a completion callback.
  virtual bool submits_in_caller() const { return false; }
};

}  // namespace ssdvp
