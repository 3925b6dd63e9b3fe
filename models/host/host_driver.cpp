#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "models/host/host_driver.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "models/common/fatal.h"
#include "models/host/host_request.h"

extern "C" {
#include "ftl-sw/hal/fdp_formats.h"
#include "ftl-sw/hal/zns_formats.h"
}

namespace ssdvp {

using sc_core::sc_time;
using workload::Op;


namespace {
uint8_t opcode_of(Op op) {
  switch (op) {
    case Op::Read: return SSD_HOP_READ;
    case Op::Write: return SSD_HOP_WRITE;
    case Op::Trim: return SSD_HOP_TRIM;
    case Op::ZoneReset: return SSD_HOP_ZNS_MGMT_SEND;
    default: return SSD_HOP_FLUSH;
  }
}
}  // namespace

HostDriver::HostDriver(sc_core::sc_module_name name, const HostParams& p, BlockTarget& hif,
                       WorkloadFactory make_workload, const DriverOptions& o)
    : sc_core::sc_module(name),
      p_(p),
      hif_(hif),
      make_workload_(std::move(make_workload)),
      o_(o),
      queue_outstanding_(p.queues, 0) {
  series_ = HostSeries(o.series_interval_ns);
  hif_.on_complete = [this](HostCommand* c) { command_done(c); };
  hif_.on_retrying = [this](const HostCommand* c, bool retrying) {
    const uint64_t idx = c->user >> 16;
    if (sched_ && idx < pool_.size()) sched_->retrying(pool_[idx]->stream, retrying);   // (not preconditioning's)
  };
  SC_HAS_PROCESS(HostDriver);
  SC_THREAD(main_thread);
}

const char* HostDriver::read_wait_name(size_t c) {
  static const char* names[kReadWaitClasses] = {"none", "map_read", "map_write", "gc", "queued_behind_writes"};
  return names[c];
}

HostDriver::~HostDriver() = default;

double HostDriver::wall_seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start_).count();
}

HostDriver::Request* HostDriver::alloc_request() {
  if (free_.empty()) {
    pool_.push_back(std::make_unique<Request>());
    pool_.back()->index = uint32_t(pool_.size() - 1);
    return pool_.back().get();
  }
  Request* r = free_.back();
  free_.pop_back();
  return r;
}

