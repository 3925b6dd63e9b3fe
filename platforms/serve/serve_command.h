// `ssdvp serve`: the drive of a platform exported over NBD to real clients (platforms/serve/,
// docs/serve.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ssdvp {

struct ServeArgs {
  std::string platform;
  std::vector<std::string> sets;
  std::string out_dir;
  bool quiet = false;
  bool precondition = true;
  std::string socket;          // default: OUT/nbd.sock
  int tcp_port = -1;           // >= 0: TCP on 127.0.0.1 instead (0: any free port)
  std::string pace = "virtual";
  int threads = 0;             // host threads the connections map onto (0: host.queues)
  double quantum_us = 10;
  bool persist = false;
  double linger_s = 2.0;
  std::string export_name = "ssdvp";
  std::string power_cut;       // AT as ssdvp run --power-cut: a time or ops:N (empty: none)
  std::string power_on;        // a cut's folder (OUT/power-cut) or OUT/power-off: recover the drive and serve it
  bool no_save = false;        // no OUT/power-off image at the end
  std::string data;            // where the clients' bytes live: a folder of sparse files (default OUT/data) or "memory"
  std::string state_cache;     // as ssdvp run --state-cache: the preconditioned drive from DIR/KEY, or saved there
  bool test_aids = false;      // as ssdvp run --test-aids
};

// Runs until the last client disconnects (unless persist) or SIGINT/SIGTERM; writes run.json
// with its "serve" section; the exit status of `ssdvp run`.
int serve_command(const ServeArgs& a);

}  // namespace ssdvp
