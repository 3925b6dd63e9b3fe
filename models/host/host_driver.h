// Host workload driver: the host side of the NVMe-like interface.
//
// Models: one host thread per workload stream (job), each running on a host CPU (host.cpus;
// host.thread_cpus, else thread t on CPU t mod cpus; set_thread_cpu moves it at run time) and
// submitting on that CPU's queue (CPU c: queue c mod host.queues, as blk-mq maps them); closed loop (keep the stream's queue depth outstanding) or open loop
// (submit at the trace's arrival times, scaled); requests split into commands of at most
// host.max_transfer_kib, as a block layer does; requests turned into 4 KiB sectors (aligned
// outward, counted) and folded into the capacity when configured; one doorbell per batch of
// submissions; every request's latency from submission (closed loop) or arrival (open loop)
// to completion; every read checked by the IntegrityChecker; every request's outcome held to
// the error contract (see Outcomes).  Before the workload it waits
// for the firmware, then preconditions the drive: with the vendor command, or by writing the
// fill through the drive (precondition.mode; models/host/host_driver_precondition.cpp).
// Per-thread figures (requests, bytes, latency of reads and writes) for run.json.
// With host.cpu.types the threads alternate I/O and CPU phases on shared CPUs, balanced by
// the OS and (host.migration) by MT-FTL's migration (models/host/cpu_scheduler.h); without it
// a CPU runs any number of threads at no cost.
// Leaves out: the OS block layer's merging and scheduling.
#pragma once

#include <systemc>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/common/latency_histogram.h"
#include "models/common/params.h"
#include "models/host/cpu_scheduler.h"
#include "models/host/host_interface.h"
#include "models/host/integrity.h"
#include "models/host/host_series.h"
#include "traces/workload.h"

extern "C" {
#include "ftl-sw/hal/zns_formats.h"
}

namespace ssdvp {

struct DriverOptions {
  bool precondition = true;
  PreconditionParams precond;
  bool fold = true;                 // workload.address = "fold"
  uint64_t max_requests = 0;        // 0 = all
  sc_core::sc_time max_sim_time;    // SC_ZERO_TIME = no limit
  // sim.stall_limit_ms: requests in flight and none completed for this long of simulated time
  // ends the run with an error (a drive that stopped making progress); SC_ZERO_TIME = never.
  sc_core::sc_time stall_limit;
  bool flush_at_end = true;
  bool progress = true;
  bool progress_in_place = true;   // rewrite one line ('\r': a terminal), or a line each (a file)
  bool payload = false;
  uint64_t series_interval_ns = 0;  // sim.series_interval_ms (0 = no throughput series)
  HostCpuParams cpu;                // host.cpu.*: thread phases, CPU sharing, migration
  HostCpus* host_cpus = nullptr;    // the CPUs the phases run on (with host.cpu.types)
  bool write_cache = true;          // device.volatile_write_cache: off, every write is durable
  bool fdp_logs = false;            // read the FDP logs at the end (ftl.fdp.handles > 0)
  bool zone_report = false;         // read a zoned device's zones before the workload is made
  workload::WorkloadExtent extent;  // what the workload will issue (progress: percentage, time left)
};

// The drive's FDP logs as the host read them at the end of the run (Get Log Page of each, and
// I/O Management Receive's Reclaim Unit Handle Status; formats in ftl-sw/hal/fdp_formats.h): one
// 4 KiB sector each; status: the first that failed (0: all read).
struct FdpLogs {
  bool read = false;
  uint16_t status = 0;
  std::vector<uint8_t> configs, usage, stats, events, ruh_status;
};

// What became of the measured requests.  A read is either verified (its tags checked) or
// failed with a media error; a request past the end of the namespace (workload.address =
// strict) must be rejected with SSD_ST_LBA_RANGE.  Anything else (another error status, a
// media error on a write, a request past the end that succeeded) is unexplained and fails
// the run; the platform also bounds media errors by the faults the dies injected.  A write or
// trim refused because the drive went read-only (SSD_ST_WRITE_PROTECTED: its spare blocks ran
// out) is counted, and the platform checks the firmware said it went read-only.
struct Outcomes {
  uint64_t reads_verified = 0, reads_media_error = 0, rejected_out_of_range = 0, unexplained = 0;
  uint64_t refused_write_protected = 0;
  uint64_t sectors_unreadable = 0;                 // of the failed reads: sectors named unreadable
  uint64_t sectors_verified_in_failed_reads = 0;   // ... and their other sectors, checked
  std::vector<std::string> first_unexplained;   // the first few, one line each
};

struct OpStats {
  LatencyHistogram latency;
  uint64_t requests = 0, bytes = 0, errors = 0;
};

// One part of a composite workload (a phase, a job beside others: Workload::part_names): its
// requests by operation and the span from its first issue to its last completion, over which its
// rates are figured (as fio reports each job group over its own time).
struct PartStats {
  OpStats ops[workload::kOps];
  sc_core::sc_time first_issue, last_done;
  bool started = false;
};

class HostDriver : public sc_core::sc_module {
 public:
  // The workload is built once the firmware has told the host interface the capacity.
  using WorkloadFactory = std::function<std::unique_ptr<workload::Workload>(uint64_t capacity_bytes)>;
  HostDriver(sc_core::sc_module_name name, const HostParams& p, BlockTarget& hif,
             WorkloadFactory make_workload, const DriverOptions& o);
  ~HostDriver() override;
  const workload::Workload* workload() const { return wl_.get(); }

