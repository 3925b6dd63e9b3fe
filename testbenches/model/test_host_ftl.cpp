// The FTL on the host (host.ftl; models/host/host_ftl.h, docs/host-ftl.md) over the
// Open-Channel device: every read checked and every flush held to durability with 1, 4 and 72
// host CPUs (four sockets), pblk's one ring and MT-FTL's ring per CPU, GC over the device, the
// spin lock costing more per insert as more writers wait, each section's CPU time what its
// documented instruction counts say, preconditioning by the host (timed), and the
// configurations a host FTL cannot run named.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/platform_test_support.h"
#include "models/common/config.h"
#include "models/common/params.h"

using namespace ssdvp;

namespace {

// A small Open-Channel device (2 groups x 2 units x 32 chunks of 512 sectors: 128 MiB), pblk on
// the host, a 4 MiB ring, every flush's durability checked.
std::vector<std::string> host_ftl_sets(std::vector<std::string> extra) {
  std::vector<std::string> s = {"device.interface=ocssd",     "host.ftl=pblk",          "nand.channels=2",
                                "nand.ways=2",                "nand.planes=4",          "nand.blocks_per_plane=32",
                                "nand.page_bytes=16384",      "nand.mlc.pages_per_block=32",
                                "ftl.write_buffer=ring",      "ftl.write_buffer_mib=4", "dram.size_mib=256",
                                "precondition.fill=0",        "precondition.overwrite=0",
                                "sim.check_flush_durability=true", "ftl.gc_check_victims=true"};
  s.insert(s.end(), extra.begin(), extra.end());
  return s;
}

void expect_host_ftl_run(const nlohmann::json& r, uint32_t rings) {
  test::expect_clean(r);
  EXPECT_GT(r["integrity"]["reads_checked"].get<uint64_t>(), 1000u);
  EXPECT_GT(r["integrity"]["flushes_checked"].get<uint64_t>(), 0u);
  ASSERT_TRUE(r.contains("host_ftl"));
  const auto& h = r["host_ftl"];
  EXPECT_EQ(h["rings"].get<uint32_t>(), rings);
  EXPECT_GT(h["device_commands"]["writes"].get<uint64_t>(), 0u);
  EXPECT_GT(h["cpus"]["cpu_time_s_by_category"]["insert"].get<double>(), 0.0);
  EXPECT_GT(h["cpus"]["cpu_time_s_by_category"]["writeback"].get<double>(), 0.0);
  EXPECT_GT(h["device_interrupts"].get<uint64_t>(), 0u);
  if (!r.contains("host_stack")) return;
  // With a modelled stack, the device's interrupts are the FTL's (host.stack.irq_ns each); the
  // users' requests complete in the FTL's threads, not through a second interrupt of the
  // stack, and each costs its submission.
  EXPECT_NEAR(h["cpus"]["cpu_time_s_by_category"]["interrupt"].get<double>(),
              h["device_interrupts"].get<double>() * 4630e-9, 1e-9);
  EXPECT_GT(r["host_stack"]["completions_passed_through"].get<uint64_t>(), 0u);
  EXPECT_EQ(r["host_stack"]["interrupts"].get<uint64_t>(), 0u);
  EXPECT_NEAR(r["host_stack"]["cpu_time_s"]["submit"].get<double>(), r["host_stack"]["commands"].get<double>() * 2000e-9, 1e-9);
}

double category_s(const nlohmann::json& r, const char* c) { return r["host_ftl"]["cpus"]["cpu_time_s_by_category"][c].get<double>(); }

}  // namespace

