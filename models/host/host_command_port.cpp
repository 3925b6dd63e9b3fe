// A host thread's commands to the host interface: see host_command_port.h.
#include "models/host/host_command_port.h"

#include <stdexcept>

namespace ssdvp {

HostCommandPort::HostCommandPort(HostInterface& hif) : hif_(hif) {
  hif_.on_complete = [this](HostCommand* c) {
    const auto it = in_flight_.find(c);
    if (it == in_flight_.end()) throw std::logic_error("host command port: a completion for no command it sent");
    auto done = std::move(it->second);
    in_flight_.erase(it);
    commands_++;
    done(c);
  };
}

void HostCommandPort::submit(HostCommand* cmd, sc_core::sc_time delay, std::function<void(HostCommand*)> done) {
  cmd->t_submit = sc_core::sc_time_stamp() + delay;
  in_flight_[cmd] = std::move(done);
  hif_.submit(cmd);
  hif_.ring_doorbell(cmd->queue, delay);
}

void HostCommandPort::send(HostCommand& cmd) {
  if (!hif_.ready()) sc_core::wait(hif_.ready_event());
  bool finished = false;
  sc_core::sc_event done;
  submit(&cmd, sc_core::SC_ZERO_TIME, [&](HostCommand*) {
    finished = true;
    done.notify(sc_core::SC_ZERO_TIME);
  });
  while (!finished) sc_core::wait(done);
}

}  // namespace ssdvp