void HostDriver::main_thread() {
  wall_start_ = last_progress_ = std::chrono::steady_clock::now();
  if (!hif_.ready()) wait(hif_.ready_event());
  ready_at_ = sc_core::sc_time_stamp();
  capacity_ = hif_.namespace_sectors();
  checker_ = std::make_unique<IntegrityChecker>(capacity_);
  if (after_cut_) checker_->continue_after_cut(*after_cut_);
  if (o_.zone_report && !read_zone_report()) return;
  try {
    wl_ = make_workload_(capacity_ * 4096);
  } catch (const std::exception& e) {   // the workload against the namespace the firmware reported
    report_input_error(e.what());
    return;
  }
  parts_.resize(wl_->part_names().size());
  const unsigned nthreads = wl_->streams();
  if (nthreads > kMaxThreads) {
    report_fatal("workload '" + wl_->describe() + "' has " + std::to_string(nthreads) +
                 " streams (numjobs, or a trace's streams): the host model runs at most " +
                 std::to_string(kMaxThreads) + " threads");
    return;
  }
  if (!p_.thread_cpus.empty() && p_.thread_cpus.size() != nthreads) {
    report_fatal("host.thread_cpus names " + std::to_string(p_.thread_cpus.size()) + " CPUs, but workload '" +
                 wl_->describe() + "' runs " + std::to_string(nthreads) + " threads: one CPU per thread");
    return;
  }
  streams_ = std::vector<Stream>(nthreads);
  if (wl_->live())   // a live source's requests wake their stream (all of them when it ends)
    wl_->on_arrival = [this](unsigned s) {
      if (s >= streams_.size()) return;
      streams_[s].woken = true;
      streams_[s].wake.notify(sc_core::SC_ZERO_TIME);
    };
  queue_threads_.assign(p_.queues, {});
  for (unsigned s = 0; s < streams_.size(); s++) {
    streams_[s].cpu = p_.thread_cpus.empty() ? s % p_.cpus : p_.thread_cpus[s];
    queue_threads_[queue_of_cpu(streams_[s].cpu)].push_back(s);
    sc_core::sc_spawn(sc_bind(&HostDriver::stream_thread, this, s), sc_core::sc_gen_unique_name("stream"));
  }
  if (!o_.cpu.types.empty()) {
    if (o_.cpu.migration && streams_.size() < 2) {
      report_fatal("host.migration = \"greedy\" moves host threads between CPUs, but workload '" + wl_->describe() +
                   "' runs " + std::to_string(streams_.size()) + " thread: give it two or more (e.g. numjobs)");
      return;
    }
    std::vector<uint32_t> cpus;
    for (const Stream& st : streams_) cpus.push_back(st.cpu);
    sched_ = std::make_unique<CpuScheduler>(o_.cpu, *o_.host_cpus, cpus, [this](unsigned t, uint32_t cpu) {
      set_thread_cpu(t, cpu);
      streams_[t].woken = true;
      streams_[t].wake.notify(sc_core::SC_ZERO_TIME);
    });
    for (unsigned s = 0; s < streams_.size(); s++) {
      sc_core::sc_event* io = sched_->io_phase_events[s];
      sc_core::sc_event* wake = &streams_[s].wake;
      sc_core::sc_spawn_options opt;
      opt.spawn_method();
      opt.set_sensitivity(io);
      opt.dont_initialize();
      sc_core::sc_spawn([wake] { wake->notify(sc_core::SC_ZERO_TIME); }, sc_core::sc_gen_unique_name("io_phase"), &opt);
    }
  }
  if (resume_) {
    if (resume_->at < sc_core::sc_time_stamp()) {
      report_fatal("the drive-state snapshot's workload starts at " + resume_->at.to_string() +
                   ", before the restored firmware was ready (" + sc_core::sc_time_stamp().to_string() + ")");
      return;
    }
    wait(resume_->at - sc_core::sc_time_stamp());
    preconditioned_below_ = resume_->preconditioned_below;
    checker_->set_preconditioned_below(preconditioned_below_);
  } else if (o_.precondition && (o_.precond.fill > 0 || o_.precond.overwrite > 0)) {
    if (!precondition()) return;
  }
  if (after_precondition && !resume_) {
    after_precondition();
    if (!fatal_errors().empty()) return;
  }
  t_start_ = sc_core::sc_time_stamp();
  if (o_.max_sim_time != sc_core::SC_ZERO_TIME) {
    // Stop issuing at the limit; requests in flight finish.
    sc_core::sc_spawn([this] {
      wait(o_.max_sim_time);
      stop_issuing_ = true;
      for (Stream& st : streams_) {   // also those between I/O phases
        st.woken = true;
        st.wake.notify(sc_core::SC_ZERO_TIME);
      }
    });
  }
  if (o_.stall_limit != sc_core::SC_ZERO_TIME) sc_core::sc_spawn([this] { watch_for_stalls(); });
  if (on_measure_start) on_measure_start();
  if (sched_) sched_->start();
  measure_wall_start_ = last_progress_ = std::chrono::steady_clock::now();
  measuring_ = true;
  precondition_wall_s_ = wall_seconds();
  streams_running_ = unsigned(streams_.size());
  started_ = true;
  start_.notify(sc_core::SC_ZERO_TIME);
  if (streams_running_) wait(all_done_);
  t_end_ = sc_core::sc_time_stamp();
  if (sched_) sched_->stop();
  measured_wall_s_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - measure_wall_start_).count();
  if (on_measure_end) on_measure_end();
  if (o_.flush_at_end) {
    admin_ = HostCommand{};
    admin_.opcode = SSD_HOP_FLUSH;
    admin_.user = uint64_t(UINT32_MAX) << 16;
    admin_submit_ns_ = ns_of(sc_core::sc_time_stamp());
    hif_.submit(&admin_);
    hif_.ring_doorbell(0, sc_core::SC_ZERO_TIME, 0);
    wait(admin_done_);
  }
  if (o_.fdp_logs) read_fdp_logs();
  finished_ = true;
  if (o_.progress && o_.progress_in_place && wall_seconds() > 3) std::fprintf(stderr, "\n");
  if (on_finished) on_finished();
}

