// What ssdvp serve puts between its NBD clients and the simulated drive: their requests become
// a live workload of the host driver (one host thread per stream: connection k is stream k mod
// streams), and simulated time is paced against them.
//
// Models: the client's requests arriving at the host while the drive runs; a write's bytes (all
// 4,096 of each sector, sim.host_data) and a read's go straight between the client's buffer and
// the drive; WRITE_ZEROES as writes of zeros (in parts of at most the export's maximum block),
// TRIM, FLUSH (drive-wide, so it covers every connection's acknowledged writes), FUA.  Pacing:
// virtual (the drive runs as fast as it simulates; while the host has nothing outstanding the
// simulation waits for the next request, so simulated time advances only by the drive's work),
// or realtime (simulated time never runs ahead of wall-clock time; a request entering while
// the simulation is behind arrives at its wall-clock time and the lag is measured).
// Leaves out: host CPU time of the client's software (it is real, outside the model).
#pragma once

#include <systemc>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/common/latency_histogram.h"
#include "platforms/serve/nbd_server.h"
#include "traces/workload.h"

namespace ssdvp {

enum class Pace { Virtual, Realtime };

struct ServeOptions {
  Pace pace = Pace::Virtual;
  unsigned streams = 1;                     // host threads the connections map onto
  sc_core::sc_time quantum{10, sc_core::SC_US};   // realtime: simulated time between checks of the clock
  bool persist = false;                     // keep serving after the last client goes (until a signal)
  double linger_s = 2.0;                    // else the end: no client for this long after the last went
  std::string unix_socket;                  // one of these two
  uint16_t tcp_port = 0;
  std::string export_name = "ssdvp";
  std::string description;
  uint32_t max_block = 32u << 20;
  // Called once the server accepts clients (the URI), on the simulation's thread.
  std::function<void(const std::string& uri)> on_listening;
  // A requested cut (request_cut) waits for a write: it falls with a write in flight, the one
  // with the host or the next to be issued (ssdvp serve --power-cut signal-in-write).
  bool cut_in_write = false;
};

class ServedDrive : public sc_core::sc_prim_channel {
 public:
  explicit ServedDrive(const ServeOptions& o);
  ~ServedDrive() override;

  // The host driver's workload: made once the capacity is known; the server listens from then
  // and accepts clients from the start of the measured run (after preconditioning).
  std::unique_ptr<workload::Workload> make_workload(uint64_t capacity_bytes);
  // Ends the run (any thread): no new requests; the driver finishes those in flight, flushes,
  // and the simulation stops.
  void end(const std::string& why);
  // A power cut: every connection dropped at once, nothing more answered.
  void drop_connections();
  // Asks (any thread) for on_cut to run in the simulation's thread at once (ssdvp serve
  // --power-cut signal: SIGUSR1 cuts the power at the simulated time it arrives at), or, with
  // ServeOptions::cut_in_write, once a write is in flight.
  void request_cut();
  std::function<void()> on_cut;
  // ServeOptions::cut_in_write: the host's writes issued and not acknowledged (its driver's
  // count), and each write as the host issues it (`at`: from now).
  std::function<uint64_t()> writes_in_flight;
  void write_issued(sc_core::sc_time at);
  // run.json's "serve" section.
  nlohmann::json report() const;
  std::string end_reason() const;

 private:
  class Source;
  friend class Source;
  struct InFlight {
    std::unique_ptr<nbd::Request> req;
    uint32_t parts_left = 1;
    uint32_t error = 0;
    std::string message;
  };
  void update() override;                  // the simulation's side of arrivals (update phase)
  void take_arrivals();
  void submit(std::unique_ptr<nbd::Request> r);   // a client's request (connection threads)
  std::optional<workload::Request> next(unsigned stream);
  void completed(const workload::Request& r, bool ok, uint16_t status);
  void pace_thread();
  void wait_while_idle();                  // virtual pacing: blocks while the host has nothing to do
  void wait_for_clock(std::chrono::steady_clock::time_point due);   // realtime: until due or an arrival
  uint64_t wall_ns() const;

  ServeOptions o_;
  std::unique_ptr<nbd::Server> server_;
  Source* source_ = nullptr;               // owned by the host driver

  // Between threads (mu_): requests not yet in the simulation, the end.
  mutable std::mutex mu_;
  std::condition_variable cv_;
  struct Arrived {
    std::unique_ptr<nbd::Request> req;
    uint64_t wall_ns;
  };
  std::deque<Arrived> incoming_;
  std::atomic<bool> arrivals_{false};    // something for take_arrivals (read without mu_ while spinning)
  bool end_requested_ = false, cut_requested_ = false;
  std::string end_reason_;

  // The simulation's side.
  std::vector<std::deque<workload::Request>> ready_;   // per stream, waiting for the driver
  std::unordered_map<uint64_t, InFlight> in_flight_;
  uint64_t next_cookie_ = 1, queued_ = 0, outstanding_ = 0;   // in ready_; with the driver
  bool cut_armed_ = false;                // cut_in_write: a cut waits for the next write issued
  bool ended_ = false, started_ = false;
  sc_core::sc_event idle_, start_, cut_;
  std::vector<uint8_t> zeros_;
  std::chrono::steady_clock::time_point wall0_;
  sc_core::sc_time sim0_;
  // Figures
  uint64_t requests_ = 0, bytes_read_ = 0, bytes_written_ = 0, errors_ = 0, lagged_ = 0;
  LatencyHistogram lag_;                   // realtime: how late each request entered, ns
  LatencyHistogram reply_lag_;             // realtime: how late the simulation reached each completion, ns
  uint64_t replies_late_ = 0;              // of them more than a quantum
  uint64_t idle_waits_ = 0;
  double idle_wall_s_ = 0;
};

}  // namespace ssdvp
