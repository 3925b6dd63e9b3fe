#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "platforms/serve/served_drive.h"

#include <sys/prctl.h>

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "platforms/serve/nbd_protocol.h"

extern "C" {
#include "ftl-sw/hal/regs.h"
}

namespace ssdvp {

using workload::Op;

// The host driver's view: a live workload whose requests are the clients'.
class ServedDrive::Source : public workload::Workload {
 public:
  explicit Source(ServedDrive& d) : d_(d) {}
  ~Source() override { d_.source_ = nullptr; }
  unsigned streams() const override { return d_.o_.streams; }
  std::optional<workload::Request> next(unsigned s) override { return d_.next(s); }
  bool closed_loop() const override { return false; }
  std::string describe() const override {
    return fmt::format("NBD clients ({}, {} pacing, {} host threads)", d_.server_ ? d_.server_->uri() : std::string("-"),
                       d_.o_.pace == Pace::Realtime ? "realtime" : "virtual", d_.o_.streams);
  }
  bool live() const override { return true; }
  bool ended() const override { return d_.ended_; }
  void completed(const workload::Request& r, bool ok, uint16_t status) override { d_.completed(r, ok, status); }

 private:
  ServedDrive& d_;
};

ServedDrive::ServedDrive(const ServeOptions& o) : sc_core::sc_prim_channel("served_drive"), o_(o) {
  o_.streams = std::max(1u, o_.streams);
  ready_.resize(o_.streams);
  zeros_.assign(o_.max_block, 0);
  async_attach_suspending();   // no event pending is no end: the clients may still come
  sc_core::sc_spawn([this] { pace_thread(); }, "serve_pacing");
  sc_core::sc_spawn(
      [this] {
        wait(cut_);
        if (on_cut) on_cut();
      },
      "serve_power_cut");
}

ServedDrive::~ServedDrive() {
  if (server_) server_->close_all();
}

uint64_t ServedDrive::wall_ns() const {
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - wall0_).count());
}

std::unique_ptr<workload::Workload> ServedDrive::make_workload(uint64_t capacity_bytes) {
  nbd::ExportInfo e;
  e.name = o_.export_name;
  e.description = o_.description;
  e.size = capacity_bytes;
  e.max_block = o_.max_block;
  server_ = std::make_unique<nbd::Server>(
      e, [this](std::unique_ptr<nbd::Request> r) { submit(std::move(r)); },
      [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); });
  if (!o_.unix_socket.empty()) server_->listen_unix(o_.unix_socket);
  else server_->listen_tcp(o_.tcp_port);
  server_->linger = o_.linger_s;
  server_->on_last_close = [this] {
    if (!o_.persist) end("the last client disconnected");
  };
  wall0_ = std::chrono::steady_clock::now();
  // (Clients are accepted, and the line saying so printed, once the drive is preconditioned:
  // the driver's first look for a request.  One that connects earlier waits in the backlog.)
  auto s = std::make_unique<Source>(*this);
  source_ = s.get();
  return s;
}

void ServedDrive::submit(std::unique_ptr<nbd::Request> r) {
  {
    std::lock_guard<std::mutex> g(mu_);
    if (!end_requested_) {
      incoming_.push_back({std::move(r), wall_ns()});
      arrivals_.store(true, std::memory_order_release);
      cv_.notify_all();
    }
  }
  if (r) {   // the run is ending: nothing more enters the drive
    server_->reply(std::move(r), nbd::kEshutdown, "the run is ending");
    return;
  }
  async_request_update();
}

void ServedDrive::end(const std::string& why) {
  {
    std::lock_guard<std::mutex> g(mu_);
    if (!end_requested_) end_reason_ = why;
    end_requested_ = true;
    arrivals_.store(true, std::memory_order_release);
    cv_.notify_all();
  }
  async_request_update();
}

void ServedDrive::request_cut() {
  {
    std::lock_guard<std::mutex> g(mu_);
    cut_requested_ = true;
    arrivals_.store(true, std::memory_order_release);
    cv_.notify_all();
  }
  async_request_update();
}

// The cut falls when the write is submitted, so that it is in flight (issued, not answered).
void ServedDrive::write_issued(sc_core::sc_time at) {
  if (!cut_armed_) return;
  cut_armed_ = false;
  cut_.notify(at);
}

std::string ServedDrive::end_reason() const {
  std::lock_guard<std::mutex> g(mu_);
  return end_reason_;
}

void ServedDrive::drop_connections() {
  if (server_) server_->close_all();
}

// Update phase: the clients' requests enter the simulation (and the end, once asked for).
void ServedDrive::update() { take_arrivals(); }