bool HostDriver::may_issue_more() const {
  return !stop_issuing_ && (o_.max_requests == 0 || issued_ < o_.max_requests);
}

// Builds the request's commands; false when it cannot be sent at all (counted as an error).
bool HostDriver::make_request(unsigned s, const workload::Request& r, Request*& out) {
  Request* rq = alloc_request();
  rq->req = r;
  rq->stream = s;
  rq->cmds.clear();
  if (r.op == Op::Flush) {
    rq->lba = 0;
    rq->nsect = 0;
  } else {
    const uint64_t first = r.offset / 4096;
    const uint64_t end = (r.offset + r.length + 4095) / 4096;
    if (r.offset % 4096 || r.length % 4096) unaligned_++;
    rq->lba = first;
    rq->nsect = uint32_t(std::max<uint64_t>(end - first, 1));
    if (o_.fold && rq->lba + rq->nsect > capacity_) {
      if (rq->nsect > capacity_) rq->nsect = uint32_t(capacity_);
      rq->lba %= capacity_ - rq->nsect + 1;
      folded_++;
    }
  }
  const uint32_t max = p_.max_transfer_sectors;
  const uint32_t parts = rq->nsect == 0 || r.op == Op::ZoneReset ? 1 : (rq->nsect + max - 1) / max;
  rq->cmds.resize(parts);
  rq->data.resize(std::max<uint32_t>(rq->nsect, 1));
  // The host's own bytes go straight to and from its buffer (the live source checks alignment
  // and the end: its buffer holds nsect sectors); else the driver's.
  uint8_t* bytes = nullptr;
  if (r.buffer && r.op != Op::Flush && r.op != Op::Trim && r.op != Op::ZoneReset) bytes = r.buffer;
  else if (o_.payload) {
    rq->payload.resize(size_t(rq->nsect) * 4096);
    bytes = rq->payload.data();
  }
  for (uint32_t i = 0; i < parts; i++) {
    HostCommand& c = rq->cmds[i];
    c = HostCommand{};
    c.opcode = opcode_of(r.op);
    if (r.op == Op::Write && r.fua) c.cdw[0] = SSD_WRITE_FUA;
    if (r.op == Op::Write && r.placement != workload::kNoPlacement)   // FDP's data placement directive
      c.cdw[1] = SSD_FDP_DTYPE_PLACEMENT << SSD_WRITE_DTYPE_SHIFT | r.placement;
    if (r.op == Op::ZoneReset) c.cdw[0] = SSD_ZNS_ZSA_RESET;   // the zone at c.lba; no data
    c.queue = uint16_t(queue_of_cpu(streams_[s].cpu));
    c.lba = rq->lba + uint64_t(i) * max;
    c.nsect = rq->nsect == 0 || r.op == Op::ZoneReset ? 0 : std::min(max, rq->nsect - i * max);
    c.data = rq->data.data() + size_t(i) * max;
    c.payload = bytes && c.nsect ? bytes + size_t(i) * max * 4096 : nullptr;
    c.user = uint64_t(rq->index) << 16;
  }
  rq->parts_left = parts;
  out = rq;
  return true;
}

