// ssdvp: the command line.  `ssdvp` alone runs the default platform on its built-in
// workload; `ssdvp run` takes a platform file, a workload and --set overrides; `ssdvp bench`
// measures simulation speed (each case in its own process); `ssdvp config-doc` prints the
// configuration reference.
#include <systemc>

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "models/common/config.h"
#include "models/common/fatal.h"
#include "platforms/bench_capacity.h"
#include "platforms/bench_speed.h"
#include "platforms/bench_kernel.h"
#include "platforms/bench_serve.h"
#include "platforms/build_identity.h"
#include "platforms/cut_point.h"
#include "platforms/drive_snapshot.h"
#include "platforms/run_interrupt.h"
#include "platforms/run_report.h"
#include "platforms/serve/serve_command.h"
#include "platforms/shell_quote.h"
#include "models/host/host_driver.h"
#include "platforms/platform_catalog.h"
#include "traces/nearest_name.h"
#include "platforms/ssd_platform.h"

namespace {

using ssdvp::CutPoint;
using ssdvp::parse_cut_point;

std::string self_path() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (n <= 0) return "ssdvp";
  buf[n] = 0;
  return buf;
}

// Progress lines for every run this command makes: ssdvp run -q (none), --progress (even when
// stderr is not a terminal), else only on a terminal.
ssdvp::RunOptions::Progress g_progress = ssdvp::RunOptions::Progress::Auto;
// ssdvp run --test-aids: every run this command makes may use test aids (RunOptions::test_aids).
bool g_test_aids = false;

int run_command(const std::string& platform, const std::string& workload, const std::vector<std::string>& sets,
                const std::string& out_dir, bool quiet, bool precondition, const std::string& dump_map,
                uint16_t gdb_port, uint32_t gdb_core, ssdvp::RunOptions opt = {}, const std::string& state_cache = "") {
  sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
  ssdvp::Config cfg = ssdvp::Config::load(platform, sets);
  opt.workload_spec = workload;
  opt.precondition = precondition;
  opt.progress = g_progress;
  opt.test_aids = g_test_aids;
  opt.gdb_port = gdb_port;
  opt.gdb_core = gdb_core;
  if (!state_cache.empty()) ssdvp::use_state_cache(state_cache, cfg, opt);
  const std::string dir = out_dir.empty() ? cfg.get_string("sim.output_dir") : out_dir;
  ssdvp::prepare_output_dir(out_dir.empty() ? cfg.origin("sim.output_dir") : "--out", dir);
  ssdvp::RunInterrupt interrupt;   // Ctrl-C: stop, write what the run has so far, exit 130
  opt.interrupted = [&interrupt] { return interrupt.interrupted(); };
  ssdvp::SsdPlatform platform_model(cfg, opt);
  interrupt.set_measuring([&platform_model] { return platform_model.driver().measuring(); });
  nlohmann::json r = platform_model.run();
  const std::string path = ssdvp::write_outputs(dir, r, platform_model.driver());
  if (!dump_map.empty()) {
    // The firmware's final logical-to-physical map, read from its DRAM: uint32 per sector,
    // little-endian, 0xFFFFFFFF = unmapped.
    const std::vector<uint32_t> map = platform_model.firmware_map();
    std::ofstream out(dump_map, std::ios::binary);
    out.write(reinterpret_cast<const char*>(map.data()), std::streamsize(map.size() * sizeof(uint32_t)));
    if (!out) throw std::runtime_error("cannot write the map to " + dump_map);
  }
  if (!quiet && !r.contains("input_errors")) {   // (bad input: no table of a run that did not run)
    ssdvp::print_summary(std::cout, r);
    std::cout << "  results: " << path << "\n";
  }
  // A run that failed says why on stderr, whatever --quiet says.
  for (const auto& e : r["errors"]) std::cerr << "ssdvp: " << e.get<std::string>() << "\n";
  if (r.contains("interrupted")) {
    std::cerr << "ssdvp: interrupted (SIGINT): the run's figures so far are in " << path << "\n";
    return 130;
  }
  return ssdvp::exit_status(r);
}

