// `ssdvp bench`: see bench_speed.h.
#include "platforms/bench_speed.h"

#include <systemc>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <stdexcept>

#include <fmt/format.h>

#include "platforms/bench_kernel.h"
#include "platforms/run_report.h"
#include "platforms/shell_quote.h"

namespace ssdvp {

namespace {

// Runs one benchmark case in a child process and returns its results.
nlohmann::json bench_case(const std::string& self, const std::string& platform, const std::string& workload,
                          const std::vector<std::string>& sets, const std::string& dir) {
  std::string cmd = shell_quote(self) + " run --quiet --out " + shell_quote(dir) + " --workload " + shell_quote(workload);
  if (!platform.empty()) cmd += " --platform " + shell_quote(platform);
  for (const auto& s : sets) cmd += " --set " + shell_quote(s);
  if (std::system(cmd.c_str()) != 0) throw std::runtime_error("benchmark case failed: " + cmd);
  return read_results(dir);
}

}  // namespace

nlohmann::json best_case(const std::string& self, unsigned repeat, const std::string& platform,
                         const std::string& workload, const std::vector<std::string>& sets) {
  nlohmann::json best;
  for (unsigned i = 0; i < std::max(repeat, 1u); i++) {
    nlohmann::json r = bench_case(self, platform, workload, sets, "ssdvp-bench");
    if (best.is_null() || r["host_requests_per_wall_s"].get<double>() > best["host_requests_per_wall_s"].get<double>())
      best = std::move(r);
  }
  return best;
}

int bench_speed(const std::string& self, const std::string& platform, const std::vector<std::string>& sets,
                uint64_t requests, unsigned repeat, bool iss, bool rtl, const std::vector<unsigned>& cores_list) {
  // Each case runs in its own process (SystemC elaborates once).  "filled": the drive is
  // written once (no GC yet); "aged": it is also overwritten at random first, so the run
  // is at the GC steady state and each host write costs WAF flash programs plus GC reads.
  struct Case { const char* name; std::string spec; std::vector<std::string> sets; };
  const std::string n = std::to_string(requests);
  const std::vector<std::string> filled = {"precondition.fill=1", "precondition.overwrite=0"};
  const std::vector<std::string> aged = {"precondition.fill=1", "precondition.overwrite=1"};
  const Case cases[] = {{"randread  QD32 filled", "fio:rw=randread,bs=4k,iodepth=32,io=" + n, filled},
                        {"randwrite QD32 filled", "fio:rw=randwrite,bs=4k,iodepth=32,io=" + n, filled},
                        {"randwrite QD32 aged", "fio:rw=randwrite,bs=4k,iodepth=32,io=" + n, aged}};
  std::cout << fmt::format("{:<22} {:>9} {:>8} {:>12} {:>14} {:>6} {:>10}\n", "case (4 KiB)", "requests", "wall s",
                           "requests/s", "flash ops/s", "WAF", "sim IOPS");
  std::vector<double> native_rate, deltas_per_request;
  for (const auto& c : cases) {
    std::vector<std::string> bsets = sets;
    bsets.insert(bsets.end(), c.sets.begin(), c.sets.end());
    bsets.push_back("sim.progress=false");
    auto r = best_case(self, repeat, platform, c.spec, bsets);
    native_rate.push_back(r["host_requests_per_wall_s"].get<double>());
    deltas_per_request.push_back(r["sim_kernel"]["delta_cycles_per_request"].get<double>());
    const double wall = r["run_wall_time_s"].get<double>();
    const auto& f = r["ftl"];
    const double flash_ops = double(f["flash_reads"].get<uint64_t>() + f["erases"].get<uint64_t>()) +
                             double(f["flash_program_sectors"].get<uint64_t>()) / double(r["program_unit_sectors"].get<uint64_t>());
    std::cout << fmt::format("{:<22} {:>9} {:>8.2f} {:>12.0f} {:>14.0f} {:>6.2f} {:>10.0f}\n", c.name,
                             r["host_requests"].get<uint64_t>(), wall, r["host_requests_per_wall_s"].get<double>(),
                             wall > 0 ? flash_ops / wall : 0.0, r["waf"].get<double>(), r["total"]["iops"].get<double>());
  }
  {
    // The SystemC kernel's own ceiling: its rate of evaluation rounds with nothing to
    // evaluate, divided by the rounds a request takes (platforms/bench_kernel.h).
    const KernelRates k = measure_kernel_rates(5'000'000);
    std::cout << fmt::format("\nSystemC kernel alone ({}): {:.2f} M delta cycles/s (one timed method), {:.2f} M "
                             "(32 pending), {:.2f} M thread wake-ups/s\n",
                             sc_core::sc_release(), k.method_per_s / 1e6, k.method32_per_s / 1e6,
                             k.thread_per_s / 1e6);
    std::cout << fmt::format("{:<22} {:>14} {:>16} {:>14}\n", "case (4 KiB)", "deltas/request", "kernel ceiling/s",
                             "of ceiling");
    for (size_t i = 0; i < deltas_per_request.size(); i++) {
      const double ceiling = deltas_per_request[i] > 0 ? k.method32_per_s / deltas_per_request[i] : 0.0;
      std::cout << fmt::format("{:<22} {:>14.2f} {:>16.0f} {:>13.1f}%\n", cases[i].name, deltas_per_request[i],
                               ceiling, ceiling > 0 ? 100.0 * native_rate[i] / ceiling : 0.0);
    }
  }
  if (iss) {
    for (size_t i = 0; i < 2; i++) {
      std::vector<std::string> bsets = sets;
      bsets.insert(bsets.end(), cases[i].sets.begin(), cases[i].sets.end());
      bsets.push_back("sim.progress=false");
      bsets.push_back("firmware.mode=iss");
      auto r = best_case(self, repeat, platform, cases[i].spec, bsets);
      if (i == 0)
        std::cout << fmt::format("\nfirmware = iss ({}, {} quanta)\n{:<22} {:>12} {:>10} {:>14} {:>14} {:>10}\n",
                                 r["firmware"]["iss_engine"].get<std::string>(),
                                 r["firmware"]["exact_quanta"].get<bool>() ? "exact" : "block-granular", "",
                                 "requests/s", "vs native", "instr/request", "MIPS (busy)", "sim IOPS");
      const auto& core = r["firmware"]["cores"][0];
      const double rate = r["host_requests_per_wall_s"].get<double>();
      std::cout << fmt::format("{:<22} {:>12.0f} {:>9.1f}% {:>14.0f} {:>14.1f} {:>10.0f}\n", cases[i].name, rate,
                               100.0 * rate / native_rate[i],
                               double(core["instructions"].get<uint64_t>()) / double(r["host_requests"].get<uint64_t>()),
                               core["mips_while_executing"].get<double>(), r["total"]["iops"].get<double>());
    }
  }
  if (!cores_list.empty()) {
    // The same two filled cases from 4 host threads (QD8 each) on 4 queues, so that every
    // core has queues to serve: host requests/s by firmware core count, natively and on the
    // ISS (docs/multicore.md).
    std::cout << fmt::format("\n{:<22} {:>5} {:>12} {:>12} {:>10} {:>14} {:>12} {:>12}\n", "firmware cores", "N",
                             "native req/s", "iss req/s", "iss/native", "instr/request", "native IOPS", "iss IOPS");
    for (size_t i = 0; i < 2; i++) {
      const std::string spec = std::string(i == 0 ? "fio:rw=randread" : "fio:rw=randwrite") +
                               ",bs=4k,iodepth=8,numjobs=4,io=" + std::to_string(std::max<uint64_t>(requests / 4, 100));
      for (unsigned cores : cores_list) {
        std::vector<std::string> bsets = sets;
        bsets.insert(bsets.end(), cases[i].sets.begin(), cases[i].sets.end());
        for (std::string k : {"sim.progress=false", "host.queues=4"}) bsets.push_back(k);
        bsets.push_back("firmware.cores=" + std::to_string(cores));
        auto nat = best_case(self, repeat, platform, spec, bsets);
        nlohmann::json iss;
        if (iss) {
          bsets.push_back("firmware.mode=iss");
          iss = best_case(self, repeat, platform, spec, bsets);
        }
        uint64_t instr = 0;
        if (iss)
          for (const auto& c : iss["firmware"]["cores"]) instr += c["instructions"].get<uint64_t>();
        const double nr = nat["host_requests_per_wall_s"].get<double>();
        const double ir = iss ? iss["host_requests_per_wall_s"].get<double>() : 0.0;
        std::cout << fmt::format("{:<22} {:>5} {:>12.0f} {:>12.0f} {:>9.1f}% {:>14.0f} {:>12.0f} {:>12.0f}\n",
                                 i == 0 ? "randread 4x QD8" : "randwrite 4x QD8", cores, nr, ir,
                                 nr > 0 ? 100.0 * ir / nr : 0.0,
                                 iss ? double(instr) / double(iss["host_requests"].get<uint64_t>()) : 0.0,
                                 nat["total"]["iops"].get<double>(),
                                 iss ? iss["total"]["iops"].get<double>() : 0.0);
      }
    }
  }
  if (rtl) {
    std::cout << fmt::format("\n{:<22} {:>12} {:>10} {:>10} {:>16} {:>16}\n", "channel = rtl", "requests/s",
                             "wall x", "sim equal", "bus cycles/s", "clocked/s");
    auto rtl_row = [&](const char* name, const nlohmann::json& tlm, const nlohmann::json& rtl) {
      const double wall_rtl = rtl["run_wall_time_s"].get<double>(), wall_tlm = tlm["run_wall_time_s"].get<double>();
      const double total = rtl["sim_time_total_s"].get<double>();   // cycles_clocked covers the whole run
      std::cout << fmt::format("{:<22} {:>12.0f} {:>10.2f} {:>10} {:>16.3e} {:>16.3e}\n", name,
                               rtl["host_requests_per_wall_s"].get<double>(), wall_tlm > 0 ? wall_rtl / wall_tlm : 0.0,
                               rtl["sim_time_s"] == tlm["sim_time_s"] && rtl["ops"] == tlm["ops"] ? "yes" : "NO",
                               rtl["rtl"]["bus_cycles_per_wall_s"].get<double>(),
                               double(rtl["rtl"]["cycles_clocked"].get<uint64_t>()) / (wall_rtl > 0 ? wall_rtl : 1.0) *
                                   (total > 0 ? rtl["sim_time_s"].get<double>() / total : 1.0));
    };
    for (size_t i = 0; i < 2; i++) {
      std::vector<std::string> bsets = sets;
      bsets.insert(bsets.end(), cases[i].sets.begin(), cases[i].sets.end());
      bsets.push_back("sim.progress=false");
      auto tlm = best_case(self, repeat, platform, cases[i].spec, bsets);
      bsets.push_back("channel.model=rtl");
      rtl_row(cases[i].name, tlm, best_case(self, repeat, platform, cases[i].spec, bsets));
    }
    // One channel kept busy: eight dies, 128 KiB sequential reads.
    std::vector<std::string> bsets = sets;
    for (const char* s : {"nand.channels=1", "nand.ways=8", "nand.blocks_per_plane=256", "precondition.fill=1",
                          "precondition.overwrite=0", "sim.progress=false"})
      bsets.push_back(s);
    const std::string spec = "fio:rw=read,bs=128k,iodepth=32,io=" + std::to_string(std::max<uint64_t>(requests / 32, 100));
    auto tlm = best_case(self, repeat, platform, spec, bsets);
    bsets.push_back("channel.model=rtl");
    auto rtl = best_case(self, repeat, platform, spec, bsets);
    rtl_row("1 busy channel seqread", tlm, rtl);
    std::cout << fmt::format("  (busy channel: bus {:.1f}% busy)\n", 100 * rtl["utilisation"]["channels"][0].get<double>());
  }
  return 0;
}

}  // namespace ssdvp