void HostDriver::issue(Request* rq, sc_time& delay) {
  const sc_time now = sc_core::sc_time_stamp() + delay;
  const bool in_range = rq->lba + rq->nsect <= capacity_;
  rq->t_issue_ns = ns_of(now);
  if (rq->req.op == Op::Write && in_range) {
    rq->seq = checker_->write_submitted(rq->lba, rq->nsect, ns_of(now), rq->data.data(), rq->req.fua || !o_.write_cache);
    writes_in_flight_++;
    if (on_write_issued) on_write_issued(delay);
    if (o_.payload && !rq->req.buffer)
      for (uint32_t i = 0; i < rq->nsect; i++)
        std::memset(&rq->payload[size_t(i) * 4096], payload_byte(rq->data[i]), 4096);
  } else if (rq->req.op == Op::Read && in_range) {
    checker_->read_submitted(rq->lba, rq->nsect, rq->snap, ns_of(now));
  } else if ((rq->req.op == Op::Trim || rq->req.op == Op::ZoneReset) && in_range) {
    checker_->trim_submitted(rq->lba, rq->nsect, ns_of(now));   // a reset clears the zone as a trim would
  }
  for (HostCommand& c : rq->cmds) {
    delay += p_.submit;   // a fixed delay (host.stack = "none"); a modelled stack charges its CPU time
    c.t_submit = sc_core::sc_time_stamp() + delay;
    hif_.submit(&c);
  }
  rq->id = issued_++;
  for (const HostCommand& c : rq->cmds) queue_outstanding_[c.queue]++;
  streams_[rq->stream].outstanding++;
}

// Issues what stream `s` may issue now (closed loop: up to its queue depth; open loop:
// everything that has arrived) and rings the doorbell once for the batch.  Never waits, so
// completions of closed-loop streams call it directly instead of waking the stream's thread.
void HostDriver::pump(unsigned s) {
  Stream& st = streams_[s];
  const bool closed = wl_->closed_loop();
  const uint32_t depth = closed ? std::max(1u, wl_->queue_depth()) : UINT32_MAX;
  const uint32_t sq_room = p_.queue_entries - 1;
  const uint16_t queue = uint16_t(queue_of_cpu(st.cpu));
  sc_time delay = sc_core::SC_ZERO_TIME;
  bool rang = false;
  while (!st.exhausted && st.outstanding < depth) {
    if (!st.pending && !may_issue_more()) { st.exhausted = true; break; }
    if (sched_ && (sched_->never_does_io(s) || !sched_->in_io_phase(s))) {
      if (sched_->never_does_io(s)) st.exhausted = true;   // CPU work only: done as a stream
      break;                                               // its CPU phase: no I/O until the next
    }
    if (!st.pending) {
      try {
        st.pending = wl_->next(s);
      } catch (const std::exception& e) {
        report_fatal(e.what());
        st.pending.reset();
      }
      if (!st.pending) {
        if (!wl_->live() || wl_->ended()) st.exhausted = true;   // (live: nothing yet, on_arrival wakes it)
        break;
      }
    }
    const sc_time arrival = closed           ? sc_core::SC_ZERO_TIME
                            : wl_->live()    ? sc_time(double(st.pending->arrival_ns), sc_core::SC_NS)
                                             : t_start_ + sc_time(double(st.pending->arrival_ns), sc_core::SC_NS);
    if (!closed && arrival > sc_core::sc_time_stamp() + delay) break;
    if (st.pending->barrier && st.outstanding > 0) break;   // its completions pump again
    if (closed && (st.pending->not_before_ns || st.pending->think_ns)) {   // paced: not before its time
      sc_time due = t_start_ + sc_time(double(st.pending->not_before_ns), sc_core::SC_NS);
      if (st.pending->think_ns) {   // nothing outstanding now (a barrier): the think starts
        if (!st.think_until) st.think_until = sc_core::sc_time_stamp() + delay + sc_time(double(st.pending->think_ns), sc_core::SC_NS);
        due = std::max(due, *st.think_until);
      }
      if (due > sc_core::sc_time_stamp() + delay) {
        // The stream's thread sleeps until then: woken to do so when a completion found it (it
        // may be waiting for completions that will not come, or for another time).
        if (!st.in_thread && st.wait_until != due) {
          st.woken = true;
          st.wake.notify(sc_core::SC_ZERO_TIME);
        }
        st.wait_until = due;
        break;
      }
      st.think_until.reset();
    }
    const uint64_t nsect_est =
        st.pending->op == Op::Flush || st.pending->op == Op::ZoneReset ? 1 : (st.pending->length + 8191) / 4096;
    const uint32_t cmds = uint32_t((nsect_est + p_.max_transfer_sectors - 1) / p_.max_transfer_sectors);
    if (queue_outstanding_[queue] + cmds > sq_room && queue_outstanding_[queue] > 0) break;
    Request* rq = nullptr;
    make_request(s, *st.pending, rq);
    if (sched_) {   // the thread's CPU time to submit it, on a CPU it may share
      delay += sched_->submit_cost(s);
      if (rq->req.op == Op::Write) sched_->wrote(s, rq->nsect);
    }
    rq->t_start = closed ? sc_core::sc_time_stamp() + delay : arrival;
    st.pending.reset();
    issue(rq, delay);
    rang = true;
  }
  if (rang) hif_.ring_doorbell(queue, delay, st.cpu);
  if (st.exhausted && st.outstanding == 0 && !st.finished) {
    st.finished = true;
    if (--streams_running_ == 0) all_done_.notify(sc_core::SC_ZERO_TIME);
  }
}