TEST(HostFtl, PblkOnOneCpuChecksEveryReadAndFlushThroughGc) {
  auto run = test::run_platform(host_ftl_sets({"host.cpus=1", "host.queues=1"}),
                                "fio:rw=randrw,bs=4k,iodepth=8,io=120000,fsync=256", false);
  const auto& r = run.results;
  expect_host_ftl_run(r, 1);
  EXPECT_GT(r["ftl"]["gc_runs"].get<uint64_t>(), 0u) << "the device filled: GC ran over it";
  EXPECT_GT(r["host_ftl"]["device_commands"]["resets"].get<uint64_t>(), 0u);
  // One CPU: a waiter cannot spin while the holder (not preemptible) has the CPU.
  EXPECT_EQ(category_s(r, "lock_spin"), 0.0);
}

TEST(HostFtl, PblkOnFourCpus) {
  auto run = test::run_platform(host_ftl_sets({"host.cpus=4", "host.queues=4", "host.stack=\"interrupt\""}),
                                "fio:rw=randrw,bs=4k,iodepth=4,numjobs=4,io=8000,fsync=128", false);
  expect_host_ftl_run(run.results, 1);
  EXPECT_TRUE(run.results.contains("host_stack"));
  EXPECT_GT(category_s(run.results, "lock_spin"), 0.0);
}

// With the data mode's bytes, every byte of every sector goes through the ring, the device's
// NAND, GC's copies and the host's copy of a chunk's last units, and is checked when read.
TEST(HostFtl, EveryByteTravelsThroughTheRingTheDeviceAndGc) {
  auto run = test::run_platform(host_ftl_sets({"host.cpus=4", "host.queues=4", "sim.payload=true"}),
                                "fio:rw=randrw,bs=4k,iodepth=8,numjobs=4,io=40000", false);
  test::expect_clean(run.results);
  EXPECT_GT(run.results["integrity"]["reads_checked"].get<uint64_t>(), 70000u);
  EXPECT_GT(run.results["ftl"]["gc_runs"].get<uint64_t>(), 0u);
}

TEST(HostFtl, PblkOnSeventyTwoCpusInFourSockets) {
  auto run = test::run_platform(host_ftl_sets({"host.cpus=72", "host.queues=8", "host.cpu.sockets=4"}),
                                "fio:rw=randrw,bs=4k,iodepth=2,numjobs=72,io=500,fsync=64", false);
  expect_host_ftl_run(run.results, 1);
  const auto& lock = run.results["host_ftl"]["lock"];
  EXPECT_GT(lock["socket_handoffs"].get<uint64_t>(), 0u);
  EXPECT_GT(lock["contended"].get<uint64_t>(), 0u);
}

TEST(HostFtl, MtftlKeepsARingPerCpuWithItsOwnWriteBackThread) {
  auto run = test::run_platform(host_ftl_sets({"host.ftl=mtftl", "host.cpus=4", "host.queues=4", "ftl.write_buffer_mib=16"}),
                                "fio:rw=randrw,bs=4k,iodepth=4,numjobs=4,io=8000,fsync=128", false);
  expect_host_ftl_run(run.results, 4);
  // Each CPU's writer fills its own ring (four jobs on four CPUs: each ring a fair share of
  // the insertions), and each ring is drained by its own write-back thread on that CPU, which
  // took CPU time there; the rings' write-back time adds up to the CPU model's write-back time.
  const auto& h = run.results["host_ftl"];
  EXPECT_EQ(h["cpus"]["cpus"].get<uint32_t>(), 4u);
  const auto& rings = h["ring"];
  ASSERT_EQ(rings.size(), 4u) << h.dump();
  uint64_t inserted = 0;
  double writeback = 0;
  for (const auto& ring : rings) {
    inserted += ring["inserted_sectors"].get<uint64_t>();
    writeback += ring["writeback_cpu_s"].get<double>();
  }
  for (uint32_t k = 0; k < 4; k++) {
    EXPECT_GT(rings[k]["inserted_sectors"].get<double>(), 0.2 * double(inserted)) << "ring " << k << ": " << rings.dump();
    EXPECT_EQ(rings[k]["writeback_cpu"].get<uint32_t>(), k) << rings.dump();
    EXPECT_GT(rings[k]["writeback_cpu_s"].get<double>(), 0.0) << "ring " << k << ": " << rings.dump();
  }
  EXPECT_NEAR(writeback, category_s(run.results, "writeback"), 1e-9 + 1e-9 * writeback);
}

