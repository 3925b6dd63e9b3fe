#define SC_INCLUDE_DYNAMIC_PROCESSES   // sc_spawn
#include "platforms/bench_kernel.h"

#include <sys/wait.h>
#include <unistd.h>

#include <systemc>

#include <chrono>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace ssdvp {

namespace {

// `width` methods, method i first at i ns, then every `width` ns: one activation per timestep.
struct TimedMethods : sc_core::sc_module {
  TimedMethods(sc_core::sc_module_name n, unsigned width, uint64_t rounds)
      : sc_core::sc_module(n), width_(width), rounds_(rounds), events_(width) {
    for (unsigned i = 0; i < width; i++) {
      sc_core::sc_spawn_options o;
      o.spawn_method();
      o.set_sensitivity(&events_[i]);
      o.dont_initialize();
      sc_core::sc_spawn([this, i] { fire(i); }, sc_core::sc_gen_unique_name("m"), &o);
    }
  }
  void start_of_simulation() override {
    for (unsigned i = 0; i < width_; i++) events_[i].notify(sc_core::sc_time(double(i + 1), sc_core::SC_NS));
  }
  void fire(unsigned i) {
    if (++done_ >= rounds_) {
      sc_core::sc_stop();
      return;
    }
    events_[i].notify(period_ * double(width_));
  }
  unsigned width_;
  uint64_t rounds_, done_ = 0;
  std::vector<sc_core::sc_event> events_;
  const sc_core::sc_time period_{1, sc_core::SC_NS};
};

struct WaitingThread : sc_core::sc_module {
  SC_HAS_PROCESS(WaitingThread);
  WaitingThread(sc_core::sc_module_name n, uint64_t rounds) : sc_core::sc_module(n), rounds_(rounds) {
    SC_THREAD(loop);
  }
  void loop() {
    const sc_core::sc_time step(1, sc_core::SC_NS);
    for (uint64_t i = 0; i < rounds_; i++) sc_core::wait(step);
    sc_core::sc_stop();
  }
  uint64_t rounds_;
};

// Elaborates `make()`'s module in a child process, runs it to sc_stop and returns the rounds
// per wall second it measured.
template <class Make>
double in_own_process(uint64_t rounds, Make make) {
  int fd[2];
  if (pipe(fd) != 0) throw std::runtime_error("bench: pipe failed");
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("bench: fork failed");
  if (pid == 0) {
    close(fd[0]);
    double rate = 0;
    try {
      auto top = make();
      const auto t0 = std::chrono::steady_clock::now();
      sc_core::sc_start();
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      rate = s > 0 ? double(rounds) / s : 0.0;
    } catch (...) {
      rate = -1;
    }
    const ssize_t w = write(fd[1], &rate, sizeof rate);
    _exit(w == ssize_t(sizeof rate) && rate > 0 ? 0 : 1);
  }
  close(fd[1]);
  double rate = 0;
  const ssize_t got = read(fd[0], &rate, sizeof rate);
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (got != ssize_t(sizeof rate) || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || rate <= 0)
    throw std::runtime_error("bench: the SystemC kernel loop failed in its child process");
  return rate;
}

}  // namespace

KernelRates measure_kernel_rates(uint64_t rounds) {
  KernelRates k;
  k.method_per_s = in_own_process(rounds, [rounds] { return std::make_unique<TimedMethods>("k", 1, rounds); });
  k.method32_per_s = in_own_process(rounds, [rounds] { return std::make_unique<TimedMethods>("k", 32, rounds); });
  k.thread_per_s = in_own_process(rounds, [rounds] { return std::make_unique<WaitingThread>("k", rounds); });
  return k;
}

}  // namespace ssdvp