void HostDriver::stream_thread(unsigned s) {
  wait(start_);
  Stream& st = streams_[s];
  const bool closed = wl_->closed_loop();
  for (;;) {
    st.woken = false;
    st.wait_until = sc_core::SC_ZERO_TIME;
    st.in_thread = true;
    pump(s);
    st.in_thread = false;
    if (st.finished) return;
    if (st.woken) continue;   // completions came while it submitted
    if (closed && st.wait_until > sc_core::sc_time_stamp()) {   // paced: asleep until its next request's time
      wait(st.wait_until - sc_core::sc_time_stamp(), st.wake);
    } else if (!closed && st.pending && !st.exhausted) {
      const sc_time arrival = wl_->live() ? sc_time(double(st.pending->arrival_ns), sc_core::SC_NS)
                                          : t_start_ + sc_time(double(st.pending->arrival_ns), sc_core::SC_NS);
      const sc_time now = sc_core::sc_time_stamp();
      if (arrival > now) wait(arrival - now, st.wake);
      else wait(st.wake);
    } else if (sched_ && !sched_->in_io_phase(s)) {
      wait(sched_->next_io_phase(s), st.wake);
    } else if (st.outstanding) {   // asleep, or polling on its CPU (host.completion)
      hif_.wait_for_completion(st.cpu, st.wake, [&st] { return st.woken; });
    } else {
      wait(st.wake);
    }
  }
}

// Bytes 8..4095 of a host-written sector repeat one byte derived from its tag.
int HostDriver::payload_byte(const ssd_sector_tag& t) { return int((t.seq * 31u + t.lba) & 0xFF); }

void HostDriver::check_payload(const Request* rq) {
  for (uint32_t i = 0; i < rq->nsect; i++) {
    const ssd_sector_tag& t = rq->data[i];
    if (t.seq == 0) continue;   // preconditioned or never written: no host payload
    const uint8_t* p = &rq->payload[size_t(i) * 4096];
    const uint8_t want = uint8_t(payload_byte(t));
    for (uint32_t b = 8; b < 4096; b++)
      if (p[b] != want) {
        checker_->payload_mismatch(rq->lba + i, b);
        break;
      }
  }
}

void HostDriver::count_status(uint16_t status) {
  for (auto& [s, n] : status_counts_)
    if (s == status) { n++; return; }
  status_counts_.emplace_back(status, 1);
}