// Every section's CPU time is what its units of work cost at the documented instruction counts
// (instructions / (clock x IPC)) plus its copies at host.ftl.copy_gbps, spinning apart (and a
// waiting writer's yielding: here writers sleep).
TEST(HostFtl, CpuTimeOfEachPathIsItsDocumentedMeasurement) {
  auto run = test::run_platform(host_ftl_sets({"host.cpus=1", "host.queues=1", "host.cpu.clock_mhz=2000",
                                               "host.cpu.ipc=2", "host.ftl.copy_gbps=4",
                                               "host.ftl.writeback_sector_instructions=3000",
                                               "host.ftl.full_ring=\"sleep\""}),   // (yielding is no unit of work)
                                "fio:rw=write,bs=16k,iodepth=4,io=2000", false);
  const auto& r = run.results;
  test::expect_clean(r);
  const auto& h = r["host_ftl"];
  double expect = 0;
  for (const auto& [kind, c] : h["costs"].items()) {
    EXPECT_NEAR(c["ns"].get<double>(), c["instructions"].get<double>() * 1e3 / (2000 * 2), 1e-9) << kind;
    expect += c["units"].get<double>() * c["ns"].get<double>() * 1e-9;
  }
  ASSERT_FALSE(r["ops"].contains("read"));
  const double copied = double(r["ops"]["write"]["bytes"].get<uint64_t>()) +
                        4096.0 * double(h["device_commands"]["reads_from_host_copy"].get<uint64_t>());
  expect += copied / 4e9;
  const double ran = category_s(r, "insert") + category_s(r, "retry") + category_s(r, "writeback") +
                     category_s(r, "completion") + category_s(r, "gc");
  EXPECT_NEAR(ran, expect, expect * 1e-6);
  EXPECT_GT(h["costs"]["host_cmd"]["units"].get<uint64_t>(), 0u);
  // host.ftl.writeback_sector_instructions: each sector the write-back programs, and no other.
  const uint64_t wb = h["costs"]["writeback_sector"]["units"].get<uint64_t>();
  EXPECT_GT(wb, 0u);
  EXPECT_LE(wb, h["device_commands"]["lbas_written"].get<uint64_t>());
  EXPECT_GT(category_s(r, "writeback"), double(wb) * 3000 / (2000e6 * 2));
}

// pblk's one ring under one spin lock: the more writers wait for it, the more CPU time each
// insert costs in spinning (measured in two runs: 2 and 16 writers on their own CPUs).
TEST(HostFtl, MoreWaitingWritersCostMoreSpinPerInsert) {
  auto spin_per_sector = [](uint32_t writers, const std::string& name) {
    const std::string n = std::to_string(writers);
    auto sets = host_ftl_sets({"host.cpus=" + n, "host.queues=" + n});
    const auto r = test::run_child(sets, "fio:rw=randwrite,bs=4k,iodepth=4,numjobs=" + n + ",io=" + std::to_string(32000 / writers),
                                   name);
    return category_s(r, "lock_spin") / double(r["ftl"]["host_write_sectors"].get<uint64_t>());
  };
  const double two = spin_per_sector(2, "spin-2"), sixteen = spin_per_sector(16, "spin-16");
  EXPECT_GT(sixteen, 3 * two) << "2 writers: " << two * 1e9 << " ns of spin per sector; 16: " << sixteen * 1e9;
}

