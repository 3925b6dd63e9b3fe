// `ssdvp bench --serve`: see bench_serve.h.
#include "platforms/bench_serve.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "models/common/config.h"
#include "models/common/params.h"
#include "platforms/shell_quote.h"

namespace ssdvp {
namespace {

constexpr double kRateKept = 0.98;     // fio completes at least this share of the rate asked
constexpr double kLagMeanUs = 20;      // mean lag at most two quanta
constexpr double kLagP99Us = 50;       // and their 99th percentile at most this
constexpr unsigned kIodepth = 16;
constexpr int kTries = 3;              // a rate fails when it falls behind this many times in a row

std::string file_tail(const std::string& path, size_t n = 600) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string s = ss.str();
  return s.size() > n ? "..." + s.substr(s.size() - n) : s;
}

// One `ssdvp serve` process: started, waited for until it listens, then waited for to end.
class ServeProcess {
 public:
  ServeProcess(const std::string& self, const std::vector<std::string>& args, const std::string& err_path)
      : err_path_(err_path) {
    int fd[2];
    if (pipe(fd) != 0) throw std::runtime_error("bench --serve: pipe failed");
    pid_ = fork();
    if (pid_ < 0) throw std::runtime_error("bench --serve: fork failed");
    if (pid_ == 0) {
      dup2(fd[1], 1);
      if (FILE* e = std::fopen(err_path.c_str(), "w")) dup2(fileno(e), 2);
      close(fd[0]);
      close(fd[1]);
      std::vector<char*> argv{const_cast<char*>(self.c_str())};
      for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      execv(self.c_str(), argv.data());
      _exit(127);
    }
    close(fd[1]);
    out_ = fdopen(fd[0], "r");
    char line[4096];
    while (std::fgets(line, sizeof line, out_)) {
      const std::string s(line);
      const auto at = s.find("listening on ");
      if (at == std::string::npos) continue;
      uri_ = s.substr(at + 13);
      while (!uri_.empty() && (uri_.back() == '\n' || uri_.back() == '\r')) uri_.pop_back();
      return;
    }
    const int rc = wait();
    throw std::runtime_error(fmt::format("bench --serve: ssdvp serve ended (status {}) before it listened: {}", rc,
                                         file_tail(err_path_)));
  }
  ~ServeProcess() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      wait();
    }
  }
  const std::string& uri() const { return uri_; }
  // Waits for the process to end (it does once the client has gone); its exit status.
  int wait() {
    if (out_) {
      char buf[4096];
      while (std::fread(buf, 1, sizeof buf, out_) > 0) {}
      std::fclose(out_);
      out_ = nullptr;
    }
    int st = 0;
    if (pid_ > 0 && waitpid(pid_, &st, 0) == pid_) pid_ = -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  }
  void terminate() {
    if (pid_ > 0) kill(pid_, SIGTERM);
  }

 private:
  std::string err_path_, uri_;
  pid_t pid_ = -1;
  FILE* out_ = nullptr;
};

struct Probe {
  double rate = 0;
  bool pass = false;
  double fio_iops = 0, fio_mean_us = 0, drive_mean_us = 0, late_share = 0, lag_mean_us = 0, lag_p99_us = 0, lag_max_us = 0;
  double reply_mean_us = 0, reply_p99_us = 0;
  uint64_t drive_errors = 0;
  std::string why;   // why it failed
};

