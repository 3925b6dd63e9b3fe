// fio job files: see fio_job_file.h.
#include "traces/fio_job_file.h"

#include <algorithm>
#include <fstream>
#include <string_view>

#include "traces/fio_config.h"
#include "traces/text_fields.h"

namespace ssdvp::workload {

namespace {

// Options of fio's that change nothing a simulated host sends (its engine, files, logs, reports,
// CPU placement, batching and buffer contents).
constexpr std::string_view kNoEffect[] = {
    "ioengine", "filename", "directory", "name", "description", "group_reporting", "thread", "new_group",
    "norandommap", "randrepeat", "allrandrepeat", "invalidate", "lat_percentiles", "clat_percentiles",
    "slat_percentiles", "percentile_list", "log_avg_msec", "write_bw_log", "write_iops_log", "write_lat_log",
    "write_hist_log", "per_job_logs", "log_offset", "exitall", "exitall_on_error", "gtod_reduce", "disable_lat",
    "disable_clat", "disable_slat", "disable_bw_measurement", "cpus_allowed", "cpus_allowed_policy", "cpumask",
    "iodepth_batch", "iodepth_batch_submit", "iodepth_batch_complete", "iodepth_batch_complete_min",
    "iodepth_batch_complete_max", "iodepth_low", "unified_rw_reporting", "refill_buffers", "zero_buffers",
    "scramble_buffers", "buffer_pattern", "buffer_compress_percentage", "dedupe_percentage", "fixedbufs",
    "registerfiles", "sqthread_poll", "hipri", "ramp_time_is_reporting_only", "stats", "output-format",
    "eta", "eta-newline", "status-interval", "numa_cpu_nodes", "numa_mem_policy", "nice", "prio", "prioclass",
    "create_on_open", "allow_file_create", "overwrite", "end_fsync", "file_service_type", "nrfiles",
    "openfiles", "lockfile", "kb_base", "unit_base", "clocksource"};

// Options whose commas are fio's per-direction separator, written ':' in a spec.
constexpr std::string_view kPerDirection[] = {"rate", "rate_iops", "fdp_pli"};

template <class List>
bool listed(const List& list, std::string_view key) {
  return std::find(std::begin(list), std::end(list), key) != std::end(list);
}

struct Option {
  std::string key, value;
  int line;
};

struct Job {
  std::string name;
  int line;
  std::vector<Option> options;
  bool stonewall = false;
};

// Sets key in `options` (a later one overrides an earlier one, as fio's job over its global).
void put(std::vector<Option>& options, Option option) {
  for (Option& o : options)
    if (o.key == option.key) {
      o = std::move(option);
      return;
    }
  options.push_back(std::move(option));
}

}  // namespace

bool is_fio_job_file(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  while (in && std::getline(in, line)) {
    const std::string_view text = trim(line);
    if (text.empty() || text.front() == '#' || text.front() == ';') continue;
    return text.front() == '[';
  }
  return false;
}

FioJobFile read_fio_job_file(const std::string& path, const WorkloadContext& ctx) {
  std::ifstream in(path);
  if (!in) throw WorkloadError(path + ": cannot open the job file");
  FioJobFile out;
  std::vector<Option> global;
  std::vector<Job> jobs;
  bool in_global = false;
  std::string raw;
  for (int number = 1; std::getline(in, raw); number++) {
    const std::string where = path + ":" + std::to_string(number);
    const std::string_view text = trim(raw);
    if (text.empty() || text.front() == '#' || text.front() == ';') continue;
    if (text.front() == '[') {
      if (text.back() != ']' || text.size() < 3) throw WorkloadError(where + ": a section is [NAME]");
      const std::string name(text.substr(1, text.size() - 2));
      in_global = name == "global";
      if (!in_global) jobs.push_back(Job{name, number, global});
      continue;
    }
    if (jobs.empty() && !in_global) throw WorkloadError(where + ": an option before any [section]");
    if (text.front() == '$' || text.find("${") != std::string_view::npos || text.substr(0, 8) == "include ")
      throw WorkloadError(where + ": fio's includes and $VARIABLES are not read here; write the values out");
    const size_t equals = text.find('=');
    Option option{std::string(trim(text.substr(0, equals))),
                  equals == std::string_view::npos ? "1" : std::string(trim(text.substr(equals + 1))), number};
    const std::string& key = option.key;
    if (listed(kNoEffect, key)) {
      out.ignored.push_back(key + (equals == std::string_view::npos ? "" : "=" + option.value) + " (line " +
                            std::to_string(number) + ")");
      continue;
    }
    if (key == "direct") {
      if (option.value == "1") {
        out.ignored.push_back("direct=1 (line " + std::to_string(number) + ")");
        continue;
      }
      throw WorkloadError(where + ": direct=" + option.value +
                          ": buffered I/O is not modelled (the simulated host has no page cache): direct=1");
    }
    if (key == "stonewall" || key == "wait_for_previous") {
      if (in_global) throw WorkloadError(where + ": " + key + " belongs to a job, not to [global]");
      jobs.back().stonewall = option.value != "0";
      continue;
    }
    if (key == "randseed") option.key = "seed";
    if (listed(kPerDirection, option.key)) std::replace(option.value.begin(), option.value.end(), ',', ':');
    if (option.value.find(',') != std::string::npos)
      throw WorkloadError(where + ": " + key + "=" + option.value +
                          ": per-direction values (fio's READ,WRITE) are taken for rate, rate_iops and fdp_pli only; "
                          "give one value");
    if (option.value.find_first_of(";&") != std::string::npos)
      throw WorkloadError(where + ": " + key + "=" + option.value + ": ';' and '&' are not part of a value here");
    put(in_global ? global : jobs.back().options, std::move(option));
  }
  if (jobs.empty()) throw WorkloadError(path + ": no job section (only [global])");
  for (size_t i = 0; i < jobs.size(); i++) {
    const Job& job = jobs[i];
    std::string spec = "fio:";
    for (size_t k = 0; k < job.options.size(); k++)
      spec += (k ? "," : "") + job.options[k].key + "=" + job.options[k].value;
    try {
      (void)parse_fio_config(spec, ctx);
    } catch (const WorkloadError& e) {
      throw WorkloadError(path + ":" + std::to_string(job.line) + ": job [" + job.name + "]: " + e.what());
    }
    if (i > 0) out.spec += job.stonewall ? ";" : "&";
    out.spec += spec;
  }
  return out;
}

}  // namespace ssdvp::workload
