// The host CPU model of the host FTL (models/host/host_cpus.h): processor sharing, spinning on
// a spin lock costs the spinner's CPU, FIFO grants, socket hand-offs.  One simulation a process.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include <gtest/gtest.h>

#include <systemc>

#include <vector>

#include "models/host/host_cpus.h"

using namespace ssdvp;
using sc_core::SC_US;
using sc_core::sc_time;

namespace {

double us(const sc_time& t) { return t.to_seconds() * 1e6; }
double now_us() { return us(sc_core::sc_time_stamp()); }

}  // namespace

TEST(HostCpus, WorkOnOneCpuIsSharedAndOnTwoRunsSideBySide) {
  HostCpus cpus(2, 1, {"work"});
  std::vector<double> done(4, 0);
  // Threads 0 and 1 share CPU 0; thread 2 runs on CPU 1; thread 3 joins CPU 1 halfway.
  sc_core::sc_spawn([&] { cpus.run(0, sc_time(10, SC_US), 0); done[0] = now_us(); });
  sc_core::sc_spawn([&] { cpus.run(0, sc_time(10, SC_US), 0); done[1] = now_us(); });
  sc_core::sc_spawn([&] { cpus.run(1, sc_time(10, SC_US), 0); done[2] = now_us(); });
  sc_core::sc_spawn([&] {
    sc_core::wait(sc_time(5, SC_US));
    cpus.run(1, sc_time(10, SC_US), 0);
    done[3] = now_us();
  });
  sc_core::sc_start();
  EXPECT_NEAR(done[0], 20, 1e-3);
  EXPECT_NEAR(done[1], 20, 1e-3);
  EXPECT_NEAR(done[2], 15, 1e-3);   // alone 5 us, then half the CPU for the other 5 us of work
  EXPECT_NEAR(done[3], 20, 1e-3);
  EXPECT_NEAR(cpus.busy_s(0) * 1e6, 40, 1e-3);
  EXPECT_NEAR(cpus.busy_s(0, 0) * 1e6, 20, 1e-3);
}

// Writers on CPUs 1..n each insert under one lock held 2 us per insert: the more of them wait,
// the more CPU time each insert costs its writer in spinning, and a waiter spinning beside a
// worker on the same CPU halves the worker's speed.
TEST(HostCpus, MoreWaitersOnASpinLockCostMoreCpuTimePerAcquisition) {
  HostCpus cpus(8, 1, {"insert", "spin"});
  HostSpinLock lock(cpus, sc_core::SC_ZERO_TIME, 1);
  auto round = [&](uint32_t writers, double start_us) {
    for (uint32_t w = 0; w < writers; w++)
      sc_core::sc_spawn([&, w, start_us] {
        sc_core::wait(sc_time(start_us, SC_US));
        for (int i = 0; i < 10; i++) {
          lock.acquire(1 + w);
          cpus.run(1 + w, sc_time(2, SC_US), 0);
          lock.release();
        }
      });
  };
  round(1, 0);       // one writer: never waits
  round(4, 1000);    // four: each waits for three others' holds
  std::vector<double> spin_after(2, 0);
  sc_core::sc_spawn([&] {
    sc_core::wait(sc_time(999, SC_US));
    spin_after[0] = lock.spin_s();
    sc_core::wait(sc_time(1000, SC_US));
    spin_after[1] = lock.spin_s() - spin_after[0];
  });
  sc_core::sc_start();
  EXPECT_EQ(spin_after[0], 0.0);
  // Four writers, 40 inserts, each waiting for up to three holds of 2 us: about 6 us a round.
  const double per_insert_us = spin_after[1] * 1e6 / 40;
  EXPECT_GT(per_insert_us, 4.0);
  EXPECT_LT(per_insert_us, 6.5);
  EXPECT_EQ(lock.acquisitions(), 50u);
  EXPECT_GE(lock.contended(), 30u);
}

TEST(HostCpus, ASpinnerSharesItsCpuWithTheWorkThere) {
  HostCpus cpus(2, 1, {"work", "spin"});
  HostSpinLock lock(cpus, sc_core::SC_ZERO_TIME, 1);
  double worker_done = 0;
  sc_core::sc_spawn([&] {   // CPU 1 holds the lock for 30 us
    lock.acquire(1);
    cpus.run(1, sc_time(30, SC_US), 0);
    lock.release();
  });
  sc_core::sc_spawn([&] {   // CPU 0: a spinner ...
    sc_core::wait(sc_time(1, SC_US));
    lock.acquire(0);
    lock.release();
  });
  sc_core::sc_spawn([&] {   // ... and 10 us of work beside it
    sc_core::wait(sc_time(1, SC_US));
    cpus.run(0, sc_time(10, SC_US), 0);
    worker_done = now_us();
  });
  sc_core::sc_start();
  EXPECT_NEAR(worker_done, 21, 1e-3);
  EXPECT_NEAR(lock.spin_s() * 1e6, 19, 1e-3);   // 10 us at half the CPU, then 9 us alone
}

TEST(HostCpus, ALockHandedToAnotherSocketCostsTheNewHolder) {
  HostCpus cpus(4, 2, {"work", "spin"});   // CPUs 0-1 socket 0, 2-3 socket 1
  HostSpinLock lock(cpus, sc_time(1, SC_US), 1);
  EXPECT_EQ(cpus.socket_of(1), 0u);
  EXPECT_EQ(cpus.socket_of(2), 1u);
  sc_core::sc_spawn([&] {
    for (uint32_t cpu : {0u, 1u, 2u, 3u, 0u}) {   // socket 0, 0, 1, 1, 0: two crossings
      lock.acquire(cpu);
      cpus.run(cpu, sc_time(1, SC_US), 0);
      lock.release();
    }
  });
  sc_core::sc_start();
  EXPECT_EQ(lock.socket_handoffs(), 2u);
  EXPECT_NEAR(lock.spin_s() * 1e6, 2, 1e-3);
  EXPECT_NEAR(now_us(), 7, 1e-3);
}

// A spin lock's holder is not preempted: its CPU runs nothing else while it holds, so work
// beside it waits and a waiter on the holder's own CPU spends nothing spinning.
TEST(HostCpus, AnExclusiveRunHasItsCpuAlone) {
  HostCpus cpus(1, 1, {"work", "spin"});
  HostSpinLock lock(cpus, sc_core::SC_ZERO_TIME, 1);
  double holder_done = 0, other_done = 0;
  sc_core::sc_spawn([&] {
    lock.acquire(0);
    cpus.run_exclusive(0, sc_time(10, SC_US), 0);
    holder_done = now_us();
    lock.release();
  });
  sc_core::sc_spawn([&] {
    sc_core::wait(sc_time(1, SC_US));
    cpus.run(0, sc_time(10, SC_US), 0);
    other_done = now_us();
  });
  sc_core::sc_spawn([&] {
    sc_core::wait(sc_time(2, SC_US));
    lock.acquire(0);
    lock.release();
  });
  sc_core::sc_start();
  EXPECT_NEAR(holder_done, 10, 1e-3);
  EXPECT_NEAR(other_done, 20, 1e-3);   // nothing until 10 us, then alone
  EXPECT_EQ(lock.spin_s(), 0.0);
  EXPECT_NEAR(cpus.busy_s(0) * 1e6, 20, 1e-3);
}
