// A host thread's way to send NVMe commands of its own making to the host interface and hear
// their completions (the command sets a host speaks directly: Open-Channel, models/host/
// oc_host.h; zoned, models/host/zns_host.h).  Takes the interface's completion callback:
// nothing else may submit on it.  `submit` puts a command on its queue and rings the doorbell
// without blocking, its `done` running when the completion is seen; `send` blocks the calling
// SystemC thread until the command completes (waiting first for the firmware to let the host in).
// Leaves out: admin queues, timeouts, aborts.
#pragma once

#include <systemc>

#include <cstdint>
#include <functional>
#include <unordered_map>

#include "models/host/host_interface.h"

namespace ssdvp {

class HostCommandPort {
 public:
  explicit HostCommandPort(HostInterface& hif);

  // `cmd` (alive until `done`) goes on its queue at now + delay.
  void submit(HostCommand* cmd, sc_core::sc_time delay, std::function<void(HostCommand*)> done);
  // Sends `cmd` and returns once it completed (cmd->status, cmd->result, ... filled).
  void send(HostCommand& cmd);
  uint64_t commands() const { return commands_; }

 private:
  HostInterface& hif_;
  std::unordered_map<const HostCommand*, std::function<void(HostCommand*)>> in_flight_;
  uint64_t commands_ = 0;
};

}  // namespace ssdvp