  // Hooks for the platform: the measured run starts (after preconditioning) and ends.
  std::function<void()> on_measure_start;
  std::function<void()> on_measure_end;     // last request done, before the final flush
  std::function<void()> on_finished;
  // Drive-state snapshots (platforms/drive_snapshot.h).  after_precondition runs in the
  // driver's thread once preconditioning is done (or skipped), before the workload starts;
  // it may wait.  resume_from: the drive comes from a snapshot; preconditioning is skipped,
  // the workload starts at `at`, and the sectors below `preconditioned_below` hold
  // preconditioning's data.
  std::function<void()> after_precondition;
  // Timelines: every request of the measured run once it has completed (all its commands).
  struct RequestDone {
    uint64_t id;                    // issue order
    workload::Op op;
    uint16_t queue;                 // submission queue of its first command
    uint64_t lba;                   // 4 KiB sectors
    uint32_t nsect;
    sc_core::sc_time start, end;    // latency measured from start (submission or arrival)
    bool ok;
  };
  std::function<void(const RequestDone&)> on_request_done;
  // Every checked write as it is issued (`at`: from now, the time it is submitted), and how
  // many are issued and not yet acknowledged (ssdvp serve --power-cut signal-in-write).
  std::function<void(sc_core::sc_time at)> on_write_issued;
  uint64_t writes_in_flight() const { return writes_in_flight_; }
  // FDP (DriverOptions::fdp_logs): before the logs are read the drive is let come to rest
  // (wait_quiet, in the driver's thread: no GC or program left in flight, so the logs can be
  // held against the NAND's own counts); on_fdp_logs_read runs once they are read.
  std::function<void()> wait_quiet;
  std::function<void()> on_fdp_logs_read;
  const FdpLogs& fdp_logs() const { return fdp_logs_; }
  // DriverOptions::zone_report: every zone's descriptor as the device reported it before the
  // workload was made (the workload factory may read it).
  const std::vector<ssd_zns_zone_desc>& zone_report() const { return zone_report_; }
  struct Resume {
    sc_core::sc_time at;
    uint64_t preconditioned_below = 0;
  };
  void resume_from(const Resume& r) { resume_ = std::make_unique<Resume>(r); }
  // The sectors below this hold preconditioning's data (0: none).
  uint64_t preconditioned_below() const { return preconditioned_below_; }
  // With sim.check_flush_durability: fills, per sector, the newest host write sequence
  // number the flash holds durably (programs completed); every successful flush is then
  // checked against what was acknowledged before it (a violation fails the run).
  std::function<void(std::vector<uint32_t>& newest)> flash_versions;