TEST(HostFtl, ConfigurationsAHostFtlCannotRunNameTheirKeys) {
  auto error_of = [](std::vector<std::string> sets) {
    try {
      PlatformParams::from(Config::load("", sets));
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  // On a device set conventional (left at its default, a host FTL makes it Open-Channel).
  EXPECT_NE(error_of({"host.ftl=pblk", "device.interface=conventional"}).find("device.interface"), std::string::npos);
  EXPECT_NE(error_of(host_ftl_sets({"host.ftl=mtftl", "host.cpus=16", "host.queues=16"})).find("host.ftl"), std::string::npos);
  EXPECT_NE(error_of(host_ftl_sets({"host.cpus=4", "host.ftl.writeback_cpu=4"})).find("host.ftl.writeback_cpu"),
            std::string::npos);
  EXPECT_NE(error_of(host_ftl_sets({"host.cpus=4", "host.cpu.sockets=3"})).find("host.cpu.sockets"), std::string::npos);
  EXPECT_NE(error_of(host_ftl_sets({"ftl.write_buffer=slots"})).find("ftl.write_buffer"), std::string::npos);
  EXPECT_NE(error_of(host_ftl_sets({"ftl.mapping=dftl"})).find("ftl.mapping"), std::string::npos);
  EXPECT_NE(error_of(host_ftl_sets({"precondition.fill=0.5", "precondition.mode=\"functional\""})).find("precondition.mode"),
            std::string::npos);
  EXPECT_EQ(error_of(host_ftl_sets({"precondition.fill=0.5"})), "(accepted)") << "timed preconditioning, implied";
  EXPECT_EQ(error_of(host_ftl_sets({"precondition.fill=0.5", "precondition.mode=\"timed\""})), "(accepted)");
  EXPECT_NE(error_of(host_ftl_sets({"host.ftl.memory_mib=16"})).find("host.ftl.memory_mib"), std::string::npos);
  EXPECT_NE(error_of(host_ftl_sets({"host.cpus=2", "host.thread_cpus=0,5"})).find("host.thread_cpus"), std::string::npos);
  EXPECT_NE(error_of(host_ftl_sets({"host.stack=\"poll\""})).find("host.stack"), std::string::npos);
  EXPECT_EQ(error_of(host_ftl_sets({})), "(accepted)");
}

// A drive-state snapshot of an Open-Channel device (and its host FTL) is refused by name before
// preconditioning: a save used to spend the preconditioning, write a 1 GiB image and leave a
// cache entry every later run halted on.
TEST(HostFtl, ADriveStateSnapshotIsRefusedBeforePreconditioning) {
  for (const char* which : {"save", "load"}) {
    RunOptions opt;
    (std::string(which) == "save" ? opt.save_state_dir : opt.load_state_dir) = "unused";
    std::string error = "(accepted)";
    try {
      opt.test_aids = true;   // test aids allowed (small_platform() checks the firmware's internals)
      SsdPlatform p(Config::load("", host_ftl_sets({"precondition.fill=0.5", "precondition.mode=\"timed\""})), opt);
    } catch (const ConfigError& e) {
      error = e.what();
    }
    EXPECT_NE(error.find("device.interface"), std::string::npos) << which << ": " << error;
    EXPECT_NE(error.find("--state-cache"), std::string::npos) << which << ": " << error;
  }
}

// MT-FTL as its paper ran it: user threads with I/O and CPU phases (host.cpu.types) on the same
// CPUs as the FTL's rings, write-back threads and the host I/O stack; the OS balancer and greedy
// migration move the threads, and a moved thread's writes go to its new CPU's ring.  Every read
// and flush is still checked.
TEST(HostFtl, MtftlWithThreadPhasesAndMigration) {
  auto run = test::run_platform(
      host_ftl_sets({"host.ftl=mtftl", "host.cpus=4", "host.queues=4", "ftl.write_buffer_mib=16",
                     "host.cpu.types=90:10,70:30,40:60,0:100", "host.cpu.cycle_ms=4", "host.migration=greedy",
                     "host.migration_rounds=100", "sim.max_sim_ms=40"}),
      "fio:rw=randrw,bsrange=4k-40k,iodepth=1,numjobs=8,io=100000,fsync=64", false);
  const auto& r = run.results;
  test::expect_clean(r);
  EXPECT_GT(r["integrity"]["reads_checked"].get<uint64_t>(), 100u);
  const auto& h = r["host_cpu"];
  EXPECT_GT(h["migrations"].get<uint64_t>(), 0u);
  EXPECT_GT(h["cpu_work_s"].get<double>(), 0.0);
  EXPECT_GT(h["migration_select_s"].get<double>(), 0.0);
  // The FTL's work and the threads' phases are on the same CPUs: both are in its CPU time.
  const auto& by = r["host_ftl"]["cpus"]["cpu_time_s_by_category"];
  EXPECT_GT(by["user"].get<double>(), 0.0);
  EXPECT_GT(by["insert"].get<double>(), 0.0);
  EXPECT_GT(by["migration"].get<double>(), 0.0);
  // Each ring took the writes of the threads on its CPU: together, every sector written.
  uint64_t rings = 0;
  for (const auto& v : r["host_ftl"]["ring"]) rings += v["inserted_sectors"].get<uint64_t>();
  EXPECT_EQ(r["host_ftl"]["ring"].size(), 4u);
  EXPECT_EQ(rings, r["ftl"]["host_write_sectors"].get<uint64_t>());
}

// pblk copies a user's data into the ring after reserving its entries, outside the ring's lock;
// here too (HostFtlContext: copies and device-command building run after the lock is
// released, sharing the CPU).  With copies made slow (4 KiB: 41 us) two writers on their own
// CPUs barely spin for each other: the lock is held for the bookkeeping only.
TEST(HostFtl, CopiesRunOutsideTheLock) {
  auto run = test::run_platform(host_ftl_sets({"host.cpus=2", "host.queues=2", "host.ftl.copy_gbps=0.1"}),
                                "fio:rw=randwrite,bs=4k,iodepth=1,numjobs=2,io=2000", false);
  const auto& r = run.results;
  test::expect_clean(r);
  const double copies = double(r["ops"]["write"]["bytes"].get<uint64_t>()) / 0.1e9;
  const double spin = r["host_ftl"]["lock"]["spin_s"].get<double>();
  EXPECT_GT(copies, 0.1);
  EXPECT_LT(spin, 0.05 * copies) << "spin " << spin << " s against " << copies << " s of copies";
  EXPECT_GT(r["host_ftl"]["lock"]["contended"].get<uint64_t>(), 0u) << "the two writers did meet at the lock";
}

// A section's device commands go out after its CPU time, which other work on its CPU stretches;
// they must still reach the device in the order the FTL built them, or a chunk is written off
// its write pointer (the device answers 0x2F2 and the run stops).  The MT-FTL paper's setting
// (platforms/mtftl-femu.toml: four rings whose write-back threads share their CPUs with the
// paper's computing threads, over 16 parallel units of an 8 GiB device).
TEST(HostFtl, DeviceCommandsLeaveInTheOrderTheFtlBuiltThem) {
  const auto r = test::run_child({"host.cpu.types=90:10,80:20,70:30,60:40,50:50,40:60,20:80,0:100",
                                  "host.cpu.cycle_ms=300", "sim.max_sim_ms=80", "sim.progress=false"},
                                 "fio:rw=randwrite,bsrange=4k-40k,iodepth=1,numjobs=16,io=100000000", "mtftl-order",
                                 std::string(SSDVP_SOURCE_DIR) + "/platforms/mtftl-femu.toml");
  test::expect_clean(r);
  EXPECT_EQ(r["ftl"]["physical_sectors"].get<uint64_t>(), 2097152u) << "the paper's 8 GiB";
  EXPECT_GT(r["host_ftl"]["device_commands"]["writes"].get<uint64_t>(), 1000u);
}

// A writer whose ring is full: pblk's pblk_write_to_cache retries and yields (io_schedule()),
// so the writer stays runnable, takes its share of its CPU and counts as load for the OS
// balancer (host.ftl.full_ring = yield); a writer that sleeps takes no CPU and is not counted.
// CPU 0 holds a writer (always in its I/O phase, its ring kept full by a slow device) and a
// computing thread, CPU 1 nothing: the balancer moves the computing thread to CPU 1 only if it
// counts the waiting writer (two runnable threads against none).
static void writer_on_a_full_ring(const char* full_ring, bool yields) {
  auto run = test::run_platform(
      host_ftl_sets({"host.cpus=2", "host.queues=2", std::string("host.ftl.full_ring=\"") + full_ring + "\"",
                     "host.cpu.types=100:0,0:100", "host.thread_cpus=0,0", "host.cpu.cycle_ms=1000",
                     "sim.max_sim_ms=30"}),
      "fio:rw=write,bs=64k,iodepth=1,numjobs=2,io=100000000", false);
  const auto& r = run.results;
  test::expect_clean(r);
  EXPECT_GT(r["host_ftl"]["blocked_submissions"].get<uint64_t>(), 10u) << "the ring was full";
  const double retry = category_s(r, "retry"), insert = category_s(r, "insert");
  const uint64_t moves = r["host_cpu"]["balancer_moves"].get<uint64_t>();
  if (yields) {
    EXPECT_GT(retry, 0.2 * r["sim_time_s"].get<double>() / 2) << "the waiting writer had a share of CPU 0";
    EXPECT_GT(moves, 0u) << "the waiting writer counted as load on CPU 0";
    EXPECT_EQ(r["host_cpu"]["threads"][1]["cpu_at_end"].get<uint32_t>(), 1u);
  } else {
    EXPECT_LT(retry, insert) << "a sleeping writer's retries are its only CPU time waiting";
    EXPECT_EQ(moves, 0u) << "one runnable thread on CPU 0: nothing to balance";
  }
}

TEST(HostFtl, WriterOnAFullRingRetriesAndYieldsAsPblks) { writer_on_a_full_ring("yield", true); }
TEST(HostFtl, WriterOnAFullRingSleepsWhenToldTo) { writer_on_a_full_ring("sleep", false); }

// A host FTL is preconditioned by the host (precondition.mode = timed): the fill and the
// overwrites go through the ring, the write-back thread, GC and the device in simulated time,
// then the measured run reads the whole device back, every sector checked against the fill's
// tags; the host FTL's figures count the measured run only.
TEST(HostFtl, TimedPreconditioningWritesTheFillThroughTheHostFtl) {
  auto run = test::run_platform(host_ftl_sets({"host.cpus=4", "host.queues=4", "precondition.mode=\"timed\"",
                                               "precondition.fill=1", "precondition.overwrite=1"}),
                                "fio:rw=randread,bs=4k,iodepth=4,numjobs=4,io=20000", true);
  const auto& r = run.results;
  test::expect_clean(r);
  EXPECT_EQ(r["integrity"]["reads_checked"].get<uint64_t>(), 80000u);
  EXPECT_GT(r["sim_time_total_s"].get<double>(), r["sim_time_s"].get<double>() + 1.0)
      << "the fill and overwrites of 128 MiB took simulated time before the measured run";
  EXPECT_GT(r["wear"]["block_erases_mean"].get<double>(), 1.0) << "the overwrites made GC erase every block";
  const auto& h = r["host_ftl"];
  // (GC goes on with the debt the overwrites left, as after the functional path: its copies
  // are the only device writes of the measured run.)
  EXPECT_EQ(h["ring"][0]["inserted_sectors"].get<uint64_t>(), 0u) << "the measured run only read";
  EXPECT_GT(h["device_commands"]["reads"].get<uint64_t>(), 70000u) << "the fill is on the device, not in the ring";
  EXPECT_LT(category_s(r, "writeback"), 1e-4) << "only the idle timer and the final flush";
  EXPECT_EQ(r["ftl"]["host_write_sectors"].get<uint64_t>(), 0u);
}
