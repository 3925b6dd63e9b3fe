// The host I/O stack (models/host/host_io_stack.h, docs/host-stack.md): a command's submission
// and its completion cost host CPU time where the stack says (the submitting CPU; the queue's
// CPU for an interrupt; the thread's own CPU while it polls), a request's latency carries them,
// and a CPU shared by many threads bounds what they can submit.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/platform_test_support.h"

using namespace ssdvp;

namespace {

double mean_read_us(const nlohmann::json& r) { return r["ops"]["read"]["latency_us"]["mean"].get<double>(); }
double stack_cpu_s(const nlohmann::json& r, const char* c) { return r["host_stack"]["cpu_time_s"][c].get<double>(); }

}  // namespace

// One thread, one command at a time: each read waits for its submission (host.stack.submit_ns)
// and, interrupt-driven, for the interrupt's handler (host.stack.irq_ns); polled, for the
// reaping only.  Against a run without a stack (host.stack = none, no fixed delays either).
// The CPU time of each is charged once per command; a poller's CPU spins the whole time.
TEST(HostStack, AReadAtQueueDepthOneCarriesItsSubmissionAndItsCompletion) {
  std::vector<std::string> base = test::small_platform();
  base.push_back("precondition.overwrite=0");   // no GC debt: each read takes the same time in the drive
  const std::string wl = "fio:rw=randread,bs=4k,iodepth=1,io=3000";
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> s = base;
    s.insert(s.end(), extra.begin(), extra.end());
    return s;
  };
  const auto free_stack = test::run_child(with({"host.stack=\"none\"", "host.submit_ns=0", "host.irq_ns=0"}), wl, "stack-free");
  const auto irq = test::run_child(with({"host.stack=\"interrupt\"", "host.stack.submit_ns=2000", "host.stack.irq_ns=4630"}), wl, "stack-irq");
  const auto poll = test::run_child(with({"host.stack=\"poll\"", "host.stack.submit_ns=2000", "host.stack.poll_ns=300"}),
                                    wl, "stack-poll");
  for (const auto* r : {&free_stack, &irq, &poll}) test::expect_clean(*r);
  EXPECT_NEAR(mean_read_us(irq) - mean_read_us(free_stack), 2.0 + 4.63, 0.05);
  EXPECT_NEAR(mean_read_us(poll) - mean_read_us(free_stack), 2.0 + 0.3, 0.05);

  EXPECT_FALSE(free_stack.contains("host_stack"));
  const auto& s = irq["host_stack"];
  EXPECT_EQ(s["completion"], "interrupt");
  const double commands = s["commands"].get<double>();
  EXPECT_EQ(commands, 3000 + 1);   // the reads and the flush at the end
  EXPECT_EQ(s["interrupts"].get<double>(), commands);
  EXPECT_NEAR(stack_cpu_s(irq, "submit"), commands * 2000e-9, 1e-9);
  EXPECT_NEAR(stack_cpu_s(irq, "interrupt"), commands * 4630e-9, 1e-9);
  EXPECT_EQ(stack_cpu_s(irq, "poll_spin"), 0.0);

  const auto& p = poll["host_stack"];
  EXPECT_EQ(p["completion"], "poll");
  EXPECT_EQ(p["interrupts"].get<double>(), 0.0);
  EXPECT_NEAR(stack_cpu_s(poll, "poll_reap"), p["polled_completions"].get<double>() * 300e-9, 1e-9);
  // The thread spins while each read is in the device: nearly all of the measured time.
  const double measured_s = poll["sim_time_s"].get<double>();
  EXPECT_GT(stack_cpu_s(poll, "poll_spin"), 0.9 * measured_s);
  EXPECT_LT(stack_cpu_s(poll, "poll_spin"), measured_s);
}

// Four threads on one CPU, whose interrupt handles every completion: 52 us of CPU per command
// (2 us submission, 50 us interrupt) caps them at 1 / 52 us, far below what the drive reads
// (no overwrite in preconditioning: no GC debt slows the reads).  On four CPUs, each with its
// own queue and interrupt, the same threads read over twice as fast.
TEST(HostStack, OneCpuForEveryThreadAndInterruptBoundsTheirIops) {
  std::vector<std::string> s = test::small_platform();
  s.insert(s.end(), {"host.stack=\"interrupt\"", "host.stack.submit_ns=2000", "host.stack.irq_ns=50000", "precondition.overwrite=0"});
  const std::string wl = "fio:rw=randread,bs=4k,iodepth=4,numjobs=4,io=1500";
  auto on = [&](const char* cpus) {
    std::vector<std::string> x = s;
    x.push_back(std::string("host.cpus=") + cpus);
    x.push_back(std::string("host.queues=") + cpus);
    return test::run_child(x, wl, std::string("stack-cpus-") + cpus);
  };
  const auto one = on("1");
  const auto four = on("4");
  test::expect_clean(one);
  test::expect_clean(four);
  const double iops = one["ops"]["read"]["iops"].get<double>();
  const double bound = 1e9 / 52000.0;
  EXPECT_LT(iops, bound * 1.01);
  EXPECT_GT(iops, bound * 0.9) << "the CPU, not the drive, is what limits them";
  EXPECT_GT(one["host_stack"]["busiest_cpu_stack_share"].get<double>(), 0.9);
  EXPECT_GT(four["ops"]["read"]["iops"].get<double>(), 2.5 * iops);
}
