// Signals taken by a thread of their own: from construction on they are blocked in this thread
// (and the threads it starts), and a watcher thread waits for them and calls on_signal there,
// never in a signal handler, so the callback may lock, notify and ask SystemC for an update
// (sc_prim_channel::async_request_update).  Destruction stops the watcher and restores the mask.
// Used by `ssdvp serve` (SIGINT, SIGTERM end the export; SIGUSR1 cuts the power) and `ssdvp run`
// (SIGINT stops the run with its figures so far: platforms/run_interrupt.h).
// Leaves out: signals sent to one thread (pthread_kill) other than the watcher.
#pragma once

#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <functional>
#include <initializer_list>
#include <thread>

namespace ssdvp {

class SignalWatch {
 public:
  SignalWatch(std::initializer_list<int> signals, std::function<void(int)> on_signal) : on_(std::move(on_signal)) {
    sigemptyset(&set_);
    for (int s : signals) sigaddset(&set_, s);
    pthread_sigmask(SIG_BLOCK, &set_, &old_);
    t_ = std::thread([this] {
      while (!stop_) {
        timespec ts{0, 100 * 1000 * 1000};
        const int sig = sigtimedwait(&set_, nullptr, &ts);
        if (sig > 0) on_(sig);
      }
    });
  }
  ~SignalWatch() {
    stop_ = true;
    t_.join();
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  SignalWatch(const SignalWatch&) = delete;
  SignalWatch& operator=(const SignalWatch&) = delete;

 private:
  std::function<void(int)> on_;
  sigset_t set_, old_;
  std::atomic<bool> stop_{false};
  std::thread t_;
};

}  // namespace ssdvp
