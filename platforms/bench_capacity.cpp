// `ssdvp bench --capacity`: see bench_capacity.h.
#include "platforms/bench_capacity.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "models/common/config.h"
#include "models/common/params.h"
#include "platforms/shell_quote.h"

namespace ssdvp {
namespace {

std::string last_line(const std::string& path) {
  std::ifstream in(path);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  return last;
}

}  // namespace

int bench_capacity(const std::string& self, const std::string& platform, const std::vector<std::string>& sets,
                   const std::vector<unsigned>& gib, unsigned long requests) {
  const PlatformParams params = PlatformParams::from(Config::load(platform, sets));
  const NandParams& base = params.nand;
  const double bytes_per_block_per_plane = double(base.physical_bytes()) / double(base.blocks_per_plane);
  std::cout << fmt::format("drive grown by nand.blocks_per_plane ({:.0f} MiB each), dram.size_mib = 3072, device.nor_kib as needed; "
                           "preconditioned: fill 1, overwrite 1\n",
                           bytes_per_block_per_plane / double(1 << 20));
  std::cout << fmt::format("{:>8} {:>8} {:>11} {:>9} {:>12} {:>10} {:>13} {:>12} {:>8} {:>13} {:>9} {:>10}\n", "GiB",
                           "blocks", "precond s", "s/GiB", "peak RSS MiB", "MiB/GiB", "firmware MiB", "reads/s", "save s",
                           "snapshot MiB", "load s", "load run s");
  const std::string dir = "ssdvp-bench-capacity";
  const std::string state = "ssdvp-bench-capacity.state";
  int failed = 0;
  for (unsigned g : gib) {
    const auto blocks = (unsigned long)((double(g) * double(1ull << 30)) / bytes_per_block_per_plane + 0.5);
    // The SPI NOR sized for the bad-block table and erase-count log of that many superblocks.
    const uint64_t superblocks = uint64_t(base.dies()) * blocks;
    const uint32_t nor_kib = superblocks < 0xFFFFFu ? std::max(params.device.nor_bytes / 1024, nor_kib_needed(uint32_t(superblocks)))
                                                    : params.device.nor_bytes / 1024;   // refused anyway: too many
    std::string cmd = shell_quote(self) + " run --quiet --out " + shell_quote(dir) + " --workload " +
                      shell_quote("fio:rw=randread,bs=4k,iodepth=32,io=" + std::to_string(requests));
    if (!platform.empty()) cmd += " --platform " + shell_quote(platform);
    for (const auto& s : sets) cmd += " --set " + shell_quote(s);
    for (const std::string& s : {"nand.blocks_per_plane=" + std::to_string(blocks), std::string("dram.size_mib=3072"),
                                "device.nor_kib=" + std::to_string(nor_kib),
                                std::string("precondition.fill=1"), std::string("precondition.overwrite=1"),
                                std::string("sim.progress=false")})
      cmd += " --set " + shell_quote(s);
    const std::string err = dir + ".stderr";
    std::filesystem::remove_all(dir);
    std::filesystem::remove_all(state);
    // The preconditioned drive is saved, then a second process loads it and runs the same reads.
    if (std::system((cmd + " --save-state " + shell_quote(state) + " 2> " + shell_quote(err)).c_str()) != 0) {
      std::cout << fmt::format("{:>8} {:>8}  refused or failed: {}\n", g, blocks, last_line(err));
      failed++;
      continue;
    }
    const nlohmann::json r = nlohmann::json::parse(std::ifstream(dir + "/run.json"));
    std::filesystem::remove_all(dir);
    const auto t0 = std::chrono::steady_clock::now();
    const int loaded = std::system((cmd + " --load-state " + shell_quote(state) + " 2> " + shell_quote(err)).c_str());
    const double load_run_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::filesystem::remove_all(state);
    if (loaded != 0) {
      std::cout << fmt::format("{:>8} {:>8}  the saved drive did not load: {}\n", g, blocks, last_line(err));
      failed++;
      continue;
    }
    const nlohmann::json l = nlohmann::json::parse(std::ifstream(dir + "/run.json"));
    const double pre = r["precondition_wall_time_s"].get<double>();
    const double rss = r["host_peak_rss_mib"].get<double>();
    std::cout << fmt::format("{:>8} {:>8} {:>11.1f} {:>9.3f} {:>12.0f} {:>10.2f} {:>13.0f} {:>12.0f} {:>8.2f} {:>13.0f} "
                             "{:>9.2f} {:>10.2f}\n",
                             g, blocks, pre, pre / g, rss, rss / g,
                             double(r["ftl"]["firmware_dram_bytes"].get<uint64_t>()) / double(1 << 20),
                             r["host_requests_per_wall_s"].get<double>(), r["drive_state"]["wall_s"].get<double>(),
                             r["drive_state"]["disk_mib"].get<double>(), l["drive_state"]["wall_s"].get<double>(), load_run_s);
  }
  return failed ? 1 : 0;
}

}  // namespace ssdvp