// cache: serve the preconditioned drive from the state cache (a drive without drive-state
// snapshots, an Open-Channel device under a host FTL, is preconditioned in every probe).
Probe probe(const std::string& self, const std::string& platform, const std::vector<std::string>& sets, bool cache,
            const std::string& rw, const std::string& data, double rate, double seconds) {
  const std::string dir = "ssdvp-bench-serve";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::vector<std::string> args = {"serve", "--quiet", "--no-save", "--pace", "realtime", "--linger", "1",
                                   "--out", dir, "--data", data};
  if (cache) args.insert(args.end(), {"--state-cache", "ssdvp-bench-serve.state"});
  if (!platform.empty()) args.insert(args.end(), {"--platform", platform});
  for (const auto& s : sets) args.insert(args.end(), {"--set", s});
  ServeProcess serve(self, args, dir + "/serve.stderr");
  const std::string fio_json = dir + "/fio.json";
  const std::string cmd = fmt::format(
      "fio --name=limit --ioengine=nbd --uri={} --rw={} --bs=4k --iodepth={} --rate_iops={:.0f} --time_based "
      "--runtime={:.0f} --norandommap --randrepeat=1 --output-format=json --output={} 2>{}",
      shell_quote(serve.uri()), rw, kIodepth, rate, seconds, shell_quote(fio_json), shell_quote(dir + "/fio.stderr"));
  if (std::system(cmd.c_str()) != 0) {
    serve.terminate();
    serve.wait();
    throw std::runtime_error("bench --serve: fio failed: " + file_tail(dir + "/fio.stderr") +
                             " (Debian's fio has the nbd engine: apt install fio)");
  }
  const int rc = serve.wait();
  if (!std::filesystem::exists(dir + "/run.json"))
    throw std::runtime_error(fmt::format("bench --serve: ssdvp serve ended with status {} and no run.json: {}", rc,
                                         file_tail(dir + "/serve.stderr")));
  nlohmann::json run, fio;
  std::ifstream(dir + "/run.json") >> run;
  {
    std::ifstream in(fio_json);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string s = ss.str();
    fio = nlohmann::json::parse(s.substr(std::min(s.find('{'), s.size())));
  }
  const std::string op = rw == "randread" ? "read" : "write";
  Probe p;
  p.rate = rate;
  const auto& side = fio["jobs"][0][op];
  p.fio_iops = side["iops"].get<double>();
  p.fio_mean_us = side["clat_ns"]["mean"].get<double>() / 1e3;
  p.drive_mean_us = run["ops"][op]["latency_us"]["mean"].get<double>();
  const auto& s = run["serve"];
  p.drive_errors = s["drive_errors"].get<uint64_t>();
  const auto& lag = s["lag"];
  const double requests = double(std::max<uint64_t>(s["requests"].get<uint64_t>(), 1));
  p.late_share = double(lag["requests_late"].get<uint64_t>()) / requests;
  p.lag_mean_us = lag["mean_us"].get<double>();
  p.lag_p99_us = lag["p99_us"].get<double>();
  p.lag_max_us = lag["max_us"].get<double>();
  p.reply_mean_us = lag["reply_mean_us"].get<double>();
  p.reply_p99_us = lag["reply_p99_us"].get<double>();
  if (p.drive_errors) p.why = fmt::format("{} drive errors", p.drive_errors);
  else if (p.fio_iops < kRateKept * rate) p.why = fmt::format("fio got {:.0f} IOPS", p.fio_iops);
  else if (p.lag_mean_us > kLagMeanUs) p.why = fmt::format("lag mean {:.1f} us", p.lag_mean_us);
  else if (p.lag_p99_us > kLagP99Us) p.why = fmt::format("lag p99 {:.1f} us", p.lag_p99_us);
  else if (p.reply_mean_us > kLagMeanUs) p.why = fmt::format("reply lag mean {:.1f} us", p.reply_mean_us);
  else if (p.reply_p99_us > kLagP99Us) p.why = fmt::format("reply lag p99 {:.1f} us", p.reply_p99_us);
  p.pass = p.why.empty() && rc == 0;
  if (p.why.empty() && rc != 0) p.why = fmt::format("serve exit status {}", rc);
  return p;
}

// What a search found: the highest rate kept (none: below 125), the rate above it that fell
// behind, and a lower rate that fell behind too (when 1,000 failed and 2,000 kept up).
struct Found {
  std::optional<Probe> lo, hi, below;
};

// The highest passing rate: doubling from 1,000 (or halving to 125, then one look at 2,000),
// then three bisections.
Found search(const std::string& self, const std::string& platform, const std::vector<std::string>& sets, bool cache,
             const std::string& rw, const std::string& data, double seconds) {
  std::optional<Probe> lo, hi, below;
  // The state cache first (a first run preconditions and saves the drive, whose writeback
  // would disturb the rate it measured): a short run at the lowest rate, not counted, then
  // the saved state on disk before the first rate (a search that starts behind never climbs).
  if (cache) {
    probe(self, platform, sets, cache, rw, data, 125, 1);
    ::sync();
  }
  auto try_rate = [&](double r) {
    Probe p = probe(self, platform, sets, cache, rw, data, r, seconds);
    for (int again = 1; !p.pass && again < kTries; again++) {   // the machine's noise: try a rate that fell behind again
      std::cerr << fmt::format("  {} at {:>9.0f} IOPS: behind ({}), trying again\n", rw, r, p.why);
      p = probe(self, platform, sets, cache, rw, data, r, seconds);
    }
    std::cerr << fmt::format("  {} at {:>9.0f} IOPS: {} (fio {:.0f} IOPS, lag mean {:.1f} us, p99 {:.1f} us, {:.1f}% "
                             "a quantum late; replies: lag mean {:.1f} us, p99 {:.1f} us)\n",
                             rw, r, p.pass ? "kept up" : "behind: " + p.why, p.fio_iops, p.lag_mean_us, p.lag_p99_us,
                             100 * p.late_share, p.reply_mean_us, p.reply_p99_us);
    (p.pass ? lo : hi) = p;
    return p.pass;
  };
  double r = 1000;
  bool climb = try_rate(r);
  if (!climb) {
    while (r > 125 && !try_rate(r /= 2)) {}
    // 1,000 fell behind three times.  A lower rate is not always easier: the default
    // platform's ISS writes reach their completions 40 us late on average at 125 a second and
    // 17 us at 4,000 (2026-11-29; a write that comes alone after milliseconds of idle is
    // simulated more slowly, host caches gone cold the likely reason, not established).  The
    // criteria are also p99s of a few thousand requests (one search of the same writes ended
    // at 813 where others found 12,000).  So one look above, at 2,000, either way; if it keeps
    // up, the search climbs on from there and the failure below is reported beside the rate
    // kept.
    std::optional<Probe> failed_below = hi;
    if (try_rate(2000)) {
      below = failed_below;
      hi.reset();
      r = 2000;
      climb = true;
    }
  }
  if (climb)
    while (r < 1'048'576 && try_rate(r *= 2)) {}
  for (int i = 0; i < 3 && lo && hi; i++) try_rate(std::round((lo->rate + hi->rate) / 2));
  return {lo, hi, below};
}

}  // namespace