void HostDriver::command_done(HostCommand* c) {
  if (is_precondition_command(c)) {
    precondition_command_done(c);
    return;
  }
  const uint64_t idx = c->user >> 16;
  if (idx == UINT32_MAX) {   // admin / end-of-run command
    if (c->opcode == SSD_HOP_FLUSH && c->status == SSD_ST_OK) {
      checker_->flush_completed(admin_submit_ns_);
      check_flush(admin_submit_ns_);
    }
    admin_done_.notify(sc_core::SC_ZERO_TIME);
    return;
  }
  Request* rq = pool_[idx].get();
  if (c->status != SSD_ST_OK) count_status(c->status);
  if (--rq->parts_left == 0) request_done(rq);
}

// Holds a completed request to the error contract (see Outcomes); `why` says what is wrong
// with an unexplained one.
HostDriver::Outcome HostDriver::classify(const Request* rq, std::string& why) const {
  Outcome o = Outcome::Ok;
  for (const HostCommand& c : rq->cmds) {
    const bool past_end = c.lba + c.nsect > capacity_;
    // The message is built only for an unexplained status (the common path builds nothing).
    char status[8];
    const auto what = [&] {
      std::snprintf(status, sizeof status, "0x%04x", unsigned(c.status));
      return std::string(workload::op_name(rq->req.op)) + " of " + std::to_string(c.nsect) + " sectors at LBA " +
             std::to_string(c.lba);
    };
    if (past_end) {
      if (c.status == SSD_ST_LBA_RANGE) {
        if (o == Outcome::Ok) o = Outcome::Rejected;
        continue;
      }
      why = what() + " past the end of the namespace (" + std::to_string(capacity_) + " sectors) completed with status " +
            status + ", not LBA out of range";
      return Outcome::Unexplained;
    }
    if (c.status == SSD_ST_OK) continue;
    if (c.status == SSD_ST_MEDIA_ERROR && rq->req.op == Op::Read) {
      o = Outcome::MediaError;
      continue;
    }
    if (c.status == SSD_ST_WRITE_PROTECTED && (rq->req.op == Op::Write || rq->req.op == Op::Trim)) {
      if (o == Outcome::Ok) o = Outcome::WriteProtected;
      continue;
    }
    why = what() + " completed with status " + status + ", which nothing in the run explains";
    return Outcome::Unexplained;
  }
  return o;
}