// In the simulation's thread (the update phase, or the pacing thread once it has waited).
void ServedDrive::take_arrivals() {
  std::deque<Arrived> got;
  bool end_now = false, cut_now = false;
  {
    std::lock_guard<std::mutex> g(mu_);
    got.swap(incoming_);
    arrivals_.store(false, std::memory_order_relaxed);
    end_now = end_requested_;
    cut_now = cut_requested_;
    cut_requested_ = false;
  }
  if (cut_now && (!o_.cut_in_write || (writes_in_flight && writes_in_flight() > 0))) {   // nothing else enters:
    cut_.notify(sc_core::SC_ZERO_TIME);   // the power is going (on_cut runs in its own process)
    return;
  }
  if (cut_now) cut_armed_ = true;   // the next write issued brings it (write_issued)
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  for (Arrived& a : got) {
    nbd::Request& r = *a.req;
    // When it arrives: now (virtual; realtime with the simulation on time), or at its wall-clock
    // time when the simulation is behind (the lag is measured).
    sc_core::sc_time at = now;
    if (o_.pace == Pace::Realtime && started_) {
      const sc_core::sc_time wall_at = sim0_ + sc_core::sc_time(double(a.wall_ns), sc_core::SC_NS);
      if (wall_at > now) {
        const uint64_t lag = uint64_t((wall_at - now).to_seconds() * 1e9 + 0.5);
        lag_.record(lag);
        if (wall_at - now > o_.quantum) lagged_++;
        at = wall_at;
      } else {
        lag_.record(0);
      }
    }
    const unsigned stream = r.conn % o_.streams;
    const uint64_t cookie = next_cookie_++;
    InFlight& f = in_flight_[cookie];
    requests_++;
    workload::Request w;
    w.arrival_ns = uint64_t(at.to_seconds() * 1e9 + 0.5);
    w.stream = uint16_t(stream);
    w.cookie = cookie;
    w.offset = r.offset;
    w.length = r.length;
    switch (r.type) {
      case nbd::kCmdRead:
        w.op = Op::Read;
        w.buffer = r.data.data();
        ready_[stream].push_back(w);
        break;
      case nbd::kCmdWrite:
        w.op = Op::Write;
        w.fua = r.flags & nbd::kCmdFlagFua;
        w.buffer = r.data.data();
        ready_[stream].push_back(w);
        break;
      case nbd::kCmdTrim:
        w.op = Op::Trim;
        ready_[stream].push_back(w);
        break;
      case nbd::kCmdFlush:
        w.op = Op::Flush;
        w.offset = 0;
        w.length = 0;
        ready_[stream].push_back(w);
        break;
      case nbd::kCmdWriteZeroes: {   // writes of zeros, in parts of at most one maximum block
        w.op = Op::Write;
        w.fua = r.flags & nbd::kCmdFlagFua;
        w.buffer = zeros_.data();
        f.parts_left = 0;
        for (uint64_t off = 0; off < r.length; off += o_.max_block) {
          workload::Request part = w;
          part.offset = r.offset + off;
          part.length = uint32_t(std::min<uint64_t>(o_.max_block, r.length - off));
          ready_[stream].push_back(part);
          f.parts_left++;
        }
        break;
      }
      default: break;   // (the server lets nothing else through)
    }
    queued_ += f.parts_left;
    f.req = std::move(a.req);
    if (source_ && source_->on_arrival) source_->on_arrival(stream);
  }
  if (end_now && !ended_) {
    ended_ = true;
    if (server_) server_->close_all();   // nothing more comes in; what is in flight is answered by the drive
    if (source_ && source_->on_arrival)
      for (unsigned s = 0; s < o_.streams; s++) source_->on_arrival(s);
  }
  if (!got.empty() || end_now) idle_.notify(sc_core::SC_ZERO_TIME);
}

std::optional<workload::Request> ServedDrive::next(unsigned s) {
  if (!started_) {
    started_ = true;
    wall0_ = std::chrono::steady_clock::now();   // (realtime: simulated and wall-clock time start together)
    sim0_ = sc_core::sc_time_stamp();
    start_.notify(sc_core::SC_ZERO_TIME);
    server_->start();
    if (o_.on_listening) o_.on_listening(server_->uri());
  }
  if (s >= ready_.size() || ready_[s].empty()) return std::nullopt;
  workload::Request r = ready_[s].front();
  ready_[s].pop_front();
  queued_--;
  outstanding_++;
  return r;
}

