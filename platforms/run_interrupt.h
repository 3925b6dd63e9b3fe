// Ctrl-C on `ssdvp run`: the first SIGINT stops the simulation at its next update phase (a
// firmware core's next quantum at the latest), so that the run's figures so far are written:
// run.json "interrupted" and a summary that says so, exit status 130.  A second SIGINT ends the
// process at once (exit 130, nothing written), for a run that does not reach an update phase.
// Taken by a watcher thread (platforms/signal_watch.h), which asks the kernel for an update
// (async_request_update, thread-safe), never in a signal handler.
// Leaves out: SIGTERM and the other signals (their default actions stand).
#pragma once

#include <systemc>

#include <atomic>
#include <unistd.h>

#include "platforms/signal_watch.h"

namespace ssdvp {

class RunInterrupt : public sc_core::sc_prim_channel {
 public:
  RunInterrupt()
      : sc_core::sc_prim_channel("run_interrupt"), watch_({SIGINT}, [this](int) {
          if (interrupted_.exchange(true)) _exit(130);   // the second: at once
          async_request_update();
        }) {}
  bool interrupted() const { return interrupted_.load(); }

 private:
  void update() override { sc_core::sc_stop(); }
  std::atomic<bool> interrupted_{false};
  SignalWatch watch_;
};

}  // namespace ssdvp