void HostDriver::request_done(Request* rq) {
  std::string why;
  const Outcome outcome = classify(rq, why);
  const bool ok = outcome == Outcome::Ok;
  const uint64_t now_ns = ns_of(sc_core::sc_time_stamp());
  switch (rq->req.op) {
    case Op::Write:
      if (rq->seq) {
        checker_->write_completed(rq->seq, ok, now_ns);
        writes_in_flight_--;
        if (ok && (rq->req.fua || !o_.write_cache)) check_durable_write(rq->seq);
      }
      break;
    case Op::Read:
      if (after_cut_ && (ok || outcome == Outcome::MediaError)) {
        check_after_cut(rq, ok ? std::vector<uint8_t>(rq->nsect, 0) : unreadable_sectors(rq));
        if (ok) outcomes_.reads_verified++;
        else outcomes_.reads_media_error++;
      } else if (ok) {
        checker_->read_completed(rq->lba, rq->nsect, rq->snap, rq->data.data());
        if (o_.payload && !rq->req.buffer) check_payload(rq);
        outcomes_.reads_verified++;
      } else if (outcome == Outcome::MediaError) {
        // The sectors the device did not name are checked as any read's (NVMe: the rest of
        // the command's data is intact).
        outcomes_.reads_media_error++;
        const std::vector<uint8_t> bad = unreadable_sectors(rq);
        for (uint32_t i = 0; i < rq->nsect; i++) {
          if (bad[i]) {
            outcomes_.sectors_unreadable++;
            continue;
          }
          checker_->read_completed(rq->lba + i, 1, &rq->snap[i], &rq->data[i]);
          outcomes_.sectors_verified_in_failed_reads++;
        }
      }
      break;
    case Op::Trim:
    case Op::ZoneReset:
      if (rq->lba + rq->nsect <= capacity_) checker_->trim_completed(rq->lba, rq->nsect, rq->t_issue_ns, ok, now_ns);
      break;
    case Op::Flush:
      if (ok) {
        checker_->flush_completed(rq->t_issue_ns);
        check_flush(rq->t_issue_ns);
      }
      break;
    default: break;
  }
  if (wl_->live()) {
    uint16_t status = 0;
    for (const HostCommand& c : rq->cmds)
      if (c.status != SSD_ST_OK) { status = c.status; break; }
    wl_->completed(rq->req, ok, status);
  }
  if (outcome == Outcome::Rejected) outcomes_.rejected_out_of_range++;
  if (outcome == Outcome::WriteProtected) outcomes_.refused_write_protected++;
  if (outcome == Outcome::Unexplained) {
    outcomes_.unexplained++;
    if (outcomes_.first_unexplained.size() < 10) outcomes_.first_unexplained.push_back(why);
  }
  OpStats& st = stats_[size_t(rq->req.op)];
  st.requests++;
  st.bytes += uint64_t(rq->nsect) * 4096;
  if (!ok) st.errors++;
  series_.record(rq->req.op, ns_of(sc_core::sc_time_stamp() - t_start_), uint64_t(rq->nsect) * 4096,
                 ns_of(sc_core::sc_time_stamp() - rq->t_start));
  const uint64_t latency_ns = ns_of(sc_core::sc_time_stamp() - rq->t_start);
  st.latency.record(latency_ns);
  if (rq->req.part < parts_.size()) {
    PartStats& part = parts_[rq->req.part];
    OpStats& ps = part.ops[size_t(rq->req.op)];
    ps.requests++;
    ps.bytes += uint64_t(rq->nsect) * 4096;
    if (!ok) ps.errors++;
    ps.latency.record(latency_ns);
    if (!part.started || rq->t_start < part.first_issue) part.first_issue = rq->t_start;
    part.started = true;
    part.last_done = sc_core::sc_time_stamp();
  }
  if (on_request_done)
    on_request_done({rq->id, rq->req.op, rq->cmds.empty() ? uint16_t(0) : rq->cmds.front().queue, rq->lba, rq->nsect,
                     rq->t_start, sc_core::sc_time_stamp(), ok});
  if (rq->req.op == Op::Read) {
    uint16_t info = 0;
    for (const HostCommand& c : rq->cmds) info |= c.info;
    for (size_t k = 0; k < kReadWaitClasses; k++) {
      if (k == 0 ? info != 0 : !(info >> (k - 1) & 1u)) continue;
      read_waits_[k].requests++;
      read_waits_[k].latency.record(latency_ns);
    }
  }
  Stream& s = streams_[rq->stream];
  OpStats* mine = rq->req.op == Op::Read ? &s.read : rq->req.op == Op::Write ? &s.write : nullptr;
  if (mine) {
    mine->requests++;
    mine->bytes += uint64_t(rq->nsect) * 4096;
    if (!ok) mine->errors++;
    mine->latency.record(latency_ns);
  }
  s.outstanding--;
  if (sched_) sched_->woken(rq->stream);
  const uint16_t queue = rq->cmds.front().queue;
  for (const HostCommand& c : rq->cmds) queue_outstanding_[c.queue]--;
  // Every thread submitting on this queue may have been waiting for room in it (the request's
  // own thread too, wherever it runs now).  Closed-loop threads refill at once (no host think
  // time); open-loop ones wake.
  auto refill = [this](unsigned t) {   // (a host FTL submits in the thread's own context)
    if (wl_->closed_loop() && started_ && !hif_.submits_in_caller()) {
      pump(t);
    } else {
      streams_[t].woken = true;
      streams_[t].wake.notify(sc_core::SC_ZERO_TIME);
    }
  };
  if (queue_of_cpu(s.cpu) != queue) refill(rq->stream);
  for (unsigned t : queue_threads_[queue]) refill(t);
  free_.push_back(rq);
  if ((++done_ & 4095) == 0) progress();
}

