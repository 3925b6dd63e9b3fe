// Firmware in the loop regression: the same deterministic queue-depth-1 workload run with the
// host-compiled firmware and with the RV32 firmware on the ISS must end with the same
// logical-to-physical map (dumped by `ssdvp run --dump-map`), the same acknowledged writes and
// every read verified.  The two runs are separate processes (one platform each).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <vector>

namespace {

struct Result {
  std::vector<uint32_t> map;
  nlohmann::json run;
};

Result run_mode(const std::string& mode, const std::string& workload, const std::string& extra = "") {
  const std::string dir = std::string(::testing::TempDir()) + "fil-" + mode +
                          (extra.empty() ? "" : extra.find("exact") != std::string::npos ? "-exact" : "-cores");
  const std::string map = dir + "/map.bin";
  const std::string cmd = std::string(SSDVP_BINARY) + " run --quiet --no-precondition --out " + dir +
                          " --dump-map " + map + " --workload '" + workload + "'" +
                          " --set firmware.mode=" + mode +
                          " --set nand.channels=4 --set nand.ways=2 --set nand.blocks_per_plane=64"
                          " --set nand.mlc.pages_per_block=64 --set dram.size_mib=256 --set sim.progress=false" +
                          extra + " > " + dir + ".log 2>&1";
  std::system(("mkdir -p " + dir).c_str());
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  Result r;
  std::ifstream in(map, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), {});
  r.map.resize(bytes.size() / 4);
  std::memcpy(r.map.data(), bytes.data(), r.map.size() * 4);
  std::ifstream js(dir + "/run.json");
  r.run = nlohmann::json::parse(js);
  return r;
}

void compare_with_native(const std::string& iss_extra, bool both = false) {
  const std::string workload = "fio:rw=randrw,rwmixread=50,bs=8k,iodepth=1,io=4000,seed=5";
  const Result native = run_mode("native", workload, both ? iss_extra : "");
  const Result iss = run_mode("iss", workload, iss_extra);
  ASSERT_FALSE(native.map.empty());
  EXPECT_EQ(native.map.size(), iss.map.size());
  size_t mapped = 0, differ = 0;
  for (size_t i = 0; i < std::min(native.map.size(), iss.map.size()); i++) {
    mapped += native.map[i] != 0xFFFFFFFFu;
    differ += native.map[i] != iss.map[i];
  }
  EXPECT_GT(mapped, 3000u);
  EXPECT_EQ(differ, 0u) << "of " << native.map.size() << " entries";
  for (const auto* r : {&native.run, &iss.run}) {
    EXPECT_TRUE((*r)["completed"].get<bool>());
    EXPECT_EQ((*r)["integrity"]["mismatches"].get<uint64_t>(), 0u);
  }
  EXPECT_EQ(native.run["ftl"]["host_write_sectors"], iss.run["ftl"]["host_write_sectors"]);
  EXPECT_EQ(native.run["integrity"]["sectors_checked"], iss.run["integrity"]["sectors_checked"]);
  EXPECT_EQ(iss.run["firmware"]["mode"], "iss");
  EXPECT_EQ(iss.run["firmware"]["exact_quanta"].get<bool>(), iss_extra.find("exact") != std::string::npos);
  EXPECT_EQ(iss.run["firmware"]["cores"].size(), native.run["firmware"]["cores"].size());
  EXPECT_EQ(iss.run["firmware"]["mmio_accesses_unlocated"].get<uint64_t>(), 0u);
}

}  // namespace

// Per-block quanta (the default) and exact quanta end with the same map as native.
TEST(NativeVsIss, SameFinalMapAndDataAtQueueDepthOne) { compare_with_native(""); }
TEST(NativeVsIss, SameFinalMapAndDataAtQueueDepthOneWithExactQuanta) {
  compare_with_native(" --set firmware.exact_quanta=true");
}
// Two firmware cores (docs/multicore.md) on both kinds: the same map.
TEST(NativeVsIss, SameFinalMapAndDataWithTwoCores) { compare_with_native(" --set firmware.cores=2", true); }
