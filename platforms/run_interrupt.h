// Ctrl-C on `ssdvp run`: the first SIGINT stops the simulation at its next update phase (a
// firmware core's next quantum at the latest), so that the run's figures so far are written:
// run.json "interrupted" and a summary that says so, exit status 130.  A second SIGINT ends the
// process at once (exit 130, nothing written), for a run that does not reach an update phase.
// Before the measured run (elaboration, preconditioning: the functional one is one firmware call
// that reaches no update phase for minutes on a big drive) the first SIGINT ends the process at
// once too, saying that nothing was measured.
// Taken by a watcher thread (platforms/signal_watch.h), which asks the kernel for an update
// (async_request_update, thread-safe), never in a signal handler.
// Leaves out: SIGTERM and the other signals (their default actions stand).
#pragma once

#include <systemc>

#include <atomic>
#include <cstdio>
#include <functional>
#include <mutex>
#include <unistd.h>

#include "platforms/signal_watch.h"

namespace ssdvp {

class RunInterrupt : public sc_core::sc_prim_channel {
 public:
  RunInterrupt()
      : sc_core::sc_prim_channel("run_interrupt"), watch_({SIGINT}, [this](int) {
          if (interrupted_.exchange(true)) _exit(130);   // the second: at once
          if (!measuring()) {
            std::fputs("\nssdvp: interrupted (SIGINT) before the measured run began (preconditioning): nothing "
                       "measured, nothing written\n", stderr);
            _exit(130);
          }
          async_request_update();
        }) {}
  bool interrupted() const { return interrupted_.load(); }
  // Tells whether the measured run began (asked from the watcher thread: thread-safe).
  void set_measuring(std::function<bool()> measuring) {
    std::lock_guard<std::mutex> lock(mutex_);
    measuring_ = std::move(measuring);
  }

 private:
  void update() override { sc_core::sc_stop(); }
  bool measuring() {
    std::lock_guard<std::mutex> lock(mutex_);
    return measuring_ && measuring_();
  }
  std::mutex mutex_;
  std::function<bool()> measuring_;
  std::atomic<bool> interrupted_{false};
  SignalWatch watch_;
};

}  // namespace ssdvp