// `ssdvp report`: the report script of the source tree this binary was built from.
int report_command(const std::string& dir, const std::string& out) {
  const std::string script = std::string(SSDVP_SOURCE_DIR) + "/scripts/ssdvp_report.py";
  const std::string venv = std::string(SSDVP_SOURCE_DIR) + "/build-deps/pyenv/bin/python";
  if (!std::filesystem::exists(script))
    throw std::runtime_error("ssdvp report: " + script + " is missing (this binary was built from another tree)");
  const std::string python = std::filesystem::exists(venv) ? venv : "python3";
  std::vector<std::string> args = {python, script, dir};
  if (!out.empty()) args.insert(args.end(), {"-o", out});
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::cout.flush();
  execvp(argv[0], argv.data());
  throw std::runtime_error("ssdvp report: cannot run " + python + ": " + std::strerror(errno));
}

// --timeline-window T0:T1 (milliseconds of the measured run; either side may be empty).
void parse_timeline_window(const std::string& text, ssdvp::TimelineOptions& t) {
  const auto bad = [&](const std::string& why) {
    return ssdvp::ConfigError("--timeline-window " + text + ": " + why +
                              " (expected T0:T1 in milliseconds of simulated time from the start of the measured run, "
                              "e.g. 5:20, 5: or :20)");
  };
  const size_t colon = text.find(':');
  if (colon == std::string::npos || text.find(':', colon + 1) != std::string::npos) throw bad("one ':' between T0 and T1");
  const auto number = [&](const std::string& s, double none) {
    if (s.empty()) return none;
    size_t used = 0;
    double v = 0;
    try {
      v = std::stod(s, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != s.size() || !std::isfinite(v) || v < 0) throw bad("'" + s + "' is not a time >= 0");
    return v;
  };
  t.window_begin_ms = number(text.substr(0, colon), 0);
  t.window_end_ms = number(text.substr(colon + 1), -1);
  if (t.window_end_ms >= 0 && t.window_end_ms <= t.window_begin_ms) throw bad("T1 must be after T0");
}

// After CLI11's "The following argument(s) was not expected: A B": "did you mean" for each one
// near an option of the command it was given to, or a command.
void suggest_near_names(CLI::App& app, const std::string& message) {
  CLI::App* command = &app;
  for (CLI::App* sub : app.get_subcommands()) command = sub;
  std::vector<std::string> options, commands;
  for (const CLI::Option* o : command->get_options())
    for (const std::string& name : o->get_lnames()) options.push_back("--" + name);
  if (command == &app)
    for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) commands.push_back(sub->get_name());
  std::istringstream words(message.substr(message.find(": ") + 2));
  for (std::string word; words >> word;) {
    const std::string flag = word.substr(0, word.find('='));
    const std::string near = ssdvp::workload::did_you_mean(flag, flag.rfind("--", 0) == 0 ? options : commands);
    if (!near.empty()) std::cerr << "ssdvp: " << flag << ": " << near.substr(2) << "\n";
  }
}

// Runs `body`; an exception becomes its message on stderr and exit status 2 (bad input).
template <class F>
int reporting_errors(F body) {
  try {
    return body();
  } catch (const ssdvp::ConfigError& e) {
    std::cerr << "ssdvp: configuration error: " << e.what() << "\n";
  } catch (const std::exception& e) {
    std::cerr << "ssdvp: " << e.what() << "\n";
  }
  return 2;
}