  bool finished() const { return finished_; }
  sc_core::sc_time measure_start() const { return t_start_; }
  // Preconditioning is over and the measured run began; safe to ask from another thread.
  bool measuring() const { return measuring_.load(); }
  sc_core::sc_time measure_end() const { return t_end_; }
  const OpStats& stats(workload::Op op) const { return stats_[size_t(op)]; }
  // Per part of a composite workload (empty for a plain one), in Workload::part_names' order.
  const std::vector<PartStats>& part_stats() const { return parts_; }
  // Reads by the extra device work they waited for (SSD_CPLI_* in their completions): class 0
  // none, then one per bit (map read, map write, GC, queued behind writes); a read with two
  // bits counts in both.
  static constexpr size_t kReadWaitClasses = 5;
  static const char* read_wait_name(size_t c);
  const OpStats& read_wait_stats(size_t c) const { return read_waits_[c]; }
  const IntegrityChecker* integrity() const { return checker_.get(); }
  uint64_t flushes_checked() const { return flushes_checked_; }
  uint64_t durable_writes_checked() const { return durable_writes_checked_; }
  // Power cut: what the host may read back afterwards (the state now).
  DurableState durable_state() const;
  // Power-loss protection dumped the drive's buffer: as a flush sent at `t`, every write
  // acknowledged before it is durable.
  void flush_acknowledged_before(sc_core::sc_time t);
  // After a power cut: the first read of each sector is checked against `s` (the workload
  // reads the namespace back first; results in recovery_check()), later ones must read the
  // same until the workload writes or trims the sector, which is then checked as in any run
  // (IntegrityChecker::continue_after_cut).
  void check_against(DurableState s) { after_cut_ = std::make_unique<DurableState>(std::move(s)); }
 private:
  std::unique_ptr<Resume> resume_;
  uint64_t preconditioned_below_ = 0;

 public:
  struct RecoveryCheck {
    uint64_t sectors = 0, lost = 0;            // sectors checked; not an allowed answer
    uint64_t newer = 0, zeros = 0;             // of the good ones: a newer write than the durable one; zeros
    std::vector<std::string> first_lost;
  };
  const RecoveryCheck& recovery_check() const { return recovery_check_; }
  // When the firmware let the host in (power-on to ready).
  sc_core::sc_time ready_at() const { return ready_at_; }
  const Outcomes& outcomes() const { return outcomes_; }
  const HostSeries& series() const { return series_; }
  const CpuScheduler* cpu_scheduler() const { return sched_.get(); }
  uint64_t requests_done() const { return done_; }
  uint64_t unaligned_requests() const { return unaligned_; }
  uint64_t folded_requests() const { return folded_; }
  const std::vector<std::pair<uint16_t, uint64_t>>& error_statuses() const { return status_counts_; }

  // Host threads (one per workload stream): where each runs and what it did.
  static constexpr unsigned kMaxThreads = 4096;
  struct ThreadInfo {
    uint32_t cpu = 0;
    uint16_t queue = 0;
    const OpStats* read = nullptr;
    const OpStats* write = nullptr;
  };
  unsigned threads() const { return unsigned(streams_.size()); }
  ThreadInfo thread_info(unsigned t) const;
  // Moves thread t to `cpu` (its later commands go to that CPU's queue; those in flight finish
  // on the queue they were sent on).
  void set_thread_cpu(unsigned t, uint32_t cpu);
  uint32_t queue_of_cpu(uint32_t cpu) const { return cpu % p_.queues; }
  double wall_seconds() const;
  // Wall time of the measured phase (after preconditioning).
  // The measured run's wall time: its whole length once over, so far while it runs (a run
  // stopped part-way: Ctrl-C).
  double measured_wall_seconds() const {
    if (measured_wall_s_ > 0 || !started_) return measured_wall_s_;
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - measure_wall_start_).count();
  }
  // Wall time from the start of the simulation to the start of the measured phase (boot and
  // preconditioning).
  double precondition_wall_seconds() const { return precondition_wall_s_; }

 private:
  struct Request;
  struct Stream {
    uint32_t cpu = 0;                           // submits on queue_of_cpu(cpu)
    OpStats read, write;
    uint32_t outstanding = 0;
    bool exhausted = false, finished = false;
    std::optional<workload::Request> pending;   // fetched from the workload, not yet issued
    sc_core::sc_event wake;
    bool woken = false;                         // wake was notified (while the thread may not
                                                // have been waiting: it was submitting)
    // A paced closed-loop stream (Request::not_before_ns, think_ns): when pump stopped for the
    // pending request's time, that time; the think of a pending request, once it began.
    sc_core::sc_time wait_until = sc_core::SC_ZERO_TIME;
    std::optional<sc_core::sc_time> think_until;
    bool in_thread = false;                     // pump runs in the stream's own thread
  };