void ServedDrive::completed(const workload::Request& r, bool ok, uint16_t status) {
  auto it = in_flight_.find(r.cookie);
  if (it == in_flight_.end()) return;
  InFlight& f = it->second;
  outstanding_--;
  if (!ok && !f.error) {
    switch (status) {
      case SSD_ST_WRITE_PROTECTED: f.error = nbd::kEperm; break;
      case SSD_ST_LBA_RANGE: f.error = nbd::kEinval; break;
      default: f.error = nbd::kEio; break;
    }
    f.message = fmt::format("the drive answered {} at offset {} with status 0x{:04x}", workload::op_name(r.op), r.offset,
                            unsigned(status));
  }
  if (r.op == Op::Read && ok) bytes_read_ += r.length;
  if (r.op == Op::Write && ok) bytes_written_ += r.length;
  if (--f.parts_left == 0) {
    if (f.error) errors_++;
    std::chrono::steady_clock::time_point due{};   // realtime: not before the clock reaches the completion
    if (o_.pace == Pace::Realtime) {
      due = wall0_ + std::chrono::nanoseconds(uint64_t((sc_core::sc_time_stamp() - sim0_).to_seconds() * 1e9));
      // How late the simulation reached the completion (a stall after the request entered:
      // the reply leaves that late).
      const auto late = std::chrono::steady_clock::now() - due;
      const uint64_t ns = late.count() > 0 ? uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(late).count()) : 0;
      reply_lag_.record(ns);
      if (ns > uint64_t(o_.quantum.to_seconds() * 1e9)) replies_late_++;
    }
    if (server_) server_->reply(std::move(f.req), f.error, f.message, due);
    in_flight_.erase(it);
  }
  if (outstanding_ == 0 && queued_ == 0) idle_.notify(sc_core::SC_ZERO_TIME);
}

// Virtual: while the host has nothing outstanding, the simulation waits (in wall-clock time)
// for the next request: the drive's background work waits with it.  Realtime: simulated time
// follows the clock, a quantum at a time.
void ServedDrive::pace_thread() {
  wait(start_);
  // Realtime sleeps are a quantum long (10 us): with Linux's default timer slack (50 us) each
  // would overshoot by more than it lasts.
  if (o_.pace == Pace::Realtime) ::prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
  for (;;) {
    if (ended_) return;
    if (o_.pace == Pace::Virtual) {
      if (outstanding_ || queued_) {
        wait(idle_);
        continue;
      }
      wait_while_idle();
      take_arrivals();   // what came enters now, at the simulated time the drive stopped at
      wait(sc_core::SC_ZERO_TIME);   // (and what it woke runs before the next look)
      continue;
    }
    wait(o_.quantum);
    const double sim_ns = (sc_core::sc_time_stamp() - sim0_).to_seconds() * 1e9;
    const auto due = wall0_ + std::chrono::nanoseconds(uint64_t(sim_ns));
    if (std::chrono::steady_clock::now() < due) {
      wait_for_clock(due);
      take_arrivals();   // a request that woke it enters now
    }
  }
}

// While the drive has work in flight the wait is a spin on the clock: a timed sleep of a few
// microseconds wakes 15-60 us late on a virtual machine, and every completion after it would be
// that late.  With nothing in flight nobody waits on a completion, and the core sleeps.
void ServedDrive::wait_for_clock(std::chrono::steady_clock::time_point due) {
  if (outstanding_ || queued_) {
    while (std::chrono::steady_clock::now() < due && !arrivals_.load(std::memory_order_acquire)) {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    }
    return;
  }
  std::unique_lock<std::mutex> lk(mu_);
  cv_.wait_until(lk, due, [&] { return !incoming_.empty() || end_requested_ || cut_requested_; });
}

void ServedDrive::wait_while_idle() {
  const auto t0 = std::chrono::steady_clock::now();
  std::unique_lock<std::mutex> lk(mu_);
  cv_.wait(lk, [&] { return !incoming_.empty() || end_requested_ || cut_requested_; });
  idle_waits_++;
  idle_wall_s_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

nlohmann::json ServedDrive::report() const {
  const nbd::ServerStats st = server_ ? server_->stats() : nbd::ServerStats{};
  nlohmann::json j = {{"uri", server_ ? server_->uri() : std::string()},
                      {"pace", o_.pace == Pace::Realtime ? "realtime" : "virtual"},
                      {"host_threads", o_.streams},
                      {"connections", st.connections},
                      {"requests", st.requests},
                      {"refused", st.refused},
                      {"protocol_errors", st.protocol_errors},
                      {"drive_errors", errors_},
                      {"bytes_read", bytes_read_},
                      {"bytes_written", bytes_written_},
                      {"end", end_reason()}};
  if (o_.pace == Pace::Realtime)
    j["lag"] = {{"quantum_us", o_.quantum.to_seconds() * 1e6},
                {"requests_late", lagged_},
                {"mean_us", lag_.mean() / 1e3},
                {"p99_us", double(lag_.percentile(99)) / 1e3},
                {"max_us", double(lag_.max()) / 1e3},
                {"replies_late", replies_late_},
                {"reply_mean_us", reply_lag_.mean() / 1e3},
                {"reply_p99_us", double(reply_lag_.percentile(99)) / 1e3},
                {"reply_max_us", double(reply_lag_.max()) / 1e3}};
  else
    j["idle"] = {{"waits", idle_waits_}, {"wall_s", idle_wall_s_}};
  return j;
}

}  // namespace ssdvp