// Looks once per limit: requests were in flight at the start of the interval, and none of
// them or any other completed by its end, is a stall of at least the limit.  A drive that
// livelocks (GC that cleans for ever, a pool waiting for a superblock no pool gives) keeps
// simulated time moving without completing anything: this ends the run, with exit status 3,
// where otherwise only a wall-clock limit would.
void HostDriver::watch_for_stalls() {
  while (!finished_ && fatal_errors().empty()) {
    const uint64_t done = done_, in_flight = issued_ - done_;
    wait(o_.stall_limit);
    if (finished_ || t_end_ != sc_core::SC_ZERO_TIME) return;   // the measured run is over (the final flush is not watched)
    if (in_flight > 0 && done_ == done) {
      report_fatal("no host request completed in " + std::to_string(o_.stall_limit.to_seconds() * 1e3) +
                   " ms of simulated time up to " + std::to_string(sc_core::sc_time_stamp().to_seconds()) + " s with " +
                   std::to_string(issued_ - done_) + " in flight (" + std::to_string(done_) +
                   " done): the drive stopped making progress (sim.stall_limit_ms)");
      return;
    }
  }
}

HostDriver::ThreadInfo HostDriver::thread_info(unsigned t) const {
  const Stream& s = streams_.at(t);
  return ThreadInfo{s.cpu, uint16_t(queue_of_cpu(s.cpu)), &s.read, &s.write};
}

void HostDriver::set_thread_cpu(unsigned t, uint32_t cpu) {
  if (cpu >= p_.cpus)
    throw std::out_of_range("thread " + std::to_string(t) + " moved to CPU " + std::to_string(cpu) + " of " +
                            std::to_string(p_.cpus) + " (host.cpus)");
  Stream& s = streams_.at(t);
  auto& from = queue_threads_[queue_of_cpu(s.cpu)];
  from.erase(std::find(from.begin(), from.end(), t));
  s.cpu = cpu;
  queue_threads_[queue_of_cpu(cpu)].push_back(t);
}

void HostDriver::progress() {
  if (!o_.progress) return;
  const auto now = std::chrono::steady_clock::now();
  if (std::chrono::duration<double>(now - last_progress_).count() < 2.0) return;
  last_progress_ = now;
  const double wall = std::chrono::duration<double>(now - measure_wall_start_).count();
  const double sim_ms = (sc_core::sc_time_stamp() - t_start_).to_seconds() * 1e3;
  // The share done, by requests or by simulated time (whichever the workload's extent gives, the
  // tighter of it and workload.max_requests / sim.max_time_ms), and the wall time left at this pace.
  uint64_t requests = o_.extent.requests;
  if (o_.max_requests && (!requests || o_.max_requests < requests)) requests = o_.max_requests;
  double duration_ms = double(o_.extent.duration_ns) / 1e6;
  const double limit_ms = o_.max_sim_time.to_seconds() * 1e3;
  if (limit_ms > 0 && (duration_ms == 0 || limit_ms < duration_ms)) duration_ms = limit_ms;
  double share = 0;
  if (requests && !o_.extent.duration_ns) share = double(done_) / double(requests);
  if (duration_ms > 0) share = std::max(share, sim_ms / duration_ms);
  share = std::min(share, 0.999);
  char done_part[96] = "";
  if (share > 0) {
    const double left = wall * (1 - share) / share;
    std::snprintf(done_part, sizeof done_part, "%3.0f%%, about %.0f s left; ", share * 100, left);
  }
  std::fprintf(stderr, "%s  %s%llu requests, %.3f ms simulated, %.1f s wall, %.0f req/s%s", o_.progress_in_place ? "\r" : "",
               done_part, static_cast<unsigned long long>(done_), sim_ms, wall, double(done_) / wall,
               o_.progress_in_place ? "   " : "\n");
  std::fflush(stderr);
}

}  // namespace ssdvp