  void main_thread();
  // Preconditioning (models/host/host_driver_precondition.cpp).
  bool precondition();
  bool precondition_timed(uint64_t fill, uint64_t over);
  bool precondition_status_ok(uint16_t status, const std::string& what);
  static bool is_precondition_command(const HostCommand* c);
  void precondition_command_done(HostCommand* c);
  std::vector<HostCommand> pre_cmds_;
  std::vector<uint8_t> pre_completed_slot_;
  uint32_t pre_inflight_ = 0;
  uint64_t pre_completed_ = 0;
  const HostCommand* pre_failed_ = nullptr;
  sc_core::sc_event pre_done_;
  // FDP's logs at the end (models/host/host_driver_fdp.cpp).
  void read_fdp_logs();
  bool read_zone_report();
  bool admin_read(uint8_t opcode, uint32_t cdw0, std::vector<uint8_t>& out, uint64_t lba = 0, uint32_t sectors = 1);
  FdpLogs fdp_logs_;
  std::vector<ssd_zns_zone_desc> zone_report_;
  void stream_thread(unsigned s);
  void pump(unsigned s);
  bool make_request(unsigned s, const workload::Request& r, Request*& out);
  void issue(Request* rq, sc_core::sc_time& delay);
  void command_done(HostCommand* c);
  void request_done(Request* rq);
  void count_status(uint16_t st);
  enum class Outcome { Ok, MediaError, Rejected, WriteProtected, Unexplained };
  Outcome classify(const Request* rq, std::string& why) const;
  static int payload_byte(const ssd_sector_tag& t);
  void check_payload(const Request* rq);
  void progress();
  // The measured run's progress bound (DriverOptions::stall_limit), in its own thread.
  void watch_for_stalls();
  Request* alloc_request();
  bool may_issue_more() const;

  HostParams p_;
  BlockTarget& hif_;
  WorkloadFactory make_workload_;
  std::unique_ptr<workload::Workload> wl_;
  DriverOptions o_;
  std::unique_ptr<IntegrityChecker> checker_;
  std::unique_ptr<CpuScheduler> sched_;
  void check_flush(uint64_t submit_ns);
  void check_durable_write(uint32_t seq);
  uint64_t admin_submit_ns_ = 0;
  uint64_t flushes_checked_ = 0, durable_writes_checked_ = 0;
  std::unique_ptr<DurableState> after_cut_;
  sc_core::sc_time ready_at_;
  RecoveryCheck recovery_check_;
  void check_after_cut(const Request* rq, const std::vector<uint8_t>& unreadable);
  std::vector<uint8_t> unreadable_sectors(const Request* rq) const;
  std::vector<Stream> streams_;
  std::vector<std::unique_ptr<Request>> pool_;
  std::vector<Request*> free_;
  std::vector<uint32_t> queue_outstanding_;
  std::vector<std::vector<unsigned>> queue_threads_;   // threads whose CPU submits on the queue
  OpStats stats_[workload::kOps];
  std::vector<PartStats> parts_;
  OpStats read_waits_[kReadWaitClasses];
  std::vector<std::pair<uint16_t, uint64_t>> status_counts_;
  Outcomes outcomes_;
  HostSeries series_;
  sc_core::sc_event start_, all_done_, admin_done_;
  HostCommand admin_;
  uint64_t capacity_ = 0, issued_ = 0, done_ = 0, unaligned_ = 0, folded_ = 0;
  uint64_t writes_in_flight_ = 0;
  unsigned streams_running_ = 0;
  bool finished_ = false, stop_issuing_ = false, started_ = false;
  sc_core::sc_time t_start_, t_end_;
  std::chrono::steady_clock::time_point wall_start_, last_progress_, measure_wall_start_;
  std::atomic<bool> measuring_{false};   // the measured run began (read by a signal watcher)
  double measured_wall_s_ = 0, precondition_wall_s_ = 0;
};

}  // namespace ssdvp
