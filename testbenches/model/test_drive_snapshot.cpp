// Drive-state snapshots (platforms/drive_snapshot.h): a run from a snapshot gives the same
// results as the run that saved it (every figure of run.json but the host's wall-clock ones),
// natively and on the ISS with two cores; --state-cache saves once and then loads; a snapshot
// of another configuration, of another format, or a damaged one is refused by name.  Each
// case runs ssdvp in child processes (one platform per process).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "model/platform_test_support.h"

namespace {

const std::vector<std::string> kSmall = {"nand.channels=4", "nand.ways=2", "nand.planes=2", "nand.blocks_per_plane=64",
                                         "nand.mlc.pages_per_block=64", "dram.size_mib=256", "sim.progress=false"};

struct Child {
  int status;
  std::string log;
  nlohmann::json run;
};

Child run_ssdvp(const std::string& name, const std::string& flags, std::vector<std::string> sets, const std::string& workload) {
  const std::string dir = std::string(::testing::TempDir()) + name;
  std::string cmd = std::string(SSDVP_BINARY) + " run --quiet --out '" + dir + "' --workload '" + workload + "' " + flags;
  for (const auto& s : kSmall) sets.insert(sets.begin(), s);
  for (const auto& s : sets) cmd += " --set '" + s + "'";
  cmd += " > '" + dir + ".log' 2>&1";
  Child c;
  c.status = std::system(cmd.c_str());
  std::ifstream log(dir + ".log");
  c.log.assign(std::istreambuf_iterator<char>(log), {});
  std::ifstream in(dir + "/run.json");
  if (in) c.run = nlohmann::json::parse(in);
  return c;
}

void round_trip(const std::string& name, const std::vector<std::string>& sets, const std::string& workload) {
  const std::string snap = std::string(::testing::TempDir()) + name + "-state";
  Child saved = run_ssdvp(name + "-save", "--save-state '" + snap + "'", sets, workload);
  ASSERT_EQ(saved.status, 0) << saved.log;
  ASSERT_TRUE(std::filesystem::exists(snap + "/snapshot.json"));
  Child loaded = run_ssdvp(name + "-load", "--load-state '" + snap + "'", sets, workload);
  ASSERT_EQ(loaded.status, 0) << loaded.log;
  EXPECT_EQ(loaded.run["drive_state"]["loaded"], snap);
  EXPECT_EQ(loaded.run["precondition_wall_time_s"].get<double>() < saved.run["precondition_wall_time_s"].get<double>(),
            true);
  ssdvp::test::expect_clean(loaded.run);
  EXPECT_GT(loaded.run["integrity"]["reads_checked"].get<uint64_t>(), 1000u);
  ssdvp::test::drop_machine_figures(saved.run);
  ssdvp::test::drop_machine_figures(loaded.run);
  EXPECT_EQ(saved.run, loaded.run) << nlohmann::json::diff(saved.run, loaded.run).dump(1);
}

}  // namespace

TEST(DriveSnapshot, ARunFromTheSnapshotGivesTheSameResultsNative) {
  round_trip("snap-native", {"precondition.overwrite=0.5"}, "fio:rw=randrw,bs=4k,iodepth=8,io=20000");
}

TEST(DriveSnapshot, ARunFromTheSnapshotGivesTheSameResultsDemandMap) {
  round_trip("snap-dftl", {"ftl.mapping=writeopt", "ftl.cmt_ratio=0.1", "precondition.overwrite=0.5"},
             "fio:rw=randrw,bs=4k,iodepth=8,io=20000");
}

TEST(DriveSnapshot, ARunFromTheSnapshotGivesTheSameResultsOnTwoIssCores) {
  round_trip("snap-iss", {"firmware.mode=iss", "firmware.cores=2", "host.queues=4", "precondition.overwrite=0.3"},
             "fio:rw=randrw,bs=4k,iodepth=8,io=3000,numjobs=2");
}

TEST(DriveSnapshot, TheStateCacheSavesOnceThenLoads) {
  const std::string cache = std::string(::testing::TempDir()) + "state-cache";
  std::filesystem::remove_all(cache);
  Child first = run_ssdvp("cache-1", "--state-cache '" + cache + "'", {}, "fio:rw=randread,bs=4k,io=2000");
  ASSERT_EQ(first.status, 0) << first.log;
  ASSERT_TRUE(first.run["drive_state"].contains("saved"));
  Child second = run_ssdvp("cache-2", "--state-cache '" + cache + "'", {}, "fio:rw=randwrite,bs=4k,io=2000");
  ASSERT_EQ(second.status, 0) << second.log;
  EXPECT_EQ(second.run["drive_state"]["loaded"], first.run["drive_state"]["saved"]);
  // Another drive (its over-provisioning) gets a snapshot of its own.
  Child other = run_ssdvp("cache-3", "--state-cache '" + cache + "'", {"ftl.op=0.2"}, "fio:rw=randread,bs=4k,io=2000");
  ASSERT_EQ(other.status, 0) << other.log;
  EXPECT_TRUE(other.run["drive_state"].contains("saved"));
  EXPECT_NE(other.run["drive_state"]["key"], first.run["drive_state"]["key"]);
}

TEST(DriveSnapshot, ASnapshotOfAnotherDriveOrFormatOrDamagedIsRefused) {
  const std::string snap = std::string(::testing::TempDir()) + "refuse-state";
  Child saved = run_ssdvp("refuse-save", "--save-state '" + snap + "'", {}, "fio:rw=randread,bs=4k,io=100");
  ASSERT_EQ(saved.status, 0) << saved.log;
  Child other = run_ssdvp("refuse-op", "--load-state '" + snap + "'", {"ftl.op=0.2"}, "fio:rw=randread,bs=4k,io=100");
  EXPECT_NE(other.status, 0);
  EXPECT_NE(other.log.find("does not fit this run: its configuration differs: ftl.op = 0.2"), std::string::npos)
      << other.log;
  Child unpre = run_ssdvp("refuse-pre", "--no-precondition --load-state '" + snap + "'", {}, "fio:rw=randread,bs=4k,io=100");
  EXPECT_NE(unpre.status, 0);
  EXPECT_NE(unpre.log.find("saved after preconditioning"), std::string::npos) << unpre.log;
  std::filesystem::resize_file(snap + "/dram.img", 4096);
  Child cut = run_ssdvp("refuse-dram", "--load-state '" + snap + "'", {}, "fio:rw=randread,bs=4k,io=100");
  EXPECT_NE(cut.status, 0);
  EXPECT_NE(cut.log.find("dram.img: the DRAM image holds 0 MiB, this platform's DRAM is 256 MiB"), std::string::npos)
      << cut.log;
  {
    std::ifstream in(snap + "/snapshot.json");
    nlohmann::json j = nlohmann::json::parse(in);
    j["format"] = 99;
    std::ofstream(snap + "/snapshot.json") << j.dump();
  }
  Child fmt = run_ssdvp("refuse-format", "--load-state '" + snap + "'", {}, "fio:rw=randread,bs=4k,io=100");
  EXPECT_NE(fmt.status, 0);
  EXPECT_NE(fmt.log.find("snapshot format 99, this build reads format 1"), std::string::npos) << fmt.log;
  Child none = run_ssdvp("refuse-none", "--load-state '" + snap + "-missing'", {}, "fio:rw=randread,bs=4k,io=100");
  EXPECT_NE(none.status, 0);
  EXPECT_NE(none.log.find("no drive-state snapshot here"), std::string::npos) << none.log;
}
