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
  // The thread that submitted cmd keeps retrying for room (runnable on its CPU: blocked = true)
  // and stops (false); only a target that submits in the caller calls it.
  std::function<void(const HostCommand* cmd, bool blocked)> on_retrying;
  virtual const sc_core::sc_event& ready_event() const = 0;
  virtual bool ready() const = 0;
  virtual uint64_t namespace_sectors() const = 0;
  // true: ring_doorbell does the submission's work in the calling thread (it may wait, on its
  // CPU): a caller must not ring from a completion callback.
  virtual bool submits_in_caller() const { return false; }
  // true: it completes commands in its own threads and pays for that itself (the host FTL);
  // false: its completions are a device's, which the host's interrupt or poller must handle
  // (models/host/host_io_stack.h).
  virtual bool completes_in_own_threads() const { return false; }
  // The calling thread, on `cpu`, waits for a completion of one of its commands (or another
  // reason to look again): `wake` is notified and `done` says so.  Sleeping here, one wait; a
  // polling I/O stack spins until `done`.
  virtual void wait_for_completion(uint32_t cpu, sc_core::sc_event& wake, const std::function<bool()>& done) {
    (void)cpu;
    if (!done()) sc_core::wait(wake);
  }
};

}  // namespace ssdvp
