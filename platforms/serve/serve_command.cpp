#include "platforms/serve/serve_command.h"

#include <signal.h>
#include <systemc>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <thread>

#include <fmt/format.h>

#include "models/common/config.h"
#include "models/common/fatal.h"
#include "platforms/cut_point.h"
#include "platforms/drive_snapshot.h"
#include "platforms/run_report.h"
#include "platforms/serve/served_drive.h"
#include "platforms/signal_watch.h"
#include "models/host/host_driver.h"
#include "platforms/ssd_platform.h"

namespace ssdvp {

int serve_command(const ServeArgs& a) {
  sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
  std::vector<std::string> sets = a.sets;
  sets.push_back("sim.host_data=true");   // the clients' own bytes
  Config cfg = Config::load(a.platform, sets);
  if (cfg.get_string("device.interface") == "zns")   // NBD has no zones: a client would write anywhere
    throw ConfigError(cfg.origin("device.interface") +
                      ": device.interface = \"zns\": NBD has no zone commands, so a client cannot write a zoned drive "
                      "at its write pointers; serve a conventional drive (docs/zns.md)");
  if (a.pace != "virtual" && a.pace != "realtime")
    throw ConfigError("--pace " + a.pace + ": virtual (time advances only by the drive's work) or realtime (simulated time "
                      "follows the clock)");
  if (a.quantum_us <= 0 || a.quantum_us > 1e6)
    throw ConfigError(fmt::format("--quantum-us {}: between 0 and 1,000,000 microseconds", a.quantum_us));
  if (a.threads < 0 || a.threads > 4096) throw ConfigError(fmt::format("--threads {}: 1 to 4096 (0: host.queues)", a.threads));
  if (a.tcp_port > 65535) throw ConfigError(fmt::format("--tcp {}: not a TCP port", a.tcp_port));
  const std::string dir = a.out_dir.empty() ? cfg.get_string("sim.output_dir") : a.out_dir;
  prepare_output_dir(a.out_dir.empty() ? cfg.origin("sim.output_dir") : "--out", dir);
  // Where the clients come, checked before anything is built (a file at --socket is never removed).
  if (a.tcp_port >= 0) nbd::check_tcp_port(uint16_t(a.tcp_port));
  else nbd::check_unix_socket_path(a.socket.empty() ? (std::filesystem::absolute(dir) / "nbd.sock").string() : a.socket);

  ServeOptions so;
  so.pace = a.pace == "realtime" ? Pace::Realtime : Pace::Virtual;
  so.streams = a.threads > 0 ? unsigned(a.threads) : unsigned(cfg.get_int("host.queues"));
  so.quantum = sc_core::sc_time(a.quantum_us, sc_core::SC_US);
  so.persist = a.persist;
  if (a.linger_s < 0 || a.linger_s > 3600) throw ConfigError(fmt::format("--linger {}: 0 to 3,600 seconds", a.linger_s));
  so.linger_s = a.linger_s;
  so.export_name = a.export_name;
  so.cut_in_write = a.power_cut == "signal-in-write";
  so.description = "ssdvp " + cfg.get_string("platform.name");
  if (a.tcp_port >= 0) so.tcp_port = uint16_t(a.tcp_port);
  else so.unix_socket = a.socket.empty() ? (std::filesystem::absolute(dir) / "nbd.sock").string() : a.socket;
  so.on_listening = [](const std::string& uri) {
    // One line on stdout, flushed, for whoever waits for the export (scripts, tests).
    std::cout << "ssdvp serve: listening on " << uri << std::endl;
  };

  ServedDrive drive(so);
  // SIGINT and SIGTERM end the run (the drive finishes what is in flight, flushes, run.json is
  // written); SIGUSR1 cuts the power (--power-cut signal).
  SignalWatch signals({SIGINT, SIGTERM, SIGUSR1}, [&drive](int sig) {
    if (sig == SIGUSR1) drive.request_cut();
    else drive.end(sig == SIGINT ? "SIGINT" : "SIGTERM");
  });
  RunOptions opt;
  opt.precondition = a.precondition;
  // Power loss on a live export: the cut drops every connection (requests in flight are never
  // answered) and saves the NAND image; --power-on recovers the drive from one and serves it,
  // every first read of a sector checked against what was durable at the cut.
  if (!a.power_cut.empty() && !a.power_on.empty())
    throw ConfigError("--power-cut and --power-on together: serve a recovered drive first, cut it in a second run");
  const bool cut_on_signal = a.power_cut == "signal" || a.power_cut == "signal-in-write";
  if (cut_on_signal) {   // SIGUSR1 cuts the power then (signal-in-write: with a write in flight)
    opt.power_cut_dir = (std::filesystem::path(dir) / "power-cut").string();
    std::filesystem::remove_all(opt.power_cut_dir);
  } else if (!a.power_cut.empty()) {
    const CutPoint cut = parse_cut_point("--power-cut", a.power_cut);
    if (cut.random)
      throw ConfigError("--power-cut " + a.power_cut + ": a live export has no run without the cut to draw from: give a "
                        "time (e.g. 50ms) or ops:N");
    cut.apply(opt, 0);
    opt.power_cut_dir = (std::filesystem::path(dir) / "power-cut").string();
    std::filesystem::remove_all(opt.power_cut_dir);
  }
  if (!a.power_on.empty()) {
    if (!std::filesystem::exists(a.power_on + "/nand.img") || !std::filesystem::exists(a.power_on + "/durable.bin"))
      throw ConfigError("--power-on " + a.power_on + ": no nand.img and durable.bin there (a cut's OUT/power-cut)");
    opt.power_on_dir = a.power_on;
    opt.precondition = false;
  }
  if (!a.state_cache.empty()) {
    // The preconditioned drive, as `ssdvp run --state-cache` keeps it (preconditioning moves no
    // bytes, so the snapshot of a served drive holds none of the clients' data).
    if (!a.power_on.empty() || !a.power_cut.empty())
      throw ConfigError("--state-cache with --power-cut or --power-on: a drive powers on over a NAND image or resumes a "
                        "snapshot, not both");
    use_state_cache(a.state_cache, cfg, opt);
  }
  opt.progress = RunOptions::Progress::Never;
  opt.test_aids = a.test_aids;
  // The clients' bytes: sparse files (a large drive costs the disk what is written), or with
  // --data memory the process's memory (no file system in the simulation's path: writes never
  // wait for the host's journal or writeback; a drive costs RAM what is written).
  opt.payload_dir = a.data == "memory" ? "" : a.data.empty() ? (std::filesystem::path(dir) / "data").string() : a.data;
  opt.make_workload = [&drive](uint64_t capacity) { return drive.make_workload(capacity); };
  SsdPlatform platform(cfg, opt);
  if (cut_on_signal) drive.on_cut = [&platform] { platform.cut_power_now("SIGUSR1"); };
  if (so.cut_in_write) {
    drive.writes_in_flight = [&platform] { return platform.driver().writes_in_flight(); };
    platform.driver().on_write_issued = [&drive](sc_core::sc_time at) { drive.write_issued(at); };
  }
  nlohmann::json r = platform.run();
  drive.drop_connections();   // (after a cut: what the drive had not answered never will be)
  if (!a.power_cut.empty() && r.contains("power_cut"))
    drive.end("the power cut");
  // A run that ended normally powers the drive off into OUT/power-off, so that it can be
  // exported again (--power-on OUT/power-off) with what the clients left on it.
  std::string saved;
  if (!r.contains("power_cut") && r["completed"].get<bool>() && !a.no_save) {
    r["power_off"] = platform.save_power_off((std::filesystem::path(dir) / "power-off").string());
    saved = (std::filesystem::path(dir) / "power-off").string();
  }
  r["serve"] = drive.report();
  const std::string path = write_outputs(dir, r, platform.driver());
  if (!a.quiet) {
    print_summary(std::cout, r);
    const auto& s = r["serve"];
    std::cout << fmt::format("  served: {} connection(s), {} requests ({} refused, {} protocol errors), {} pacing; ended: {}\n",
                             s["connections"].get<uint64_t>(), s["requests"].get<uint64_t>(), s["refused"].get<uint64_t>(),
                             s["protocol_errors"].get<uint64_t>(), s["pace"].get<std::string>(),
                             s["end"].get<std::string>());
    std::cout << "  results: " << path << "\n";
  }
  if (!saved.empty() && !a.quiet)
    std::cout << "ssdvp serve: the drive is powered off in " << saved << "; export it again with: ssdvp serve --power-on "
              << saved << " (and the same --platform/--set)\n";
  if (!opt.power_cut_dir.empty()) {
    if (std::filesystem::exists(opt.power_cut_dir + "/nand.img"))
      std::cout << "ssdvp serve: the power was cut; serve the recovered drive with: ssdvp serve --power-on "
                << opt.power_cut_dir << " (and the same --platform/--set)\n";
    else
      std::cerr << "ssdvp serve: the run ended before the power cut (" << a.power_cut << ")\n";
  }
  if (r["serve"].contains("lag")) {
    const auto& lag = r["serve"]["lag"];
    if (lag["requests_late"].get<uint64_t>() > 0 || lag["replies_late"].get<uint64_t>() > 0)
      std::cerr << fmt::format("ssdvp serve: warning: the simulation fell behind the clock: {} request(s) entered more "
                               "than one quantum late (max {:.1f} us, mean {:.1f} us), {} completion(s) were reached "
                               "more than one quantum late (max {:.1f} us, mean {:.1f} us): the latency the clients saw "
                               "includes it (run.json serve.lag)\n",
                               lag["requests_late"].get<uint64_t>(), lag["max_us"].get<double>(),
                               lag["mean_us"].get<double>(), lag["replies_late"].get<uint64_t>(),
                               lag["reply_max_us"].get<double>(), lag["reply_mean_us"].get<double>());
  }
  for (const auto& e : r["errors"]) std::cerr << "ssdvp: " << e.get<std::string>() << "\n";
  return exit_status(r);
}

}  // namespace ssdvp
