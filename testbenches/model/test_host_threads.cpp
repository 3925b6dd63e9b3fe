// Host threads (issue 13, first part): each workload stream is a host thread on a host CPU,
// whose commands go to that CPU's submission queue (host.cpus, host.thread_cpus, blk-mq's
// CPU -> queue map); per-thread figures in run.json; bad bindings named.  Each TEST builds a
// platform and runs in its own process.
#include <gtest/gtest.h>

#include "model/platform_test_support.h"

using namespace ssdvp;

namespace {

std::vector<std::string> sets_with(std::vector<std::string> more) {
  auto sets = test::small_platform();
  sets.push_back("precondition.overwrite=0");
  sets.insert(sets.end(), more.begin(), more.end());
  return sets;
}

// The queue each thread's commands reached the controller on, from the device side: the
// commands fetched per queue equal the requests of the threads whose CPU maps to it.
void expect_routing(const nlohmann::json& r, const std::vector<uint32_t>& cpus, uint32_t queues) {
  test::expect_clean(r);
  ASSERT_EQ(r["threads"].size(), cpus.size());
  std::vector<uint64_t> want(queues, 0);
  uint64_t reads = 0;
  for (size_t t = 0; t < cpus.size(); t++) {
    const auto& th = r["threads"][t];
    EXPECT_EQ(th["cpu"].get<uint32_t>(), cpus[t]) << "thread " << t;
    EXPECT_EQ(th["queue"].get<uint32_t>(), cpus[t] % queues) << "thread " << t;
    const uint64_t n = th["read"]["requests"].get<uint64_t>();
    EXPECT_EQ(n, 300u) << "thread " << t;
    EXPECT_GT(th["read"]["latency_us"]["p50"].get<double>(), 0.0);
    want[cpus[t] % queues] += n;
    reads += n;
  }
  EXPECT_EQ(reads, r["ops"]["read"]["requests"].get<uint64_t>());
  const auto& got = r["host"]["commands_per_queue"];
  ASSERT_EQ(got.size(), queues);
  for (uint32_t q = 0; q < queues; q++) EXPECT_EQ(got[q].get<uint64_t>(), want[q]) << "queue " << q;
}

const std::string kSixJobs = "fio:rw=randread,bs=4k,numjobs=6,iodepth=2,io=300";

}  // namespace

// Six threads on three CPUs, two queues: thread t on CPU t mod 3, CPU c on queue c mod 2.
TEST(HostThreads, ThreadsRunOnCpusAndCpusSubmitOnTheirQueue) {
  auto run = test::run_platform(sets_with({"host.cpus=3", "host.queues=2"}), kSixJobs);
  expect_routing(run.results, {0, 1, 2, 0, 1, 2}, 2);
  EXPECT_EQ(run.results["host"]["cpus"].get<uint32_t>(), 3u);
}

// host.thread_cpus binds each thread; threads on one CPU share its queue.
TEST(HostThreads, ThreadCpusBindsEachThread) {
  auto run = test::run_platform(sets_with({"host.cpus=4", "host.queues=4", "host.thread_cpus=3,3,3,0,1,3"}), kSixJobs);
  expect_routing(run.results, {3, 3, 3, 0, 1, 3}, 4);
}

// Without host.cpus, one CPU per queue (the default host: thread t on queue t mod queues).
TEST(HostThreads, DefaultIsOneCpuPerQueue) {
  auto run = test::run_platform(sets_with({"host.queues=4"}), kSixJobs);
  expect_routing(run.results, {0, 1, 2, 3, 0, 1}, 4);
  EXPECT_EQ(run.results["host"]["cpus"].get<uint32_t>(), 4u);
}

TEST(HostThreads, BadBindingsNameTheKey) {
  auto error_of = [](std::vector<std::string> sets) {
    try {
      (void)PlatformParams::from(Config::load("", sets));
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error_of({"host.cpus=4", "host.thread_cpus=0,4"})
                .find("host.thread_cpus = \"0,4\" binds a thread to CPU 4, but the host has 4 (host.cpus, 0 .. 3)"),
            std::string::npos);
  EXPECT_NE(error_of({"host.thread_cpus=0,x"}).find("host.thread_cpus = \"0,x\": 'x' is not a CPU number"),
            std::string::npos);
  EXPECT_NE(error_of({"host.cpus=2000"}).find("host.cpus"), std::string::npos);
}

// A binding list that does not match the workload's threads stops the run, naming the key.
TEST(HostThreads, ThreadCpusMustNameEveryThread) {
  auto run = test::run_platform(sets_with({"host.cpus=4", "host.thread_cpus=0,1"}), kSixJobs);
  const auto& r = run.results;
  EXPECT_FALSE(r["completed"].get<bool>());
  ASSERT_FALSE(r["errors"].empty());
  EXPECT_NE(r["errors"][0].get<std::string>().find("host.thread_cpus names 2 CPUs, but workload"), std::string::npos)
      << r["errors"][0];
}

// More threads than the host model runs stops the run, naming the limit.
TEST(HostThreads, TooManyThreadsAreRefused) {
  auto run = test::run_platform(sets_with({}), "fio:rw=randread,bs=4k,numjobs=5000,io=1");
  const auto& r = run.results;
  EXPECT_FALSE(r["completed"].get<bool>());
  ASSERT_FALSE(r["errors"].empty());
  EXPECT_NE(r["errors"][0].get<std::string>().find("the host model runs at most 4096 threads"), std::string::npos)
      << r["errors"][0];
}