// Runs `body` in a child process (SystemC elaborates once per process); returns its exit status.
template <class F>
int in_child(F body) {
  std::cout.flush();
  std::cerr.flush();
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    const int rc = reporting_errors(body);
    std::cout.flush();
    std::cerr.flush();
    _exit(rc);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// After a power-on: the host reads the whole namespace back (each sector checked).  With
// --after-recovery the drive then runs that workload and is read back again, which checks what
// recovery restored for writing (open superblocks, free lists, GC state) as well as the data.
const std::string read_back_workload = "fio:rw=read,bs=128k,iodepth=16,size=100%";


// A run with a power cut: the workload runs until the cut (its results in OUT/before-cut/,
// the NAND image and the host's durability record in OUT/power-cut/), then the platform
// powers on again over that image, the firmware recovers, and the host reads every sector back
// checking it against the record (results in OUT/run.json).  With `again`, power goes a second
// time during that recovery (OUT/during-recovery/, OUT/recovery-cut/) and the check is made
// after a third power-on.  A random cut point first runs without the cut to count the
// operations to draw from (OUT/uncut/: the workload, or the recovery).
std::string power_on_workload(const std::string& after_recovery) {
  return after_recovery.empty() ? read_back_workload : read_back_workload + ";" + after_recovery + ";" + read_back_workload;
}

int power_cut_command(const std::string& platform, const std::string& workload, const std::vector<std::string>& sets,
                      const std::string& out_dir, bool quiet, bool precondition, const CutPoint& cut,
                      const std::optional<CutPoint>& again, const std::string& after_recovery) {
  const ssdvp::Config cfg = ssdvp::Config::load(platform, sets);
  const std::string dir = out_dir.empty() ? cfg.get_string("sim.output_dir") : out_dir;
  ssdvp::prepare_output_dir(out_dir.empty() ? cfg.origin("sim.output_dir") : "--out", dir);
  const std::string& read_back = read_back_workload;
  const auto announce = [&](const std::string& what, const ssdvp::RunOptions& o, uint64_t total) {
    if (!quiet) std::cout << "ssdvp: " << what << " at flash operation " << o.power_cut_ops << " of " << total << "\n";
  };

  ssdvp::RunOptions first;
  uint64_t total = 0;
  if (cut.random) {
    int rc = in_child([&] { return run_command(platform, workload, sets, dir + "/uncut", true, precondition, "", 0, 0); });
    if (rc != 0) return rc;
    total = ssdvp::read_results(dir + "/uncut")["flash_operations"].get<uint64_t>();
  }
  cut.apply(first, total);
  if (cut.random) announce("power cut (random:" + std::to_string(cut.seed) + ")", first, total);
  first.power_cut_dir = dir + "/power-cut";
  std::filesystem::remove_all(first.power_cut_dir);
  int rc = in_child([&] {
    return run_command(platform, workload, sets, dir + "/before-cut", true, precondition, "", 0, 0, first);
  });
  if (rc != 0) return rc;
  if (!std::filesystem::exists(first.power_cut_dir + "/nand.img")) {
    std::cerr << "ssdvp: the workload ended before the power cut (" << dir << "/before-cut/run.json)\n";
    return 3;
  }
  std::string image = first.power_cut_dir;
  if (again) {
    ssdvp::RunOptions second;
    second.power_on_dir = image;
    uint64_t reads = 0;
    if (again->random) {
      rc = in_child([&] { return run_command(platform, read_back, sets, dir + "/uncut-recovery", true, false, "", 0, 0, second); });
      if (rc != 0) return rc;
      reads = ssdvp::read_results(dir + "/uncut-recovery")["recovery"]["flash_operations"].get<uint64_t>();
    }
    again->apply(second, reads);
    if (again->random) announce("second power cut (random:" + std::to_string(again->seed) + ")", second, reads);
    second.cut_from_power_on = true;
    second.power_cut_dir = dir + "/recovery-cut";
    std::filesystem::remove_all(second.power_cut_dir);
    rc = in_child([&] { return run_command(platform, read_back, sets, dir + "/during-recovery", true, false, "", 0, 0, second); });
    if (rc != 0) return rc;
    const bool during = std::filesystem::exists(second.power_cut_dir + "/nand.img") &&
                        ssdvp::read_results(dir + "/during-recovery")["power_cut"].value("during_recovery", false);
    if (!during) {
      std::cerr << "ssdvp: the recovery was over before the second power cut (" << dir << "/during-recovery/run.json)\n";
      return 3;
    }
    image = second.power_cut_dir;
  }
  ssdvp::RunOptions last;
  last.power_on_dir = image;
  rc = in_child([&] { return run_command(platform, power_on_workload(after_recovery), sets, dir, quiet, false, "", 0, 0, last); });
  // The final run.json tells the whole story: what the cut(s) interrupted, then the recovery.
  if (std::filesystem::exists(dir + "/run.json")) {
    nlohmann::json r = ssdvp::read_results(dir);
    r["power_cut"] = ssdvp::read_results(dir + "/before-cut")["power_cut"];
    if (again) r["recovery_cut"] = ssdvp::read_results(dir + "/during-recovery")["power_cut"];
    std::ofstream(dir + "/run.json") << r.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  }
  return rc;
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  CLI::App app{"ssdvp: SystemC/TLM virtual platform of a NAND-flash SSD"};
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", std::function<std::string()>([] { return ssdvp::version_text(); }), "print ssdvp's version, build and libraries, and exit");
  std::string platform, workload, out_dir;
  std::vector<std::string> sets;
  bool quiet = false, no_precondition = false;
  std::string dump_map;
  uint16_t gdb_port = 0;
  uint32_t gdb_core = 0;
  auto* run = app.add_subcommand("run", "run one simulation (the default when no subcommand is given)");
  run->add_option("--platform,-p", platform, "platform: a TOML file or a shipped platform's name (ssdvp platforms lists them; default: the built-in default platform)");
  run->add_option("--workload,-w", workload, "workload spec or trace file (default: the configuration key workload.spec, on the default platform a fio randrw job)");
  run->add_option("--set,-s", sets, "override a configuration key: key=value")->take_all();
  run->add_option("--out,-o", out_dir, "output folder (default: sim.output_dir)");
  run->add_flag("--quiet,-q", quiet, "nothing but errors: no summary on stdout, no progress lines on stderr");
  bool progress = false;
  run->add_flag("--progress", progress, "progress lines on stderr even when it is not a terminal (a line each)");
  run->add_flag("--no-precondition", no_precondition, "start from an empty drive");
  run->add_flag("--test-aids", g_test_aids,
                "allow test aids (a deliberately broken drive, checks of the firmware's internals: docs/config.md, "
                "Test aids); each one on is named on stderr and in run.json");
  run->add_option("--dump-map", dump_map, "write the firmware's final logical-to-physical map (uint32 per sector)");
  run->add_option("--gdb", gdb_port, "firmware.mode = iss: wait for gdb on 127.0.0.1:PORT before the core starts");
  run->add_option("--gdb-core", gdb_core, "which core --gdb debugs (default 0)");
  std::string power_cut, recovery_cut;
  run->add_option("--power-cut", power_cut,
                  "cut the power at AT (a simulated time into the workload: 5ms, 250us; ops:N, the N-th flash "
                  "operation; random:SEED), power on again, recover and read every sector back (docs/reliability.md)");
  std::string power_on;
  run->add_option("--power-on", power_on,
                  "power on over the NAND image of an earlier cut (its folder: OUT/power-cut), recover and read every "
                  "sector back against its durability record (the platform and --set as for that run)");
  run->add_option("--recovery-cut", recovery_cut,
                  "with --power-cut: cut the power again during the recovery, AT after power-on (a time, ops:N or "
                  "random:SEED), then power on a third time and check");
  std::string after_recovery;
  run->add_option("--after-recovery", after_recovery,
                  "with --power-cut or --power-on: after the read-back, run this workload (closed loop, iodepth 16) "
                  "and read every sector back again: what this power cycle wrote is checked as in any run, the rest "
                  "must still read as the first read-back found it");

  std::string save_state, load_state, state_cache;
  run->add_option("--save-state", save_state,
                  "save the drive's state to DIR once preconditioning is done (docs/performance.md: drive-state snapshots)");
  run->add_option("--load-state", load_state,
                  "build the drive from the snapshot in DIR (saved by --save-state with this build and configuration): "
                  "no preconditioning");
  run->add_option("--state-cache", state_cache,
                  "load the drive's state from DIR/KEY if an earlier run saved it there, else save it there (KEY: the "
                  "build and every configuration key that shapes the drive)");

  ssdvp::TimelineOptions timeline;
  std::string timeline_window;
  run->add_option("--timeline", timeline.path,
                  "write a timeline of the measured run to FILE: Chrome trace-event JSON, open it in ui.perfetto.dev "
                  "(dies, channels, firmware cores, host queues, counters; docs/architecture.md)");
  run->add_option("--timeline-window", timeline_window,
                  "with --timeline: keep only T0:T1, milliseconds of simulated time from the start of the measured run "
                  "(either side may be left out: 5:, :20)");
  run->add_option("--timeline-max-events", timeline.max_events,
                  "with --timeline: keep at most N events (default 1000000); the file says where the cap cut it")
      ->check(CLI::Range(uint64_t(1), uint64_t(100'000'000)));
  run->add_option("--timeline-sample-us", timeline.sample_us,
                  "with --timeline: sample the counters every US microseconds of simulated time (default 50)")
      ->check(CLI::Range(0.01, 1e6));

  auto* bench = app.add_subcommand("bench", "simulation speed: 4 KiB random read and random write at QD32");
  uint64_t bench_requests = 300000;
  bool bench_iss = false;
  bench->add_option("--platform,-p", platform, "platform: a TOML file or a shipped platform's name (ssdvp platforms)");
  bench->add_option("--requests,-n", bench_requests, "requests per case");
  bench->add_flag("--iss", bench_iss, "also run the filled cases with firmware.mode = iss and report the ratio");
  std::vector<unsigned> bench_cores;
  bench->add_option("--cores", bench_cores,
                    "firmware core counts to compare (e.g. --cores 1 2 4): the filled cases as 4 threads x QD8 on "
                    "4 queues, natively and (with --iss) on the ISS")
      ->check(CLI::Range(1, 8));
  bool bench_rtl = false;
  bench->add_flag("--rtl", bench_rtl,
                  "also run the filled cases with channel.model = rtl (wall-time ratio to tlm) and one busy channel "
                  "(bus cycles per wall second)");
  bench->add_option("--set,-s", sets, "override a configuration key: key=value")->take_all();
  unsigned bench_repeat = 3;
  bench->add_option("--repeat,-r", bench_repeat, "runs per case; the fastest counts (default 3)");
  std::vector<unsigned> bench_capacity_gib;
  bench->add_option("--capacity", bench_capacity_gib,
                    "instead of the speed cases: drives of these sizes in GiB (e.g. --capacity 16 256 1024), each "
                    "preconditioned to the GC steady state; preconditioning wall time and peak RSS per GiB "
                    "(platforms/bench_capacity.h; -n sets the random reads after, default 300000)")
      ->check(CLI::Range(1, 65536));
  bool bench_serve = false;
  double bench_serve_seconds = 3;
  bench->add_flag("--serve", bench_serve,
                  "instead of the speed cases: the highest 4 KiB random read and write rates `ssdvp serve --pace "
                  "realtime` sustains without lag, with fio (nbd engine) as the client; with --iss also on the ISS "
                  "(platforms/bench_serve.h)");
  bench->add_option("--serve-seconds", bench_serve_seconds, "with --serve: fio's run per rate tried (default 3)");
  std::vector<std::string> bench_serve_jobs;
  bench->add_option("--serve-jobs", bench_serve_jobs,
                    "with --serve: the rows to measure, of read, write, files (random writes with the bytes in files), "
                    "iss-read, iss-write (default read write files, and the iss rows with --iss)")
      ->delimiter(',');

  auto* report = app.add_subcommand("report", "write one self-contained HTML page about a run folder (or a sweep's "
                                              "store): summary, latency CDFs, time series, utilisation heat map, "
                                              "FTL counters (scripts/ssdvp_report.py)");
  std::string report_dir, report_out;
  report->add_option("RUN_DIR", report_dir, "the run's output folder (run.json) or a sweep folder (results.csv)")
      ->required();
  report->add_option("--out,-o", report_out, "the HTML file (default RUN_DIR/report.html)");

  ssdvp::ServeArgs serve_args;
  auto* serve = app.add_subcommand("serve", "export the drive over NBD to real clients (fio, qemu, nbdsh ...): "
                                            "docs/serve.md");
  serve->add_option("--platform,-p", serve_args.platform, "platform: a TOML file or a shipped platform's name (ssdvp platforms lists them; default: the built-in default platform)");
  serve->add_option("--set,-s", serve_args.sets, "override a configuration key: key=value")->take_all();
  serve->add_option("--out,-o", serve_args.out_dir, "output folder (default: sim.output_dir)");
  serve->add_flag("--quiet,-q", serve_args.quiet, "no summary on stdout");
  serve->add_flag("--no-precondition", [&](int64_t) { serve_args.precondition = false; }, "start from an empty drive");
  serve->add_option("--socket", serve_args.socket, "the Unix socket to listen on (default OUT/nbd.sock)");
  serve->add_option("--tcp", serve_args.tcp_port, "listen on TCP 127.0.0.1:PORT instead of a Unix socket");
  serve->add_option("--pace", serve_args.pace,
                    "virtual (time advances only by the drive's work; default) or realtime (simulated time follows the "
                    "clock; lag is measured)");
  serve->add_option("--threads", serve_args.threads,
                    "host threads the connections map onto, connection k on thread k mod N (default: host.queues)");
  serve->add_option("--quantum-us", serve_args.quantum_us, "realtime: simulated microseconds between clock checks (default 10)");
  serve->add_flag("--persist", serve_args.persist, "keep serving after the last client disconnects (until SIGINT/SIGTERM)");
  serve->add_option("--linger", serve_args.linger_s,
                    "end once no client has been connected for this many wall seconds after the last left (default 2: "
                    "fio and qemu-img connect more than once)");
  serve->add_option("--power-cut", serve_args.power_cut,
                    "cut the power at AT (as run: 5ms of simulated time from the first request on, or ops:N; or signal: when "
                    "SIGUSR1 comes; or signal-in-write: at the first moment after SIGUSR1 that a write is in flight): every "
                    "connection drops, the NAND image goes to OUT/power-cut");
  serve->add_option("--power-on", serve_args.power_on,
                    "recover the drive from a cut's folder (OUT/power-cut) or a power-off (OUT/power-off) and serve it; every "
                    "first read of a sector is checked against what was durable");
  serve->add_flag("--no-save", serve_args.no_save,
                  "no power-off image at the end (else the drive goes to OUT/power-off, to be served again with "
                  "--power-on)");
  serve->add_option("--data", serve_args.data,
                    "where the clients' bytes live: a folder for the dies' sparse files (default OUT/data) or memory "
                    "(faster writes in real time; RAM for what is written)");
  serve->add_option("--state-cache", serve_args.state_cache,
                    "as run --state-cache: serve the preconditioned drive saved in DIR/KEY, or precondition and save it "
                    "there");
  serve->add_option("--export", serve_args.export_name, "the export's name (default ssdvp; \"\" is served too)");
  serve->add_flag("--test-aids", serve_args.test_aids, "as run --test-aids: allow test aids (docs/config.md, Test aids)");

  auto* doc = app.add_subcommand("config-doc", "print the configuration reference (docs/config.md)");
  auto* platforms = app.add_subcommand("platforms", "list the shipped platforms (platforms/*.toml), a name and what it is a line");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version end here with 0; an unknown option, a missing or malformed argument
    // is bad input: exit 2 as every other (README: Exit status), not CLI11's own codes 104-114.
    const int rc = app.exit(e);
    if (dynamic_cast<const CLI::ExtrasError*>(&e)) suggest_near_names(app, e.what());
    return rc == 0 ? 0 : 2;
  }
  if (quiet) g_progress = ssdvp::RunOptions::Progress::Never;
  else if (progress) g_progress = ssdvp::RunOptions::Progress::Always;

  return reporting_errors([&]() -> int {
    if (doc->parsed()) {
      std::cout << ssdvp::config_reference_markdown();
      return 0;
    }
    const std::string shipped = std::string(SSDVP_SOURCE_DIR) + "/platforms";
    if (platforms->parsed()) {
      std::cout << ssdvp::platform_listing(shipped);
      return 0;
    }
    platform = ssdvp::resolve_platform(platform, shipped);
    serve_args.platform = ssdvp::resolve_platform(serve_args.platform, shipped);
    if (report->parsed()) return report_command(report_dir, report_out);
    if (serve->parsed()) return ssdvp::serve_command(serve_args);
    if (bench->parsed() && bench_serve)
      return ssdvp::bench_serve(self_path(), platform, sets, bench_iss, bench_serve_seconds, bench_serve_jobs);
    if (bench->parsed() && !bench_capacity_gib.empty())
      return ssdvp::bench_capacity(self_path(), platform, sets, bench_capacity_gib, bench_requests);
    if (bench->parsed())
      return ssdvp::bench_speed(self_path(), platform, sets, bench_requests, bench_repeat, bench_iss, bench_rtl, bench_cores);
    if (!recovery_cut.empty() && power_cut.empty())
      throw ssdvp::ConfigError("--recovery-cut needs --power-cut (the first cut makes the recovery to cut)");
    if (!power_on.empty()) {
      if (!power_cut.empty() || !workload.empty())
        throw ssdvp::ConfigError("--power-on reads the drive back: no --power-cut or --workload with it");
      if (!std::filesystem::exists(power_on + "/nand.img") || !std::filesystem::exists(power_on + "/durable.bin"))
        throw ssdvp::ConfigError("--power-on " + power_on + ": no nand.img and durable.bin there (a cut's OUT/power-cut)");
      ssdvp::RunOptions on;
      on.power_on_dir = power_on;
      return run_command(platform, power_on_workload(after_recovery), sets, out_dir, quiet, false, "", 0, 0, on);
    }
    if (!after_recovery.empty() && power_cut.empty() && power_on.empty())
      throw ssdvp::ConfigError("--after-recovery needs --power-cut or --power-on (it runs after a recovery)");
    if (!timeline.path.empty() && (!power_cut.empty() || !power_on.empty()))
      throw ssdvp::ConfigError("--timeline does not combine with --power-cut or --power-on yet");
    if (!power_cut.empty()) {
      std::optional<CutPoint> again;
      if (!recovery_cut.empty()) again = parse_cut_point("--recovery-cut", recovery_cut);
      return power_cut_command(platform, workload, sets, out_dir, quiet, !no_precondition,
                               parse_cut_point("--power-cut", power_cut), again, after_recovery);
    }
    if ((!save_state.empty() + !load_state.empty() + !state_cache.empty()) > 1)
      throw ssdvp::ConfigError("--save-state, --load-state and --state-cache: one at a time");
    if ((!save_state.empty() || !load_state.empty() || !state_cache.empty()) && (!power_on.empty() || !power_cut.empty()))
      throw ssdvp::ConfigError("drive-state snapshots and power cuts do not combine yet (--power-cut, --power-on)");
    ssdvp::RunOptions opt;
    opt.save_state_dir = save_state;
    opt.load_state_dir = load_state;
    if (!timeline_window.empty() && timeline.path.empty())
      throw ssdvp::ConfigError("--timeline-window needs --timeline FILE");
    if (!timeline_window.empty()) parse_timeline_window(timeline_window, timeline);
    opt.timeline = timeline;
    return run_command(platform, workload, sets, out_dir, quiet, !no_precondition, dump_map, gdb_port, gdb_core, opt,
                       state_cache);
  });
}

// SystemC's own main would print its copyright banner before every command (--help, errors
// and config-doc included): ssdvp's main asks it not to (SYSTEMC_DISABLE_COPYRIGHT_MESSAGE, as
// SystemC documents) unless the caller set that variable, then hands over to SystemC, which
// calls sc_main.  `ssdvp --version` names the SystemC release.
int main(int argc, char* argv[]) {
  ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
