// The host CPU model and MT-FTL migration (models/host/cpu_scheduler.h): CPU time shared by
// the threads' phases and the host's I/O work on a CPU (models/host/host_cpus.h), the OS
// balancer evening out CPU load only in periodic and newly-idle rounds, and the greedy
// migration, every host.migration_rounds rounds, moving the thread with the most
// write-buffer insertions off the CPU with the most, after its selection's CPU time.
// Each TEST builds a platform and runs in its own process.
#include <gtest/gtest.h>

#include <fstream>

#include "model/platform_test_support.h"

using namespace ssdvp;

namespace {

std::vector<std::string> sets_with(std::vector<std::string> more) {
  auto sets = test::small_platform();
  for (std::string s : {"precondition.overwrite=0", "host.cpus=2", "host.queues=2", "sim.max_sim_ms=50"})
    sets.push_back(s);
  sets.insert(sets.end(), more.begin(), more.end());
  return sets;
}

}  // namespace

// Four CPU-bound threads start on CPU 0 of two, a fifth thread only does I/O on CPU 1: the
// balancer moves two of them (4:0 -> 3:1 -> 2:2, the I/O thread is no load), never the I/O
// thread, and the CPU work is two CPUs' time but for the first balancing periods.
TEST(HostCpu, BalancerEvensCpuLoadAndSharesTheCpus) {
  auto run = test::run_platform(sets_with({"host.cpu.types=0:100,0:100,0:100,0:100,100:0", "host.thread_cpus=0,0,0,0,1",
                                           "host.cpu.balance_ms=4", "host.cpu.cycle_ms=10"}),
                                "fio:rw=randwrite,bs=4k,iodepth=1,numjobs=5,io=1000000");
  const auto& r = run.results;
  test::expect_clean(r);
  const auto& h = r["host_cpu"];
  EXPECT_EQ(h["balancer_moves"].get<uint64_t>(), 2u);
  EXPECT_EQ(h["migrations"].get<uint64_t>(), 0u);
  EXPECT_EQ(h["threads"][4]["cpu_at_end"].get<uint32_t>(), 1u);
  EXPECT_EQ(h["threads"][4]["cpu_work_s"].get<double>(), 0.0);
  const double t = r["sim_time_s"].get<double>();
  const double work = h["cpu_work_s"].get<double>();
  // The I/O thread's submissions and interrupts (the host I/O stack) share CPU 1.
  const double stack = r["host_stack"]["cpu_time_s"]["submit"].get<double>() + r["host_stack"]["cpu_time_s"]["interrupt"].get<double>();
  EXPECT_GT(stack, 0.0);
  EXPECT_LE(work + stack, 2 * t + 2e-5) << "(a request's stack work may straddle the window's end)";
  EXPECT_GT(work + stack, 2 * t - 0.012) << "CPU 1 idles only until the balancer's first two moves";
  for (int k = 0; k < 4; k++) EXPECT_NEAR(h["threads"][k]["cpu_work_s"].get<double>(), work / 4, work / 8) << k;
  EXPECT_NEAR(h["cpus"][0]["busy_share"].get<double>(), 1.0, 1e-6);
  EXPECT_GT(r["ops"]["write"]["requests"].get<uint64_t>(), 10u) << "the I/O thread kept writing";
}

// Thread 0 writes 64 KiB at a time, threads 1-3 4 KiB; threads 0-2 start on CPU 0, thread 3
// on CPU 1.  CPU 0 has the most insertions and thread 0 the most on it: greedy migration
// moves thread 0, and only thread 0, every period (to the CPU with the fewest, and back:
// it dominates wherever it is); without migration nobody moves.
void migration_case(bool greedy) {
  const std::string path = std::string(::testing::TempDir()) + (greedy ? "mig-greedy.trace" : "mig-none.trace");
  {
    std::ofstream out(path);
    for (int i = 0; i < 20000; i++)
      for (int t = 0; t < 4; t++)
        out << 100 + t << " D write " << uint64_t((i * 7 + t * 1000) % 5000) * 4096 << ' ' << (t == 0 ? 65536 : 4096)
            << " 0.0 0 False\n";
  }
  auto run = test::run_platform(
      sets_with({"host.cpu.types=100:0", "host.thread_cpus=0,0,0,1", "host.migration_rounds=200",
                 std::string("host.migration=") + (greedy ? "greedy" : "none"), "sim.max_sim_ms=30"}),
      "trace:" + path + ",format=blkparse-events,streams=by_pid,replay=closed,iodepth=1");
  const auto& r = run.results;
  test::expect_clean(r);
  const auto& h = r["host_cpu"];
  ASSERT_GE(h["insert_series"].size(), 4u);
  const auto& first = h["insert_series"][0]["per_cpu"];
  EXPECT_GT(first[0].get<uint64_t>(), first[1].get<uint64_t>()) << "CPU 0 inserts most in the first period";
  EXPECT_GT(h["threads"][0]["inserted_sectors"].get<uint64_t>(), 4 * h["threads"][1]["inserted_sectors"].get<uint64_t>());
  if (greedy) {
    EXPECT_EQ(h["threads"][0]["migrations"].get<uint32_t>(), h["migrations"].get<uint64_t>());
    EXPECT_GE(h["migrations"].get<uint64_t>(), 3u);
    for (int t = 1; t < 4; t++) EXPECT_EQ(h["threads"][t]["migrations"].get<uint32_t>(), 0u) << t;
    // After the first period thread 0 runs on CPU 1: its writes land there.
    const auto& second = h["insert_series"][1]["per_cpu"];
    EXPECT_GT(second[1].get<uint64_t>(), second[0].get<uint64_t>());
  } else {
    EXPECT_EQ(h["migrations"].get<uint64_t>(), 0u);
    EXPECT_EQ(h["threads"][0]["cpu_at_end"].get<uint32_t>(), 0u);
  }
}

