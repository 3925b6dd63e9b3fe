// The host side's run.json sections: see host_sections.h.
#include "platforms/sections/host_sections.h"

#include <string>
#include <vector>

#include "models/flash/flash_controller.h"
#include "models/host/cpu_scheduler.h"
#include "models/host/host_driver.h"
#include "models/host/integrity.h"

namespace ssdvp {

using nlohmann::json;

namespace {

json latency(const LatencyHistogram& h, bool full) {
  if (!full)
    return {{"mean", h.mean() / 1e3}, {"p50", double(h.percentile(50)) / 1e3},
            {"p99", double(h.percentile(99)) / 1e3}, {"max", double(h.max()) / 1e3}};
  return {{"mean", h.mean() / 1e3},
          {"p50", double(h.percentile(50)) / 1e3},
          {"p90", double(h.percentile(90)) / 1e3},
          {"p99", double(h.percentile(99)) / 1e3},
          {"p99.9", double(h.percentile(99.9)) / 1e3},
          {"p99.99", double(h.percentile(99.99)) / 1e3},
          {"max", double(h.max()) / 1e3}};
}

}  // namespace

SectionReporter host_ops_section(const HostDriver& driver) {
  return [&driver](json& r, const MeasuredWindow& w) {
    const double sim = w.sim_s;
    json ops = json::object();
    uint64_t total_req = 0, total_bytes = 0;
    for (auto op : {workload::Op::Read, workload::Op::Write, workload::Op::Flush, workload::Op::Trim, workload::Op::ZoneReset}) {
      const OpStats& s = driver.stats(op);
      if (!s.requests) continue;
      total_req += s.requests;
      total_bytes += s.bytes;
      ops[workload::op_name(op)] = {{"requests", s.requests},
                                    {"bytes", s.bytes},
                                    {"errors", s.errors},
                                    {"iops", sim > 0 ? double(s.requests) / sim : 0.0},
                                    {"mbps", sim > 0 ? double(s.bytes) / sim / 1e6 : 0.0},
                                    {"latency_us", latency(s.latency, true)}};
      if (op == workload::Op::Read && driver.read_wait_stats(0).requests < s.requests) {
        // Reads by the extra device work they waited for (firmware completion info).
        json waits = json::object();
        for (size_t k = 0; k < HostDriver::kReadWaitClasses; k++) {
          const OpStats& wt = driver.read_wait_stats(k);
          waits[HostDriver::read_wait_name(k)] = {{"requests", wt.requests}, {"latency_us", latency(wt.latency, false)}};
        }
        ops["read"]["waited_for"] = waits;
      }
    }
    r["ops"] = ops;
    // Each part of a composite workload over its own span (fio's job groups): a phase's IOPS
    // divided over the whole run would mislead.
    const std::vector<std::string> names = driver.workload() ? driver.workload()->part_names() : std::vector<std::string>{};
    if (!names.empty()) {
      json parts = json::array();
      for (size_t i = 0; i < names.size() && i < driver.part_stats().size(); i++) {
        const PartStats& p = driver.part_stats()[i];
        const double span = p.started ? (p.last_done - p.first_issue).to_seconds() : 0.0;
        json part_ops = json::object();
        for (size_t op = 0; op < workload::kOps; op++) {
          const OpStats& s = p.ops[op];
          if (!s.requests) continue;
          part_ops[workload::op_name(workload::Op(op))] = {{"requests", s.requests},
                                                          {"bytes", s.bytes},
                                                          {"errors", s.errors},
                                                          {"iops", span > 0 ? double(s.requests) / span : 0.0},
                                                          {"mbps", span > 0 ? double(s.bytes) / span / 1e6 : 0.0},
                                                          {"latency_us", latency(s.latency, true)}};
        }
        parts.push_back({{"name", names[i]},
                         {"start_s", p.started ? (p.first_issue - driver.measure_start()).to_seconds() : 0.0},
                         {"time_s", span},
                         {"ops", part_ops}});
      }
      r["parts"] = parts;
    }
    r["total"] = {{"requests", total_req},
                  {"iops", sim > 0 ? double(total_req) / sim : 0.0},
                  {"mbps", sim > 0 ? double(total_bytes) / sim / 1e6 : 0.0}};
  };
}

SectionReporter host_threads_section(const HostDriver& driver, uint32_t cpus, uint32_t queues) {
  return [&driver, cpus, queues](json& r, const MeasuredWindow& w) {
    const double sim = w.sim_s;
    auto op_json = [sim](const OpStats& o) {
      return json{{"requests", o.requests},
                  {"mbps", sim > 0 ? double(o.bytes) / sim / 1e6 : 0.0},
                  {"errors", o.errors},
                  {"latency_us", latency(o.latency, false)}};
    };
    json threads = json::array();
    for (unsigned t = 0; t < driver.threads(); t++) {
      const HostDriver::ThreadInfo info = driver.thread_info(t);
      json th = {{"thread", t}, {"cpu", info.cpu}, {"queue", info.queue},
                 {"requests", info.read->requests + info.write->requests}};
      if (info.read->requests) th["read"] = op_json(*info.read);
      if (info.write->requests) th["write"] = op_json(*info.write);
      threads.push_back(th);
    }
    r["threads"] = threads;
    // Commands fetched per queue in the measured window (the end snapshot is taken before the
    // final flush).
    std::vector<uint64_t> per_queue(queues, 0);
    for (size_t q = 0; q < per_queue.size() && q < w.end.queue_commands.size() && q < w.start.queue_commands.size(); q++)
      per_queue[q] = w.end.queue_commands[q] - w.start.queue_commands[q];
    json statuses = json::object();
    for (const auto& [s, n] : driver.error_statuses()) statuses[std::to_string(s)] = n;
    r["host"] = {{"cpus", cpus},
                 {"queues", queues},
                 {"commands_per_queue", per_queue},
                 {"unaligned_requests", driver.unaligned_requests()},
                 {"folded_requests", driver.folded_requests()},
                 {"error_statuses", statuses}};
    if (const CpuScheduler* sched = driver.cpu_scheduler()) r["host_cpu"] = sched->results();
  };
}

SectionReporter integrity_section(const HostDriver& driver, const FlashController& fctl,
                                  std::function<bool()> read_only) {
  return [&driver, &fctl, read_only](json& r, const MeasuredWindow& w) {
    const IntegrityChecker* ic = driver.integrity();
    if (!ic) return;
    // The error contract: every read verified or failed with a media error, no more media
    // errors than the dies injected, no status nothing explains (HostDriver::Outcomes).
    const Outcomes& o = driver.outcomes();
    // Host reads happen only in the measured phase; GC reads there count too (an upper bound).
    const uint64_t injected = fctl.uncorrectable_sectors() - w.start.uncorrectable_sectors;
    uint64_t unexplained = o.unexplained;
    std::vector<std::string> why = o.first_unexplained;
    if (o.refused_write_protected && !read_only()) {
      unexplained += o.refused_write_protected;
      why.push_back(std::to_string(o.refused_write_protected) +
                    " writes or trims were refused as write-protected, but the firmware never went read-only");
    }
    if (o.reads_media_error > injected) {
      unexplained += o.reads_media_error - injected;
      why.push_back(std::to_string(o.reads_media_error) + " reads failed with media errors, but the dies injected only " +
                    std::to_string(injected) + " uncorrectable sectors");
    }
    r["integrity"] = {{"reads_checked", o.reads_verified},
                      {"flushes_checked", driver.flushes_checked()},
                      {"durable_writes_checked", driver.durable_writes_checked()},
                      {"sectors_checked", ic->sectors_checked()},
                      {"mismatches", ic->mismatches()},
                      {"first_errors", ic->first_errors()},
                      {"reads_failed_media_error", o.reads_media_error},
                      {"sectors_unreadable", o.sectors_unreadable},
                      {"sectors_verified_in_failed_reads", o.sectors_verified_in_failed_reads},
                      {"requests_rejected_out_of_range", o.rejected_out_of_range},
                      {"requests_refused_write_protected", o.refused_write_protected},
                      {"uncorrectable_sectors_injected", injected},
                      {"unexplained_errors", unexplained},
                      {"first_unexplained", why}};
  };
}

}  // namespace ssdvp
