// The host CPU model and MT-FTL migration (issue 14, models/host/cpu_scheduler.h): CPU time
// shared by the threads on a CPU, the OS balancer evening out CPU load only, and the greedy
// migration moving the thread with the most write-buffer insertions off the CPU with the most.
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
  EXPECT_LE(work, 2 * t + 1e-9);
  EXPECT_GT(work, 2 * t - 0.012) << "CPU 1 idles only until the balancer's first two moves";
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
      sets_with({"host.cpu.types=100:0", "host.thread_cpus=0,0,0,1", "host.migration_ms=5",
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