int bench_serve(const std::string& self, const std::string& platform, const std::vector<std::string>& sets, bool iss,
                double seconds, const std::vector<std::string>& jobs) {
  if (std::system("fio --enghelp=nbd >/dev/null 2>&1") != 0)
    throw ConfigError("ssdvp bench --serve needs fio with its nbd engine (Debian 12: apt install fio)");
  if (seconds < 1 || seconds > 600) throw ConfigError(fmt::format("--serve-seconds {}: 1 to 600", seconds));
  // The clients' bytes in memory (--data memory), so that the figure is the simulation's; then
  // random writes once more with the bytes in sparse files (serve's default), whose page faults
  // wait for the host file system.
  struct Row { const char* name; bool iss; std::string rw, data; };
  const std::vector<Row> all = {{"read", false, "randread", "memory"},
                                {"write", false, "randwrite", "memory"},
                                {"files", false, "randwrite", "files"},
                                {"iss-read", true, "randread", "memory"},
                                {"iss-write", true, "randwrite", "memory"}};
  std::vector<Row> rows;
  for (const Row& row : all)
    if (jobs.empty() ? (!row.iss || iss) : std::find(jobs.begin(), jobs.end(), row.name) != jobs.end())
      rows.push_back(row);
  for (const auto& j : jobs)
    if (std::none_of(all.begin(), all.end(), [&](const Row& r) { return j == r.name; }))
      throw ConfigError(fmt::format("--serve-jobs {}: not a job (read, write, files, iss-read, iss-write)", j));
  std::cout << fmt::format("ssdvp serve --pace realtime, fio ioengine=nbd, 4 KiB QD{}, filled drive, {:.0f} s per rate; "
                           "kept up: fio >= {:.0f}% of the rate, lag mean <= {:.0f} us and p99 <= {:.0f} us (requests entering and "
                           "completions reached), no errors\n",
                           kIodepth, seconds, 100 * kRateKept, kLagMeanUs, kLagP99Us);
  std::cout << fmt::format("{:<8} {:<10} {:<7} {:>10} {:>13} {:>12} {:>9} {:>9}   {}\n", "firmware", "job", "data",
                           "IOPS kept", "drive mean us", "fio mean us", "lag mean", "lag p99", "first rate behind");
  // An Open-Channel device has no drive-state snapshot, and its host FTL writes the fill in
  // simulated time: each probe preconditions (mtftl-femu's 8 GiB: about 1.5 s of wall time).
  const bool cache = PlatformParams::from(Config::load(platform, sets)).device.interface == DeviceInterface::Conventional;
  for (const Row& row : rows) {
    std::vector<std::string> s = sets;
    for (const char* k : {"precondition.fill=1", "precondition.overwrite=0", "sim.progress=false"}) s.push_back(k);
    if (row.iss) s.push_back("firmware.mode=iss");
    if (!cache) s.push_back("precondition.mode=timed");
    const std::string data = row.data == "memory" ? "memory" : "ssdvp-bench-serve-data";
    const auto [lo, hi, below] = search(self, platform, s, cache, row.rw, data, seconds);
    std::filesystem::remove_all("ssdvp-bench-serve-data");
    std::string behind = hi ? fmt::format("{:.0f} ({})", hi->rate, hi->why) : "none up to 1,048,576";
    if (below) behind += fmt::format("; also behind at {:.0f} ({})", below->rate, below->why);
    const char* fw = row.iss ? "iss" : "native";
    if (lo)
      std::cout << fmt::format("{:<8} {:<10} {:<7} {:>10.0f} {:>13.1f} {:>12.1f} {:>9.1f} {:>9.1f}   {}\n", fw, row.rw,
                               row.data, lo->rate, lo->drive_mean_us, lo->fio_mean_us, lo->lag_mean_us, lo->lag_p99_us,
                               behind);
    else
      std::cout << fmt::format("{:<8} {:<10} {:<7} {:>10}   {}\n", fw, row.rw, row.data, "< 125", behind);
    std::cout.flush();
  }
  return 0;
}

}  // namespace ssdvp