TEST(HostCpu, GreedyMigrationMovesTheMostInsertingThreadOffTheBusiestCpu) { migration_case(true); }
TEST(HostCpu, WithoutMigrationNoThreadMoves) { migration_case(false); }

TEST(HostCpu, MigrationWithoutTheCpuModelIsAConfigError) {
  try {
    test::run_platform(sets_with({"host.migration=greedy"}), "fio:rw=randwrite,io=10,numjobs=2");
    FAIL() << "accepted migration without host.cpu.types";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("host.migration"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("host.cpu.types"), std::string::npos) << e.what();
  }
}

TEST(HostCpu, BadThreadTypeIsAConfigError) {
  try {
    test::run_platform(sets_with({"host.cpu.types=90:20"}), "fio:rw=randwrite,io=10");
    FAIL() << "accepted 90:20";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("host.cpu.types"), std::string::npos) << e.what();
  }
}

// One CPU: a thread computing for its whole cycle (0:100) beside a thread doing only I/O
// (100:0), whose submissions and interrupts (the host I/O stack) are CPU time there too.  The
// CPU is never idle and what the computing thread received is what the stack left it; the
// stack's work is stretched by the sharing (a QD1 write takes more than its CPU time alone).
TEST(HostCpu, PhasesShareTheCpuWithTheHostIoStack) {
  auto run = test::run_platform(sets_with({"host.cpus=1", "host.queues=1", "host.cpu.types=0:100,100:0",
                                           "host.cpu.cycle_ms=10", "sim.max_sim_ms=20"}),
                                "fio:rw=randwrite,bs=4k,iodepth=1,numjobs=2,io=1000000");
  const auto& r = run.results;
  test::expect_clean(r);
  const auto& h = r["host_cpu"];
  const double t = r["sim_time_s"].get<double>();
  const double work = h["threads"][0]["cpu_work_s"].get<double>();
  const double stack = r["host_stack"]["cpu_time_s"]["submit"].get<double>() + r["host_stack"]["cpu_time_s"]["interrupt"].get<double>();
  EXPECT_GT(stack, 0.0);
  EXPECT_NEAR(h["cpus"][0]["busy_share"].get<double>(), 1.0, 1e-3);
  EXPECT_NEAR(work + stack, t, 0.01 * t) << "the computing thread gets what the stack leaves";
  EXPECT_GT(work, 0.3 * t);
  // A write's submission (2 us of CPU time) shared with the computing thread takes twice as
  // long; its interrupt (4.63 us) is not preempted.
  EXPECT_GT(r["ops"]["write"]["latency_us"]["mean"].get<double>(), 2 * 2 + 4.63);
}

// Every round counts (periodic and newly idle), a migration period ends every
// host.migration_rounds of them, and each migration's selection costs
// host.migration_select_instructions per thread and CPU at the host CPU's speed.
TEST(HostCpu, MigrationRunsEveryNRoundsAndItsSelectionIsCpuTime) {
  auto run = test::run_platform(sets_with({"host.cpu.types=100:0,100:0,50:50,0:100", "host.thread_cpus=0,0,0,1",
                                           "host.migration=greedy", "host.migration_rounds=200",
                                           "host.migration_select_instructions=1000", "host.cpu.clock_mhz=2000",
                                           "host.cpu.cycle_ms=4", "sim.max_sim_ms=20"}),
                                "fio:rw=randwrite,bs=4k,iodepth=1,numjobs=4,io=1000000");
  const auto& r = run.results;
  test::expect_clean(r);
  const auto& h = r["host_cpu"];
  const uint64_t rounds = h["balancer_rounds"].get<uint64_t>();
  const uint64_t periods = h["migration_periods"].get<uint64_t>();
  EXPECT_GT(h["newly_idle_rounds"].get<uint64_t>(), 0u);
  EXPECT_LE(h["newly_idle_rounds"].get<uint64_t>(), rounds);
  EXPECT_GE(periods, 5u);
  EXPECT_LE(periods, rounds / 200);
  EXPECT_GE(periods + 1, rounds / 200) << "at most the last one still due at the end";
  EXPECT_EQ(h["insert_series"].size(), periods);
  // 4 threads + 2 CPUs examined, 1000 instructions each, at 2000 MHz and IPC 1: 3 us a selection.
  EXPECT_NEAR(h["migration_select_s"].get<double>(), double(periods) * 6 * 1000 / 2e9, 1e-12);
  EXPECT_GT(h["migrations"].get<uint64_t>(), 0u);
}
