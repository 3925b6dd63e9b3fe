// One trace in two forms gives one run: the VMware vscsi records as the binary file and as
// libCacheSim's CSV conversion of it (`version,time,op,size,lbn`, time in whole seconds, the
// binary record's microseconds / 10^6) replay to the same run.json, figure for figure, but for
// the workload's name and what depends on the host machine.  (A user replayed the public
// 113,872-request trace both ways: 7,200 s simulated from the binary file, 55.7 s from the CSV,
// when the CSV's seconds were read as microseconds.)
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <random>
#include <string>

#include "model/platform_test_support.h"

using namespace ssdvp;

namespace {

struct Record {
  uint16_t cmd;   // SCSI opcode: 0x28 READ(10), 0x2a WRITE(10)
  uint32_t len;   // bytes
  uint64_t lbn;   // 512-byte blocks
  uint64_t ts_us;
};

// 3,000 requests over 30 s (whole seconds, as libCacheSim's CSV keeps them), 4-16 KiB, reads
// and writes over the first 256 MiB.
std::vector<Record> records() {
  std::mt19937_64 rng(11);
  std::vector<Record> out;
  for (uint64_t i = 0; i < 3000; i++) {
    const uint32_t len = 4096u * uint32_t(1 + rng() % 4);
    out.push_back({uint16_t(rng() % 3 ? 0x28 : 0x2a), len, (rng() % 65536) * 8, (i / 100) * 1000000});
  }
  return out;
}

// Version 1 records: sn u32, len u32, nSG u32, cmd u16, ver u16 (version << 8), lbn u64, ts u64.
std::string write_binary(const std::string& name) {
  std::string bytes;
  uint32_t sn = 0;
  for (const Record& r : records()) {
    char rec[32] = {};
    const uint32_t nsg = 1;
    const uint16_t ver = 1u << 8;
    std::memcpy(rec + 0, &sn, 4);
    std::memcpy(rec + 4, &r.len, 4);
    std::memcpy(rec + 8, &nsg, 4);
    std::memcpy(rec + 12, &r.cmd, 2);
    std::memcpy(rec + 14, &ver, 2);
    std::memcpy(rec + 16, &r.lbn, 8);
    std::memcpy(rec + 24, &r.ts_us, 8);
    bytes.append(rec, sizeof rec);
    sn++;
  }
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string write_csv(const std::string& name) {
  std::string text = "version,time,op,size,lbn\n";
  char hex[8];
  for (const Record& r : records()) {
    std::snprintf(hex, sizeof hex, "%x", r.cmd);
    text += "1," + std::to_string(r.ts_us / 1000000) + "," + hex + "," + std::to_string(r.len) + "," + std::to_string(r.lbn) + "\n";
  }
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

// What a run says of its workload by name (the trace's path): the only figures that differ.
void drop_names(nlohmann::json& j) {
  test::drop_machine_figures(j);
  j.erase("workload");
  j["config"].erase("workload");
}

}  // namespace

TEST(TraceForms, VscsiBinaryAndLibCacheSimCsvGiveTheSameRun) {
  const std::string bin = write_binary("forms.vscsi"), csv = write_csv("forms.csv");
  auto from_bin = test::run_platform(test::small_platform(), "trace:" + bin).results;
  auto from_csv = test::run_child(test::small_platform(), "trace:" + csv, "forms-csv");
  test::expect_clean(from_bin);
  EXPECT_EQ(from_bin["ops"]["read"]["requests"].get<uint64_t>() + from_bin["ops"]["write"]["requests"].get<uint64_t>(), 3000u);
  EXPECT_GT(from_bin["sim_time_s"].get<double>(), 29.0);   // the last arrival is at 29 s
  drop_names(from_bin);
  drop_names(from_csv);
  EXPECT_EQ(from_bin, from_csv) << "differs: " << nlohmann::json::diff(from_bin, from_csv).dump();
}
