#include "platforms/run_report.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <fmt/format.h>

#include "models/common/config.h"
#include "models/host/host_driver.h"

namespace ssdvp {

int exit_status(const nlohmann::json& r) {
  if (r.contains("input_errors") && !r["input_errors"].empty()) return 2;
  if (!r.value("completed", false)) return 3;
  if (r.contains("recovery") && r["recovery"].contains("check") && r["recovery"]["check"]["lost"].get<uint64_t>() != 0)
    return 4;
  if (!r.contains("integrity")) return 0;
  if (r["integrity"]["mismatches"].get<uint64_t>() != 0) return 4;
  if (r["integrity"]["unexplained_errors"].get<uint64_t>() != 0) return 5;
  return 0;
}

// WAF where it means something: none without host writes; below 1 or without GC, a note saying
// what the figure leaves out (a short run's WAF is the buffer's and the padding's, not the drive's).
void print_waf(std::ostream& out, double waf, const nlohmann::json& f) {
  const uint64_t host = f.value("host_write_sectors", 0ull), programmed = f.value("flash_program_sectors", 0ull);
  const uint64_t gc_runs = f.value("gc_runs", 0ull);
  if (host == 0) {
    out << fmt::format("  WAF: none, no host writes  (programmed {}, GC copied {}, GC runs {}, erases {})\n", programmed,
                       f.value("gc_copied_sectors", 0ull), gc_runs, f.value("erases", 0ull));
    return;
  }
  out << fmt::format("  WAF {:.3f}  (host {} sectors, programmed {}, GC copied {}, GC runs {}, erases {})\n", waf, host,
                     programmed, f.value("gc_copied_sectors", 0ull), gc_runs, f.value("erases", 0ull));
  const uint64_t spare = f.value("physical_sectors", 0ull) - std::min(f.value("physical_sectors", 0ull), f.value("logical_sectors", 0ull));
  if (programmed < host)
    out << "  note: WAF below 1: writes overwritten while in the write buffer never reached flash, and what it holds at the "
           "end is not counted\n";
  if (gc_runs == 0)
    out << fmt::format("  note: no GC ran in the measured run: the WAF holds no garbage-collection cost (steady state needs "
                       "the spare space, {} sectors, written over: precondition.overwrite or a longer run)\n", spare);
}

nlohmann::json read_results(const std::string& dir) {
  std::ifstream in(dir + "/run.json");
  if (!in) throw std::runtime_error("no results in " + dir);
  return nlohmann::json::parse(in);
}

void print_summary(std::ostream& out, const nlohmann::json& r) {
  out << fmt::format("ssdvp run — platform '{}', workload: {}\n", r.value("platform", ""), r.value("workload", ""));
  if (r.contains("config_implied")) {   // values the choices made gave keys left at their defaults
    std::string list;
    for (const auto& i : r["config_implied"]) list += (list.empty() ? "" : "; ") + i.get<std::string>();
    out << "  implied: " << list << "\n";
  }
  if (r.contains("interrupted"))
    out << fmt::format("  INTERRUPTED ({}) at {:.3f} s simulated, {} host requests done: the figures below cover the run "
                       "until then\n",
                       r["interrupted"]["signal"].get<std::string>(), r["interrupted"]["at_s"].get<double>(),
                       r["interrupted"]["host_requests_done"].get<uint64_t>());
  out << fmt::format("  simulated {:.3f} ms in {:.2f} s wall ({:.0f} host requests/s; preconditioning {:.2f} s)\n",
                     r.value("sim_time_s", 0.0) * 1e3, r.value("run_wall_time_s", 0.0),
                     r.value("host_requests_per_wall_s", 0.0), r.value("precondition_wall_time_s", 0.0));
  size_t w = 6;   // the op column: as wide as its longest name (zone_reset)
  for (const auto& [name, o] : r["ops"].items()) w = std::max(w, name.size());
  out << fmt::format("  {:<{}} {:>9} {:>10} {:>9} {:>9} {:>9} {:>9} {:>9} {:>10} {:>10}\n", "op", w, "requests", "IOPS",
                     "MB/s", "mean us", "p50 us", "p99 us", "p99.9 us", "p99.99 us", "max us");
  // A row an operation; MB/s only for data (a flush moves none, a zone reset's bytes are the zone
  // it clears).
  const auto rows = [&out, w](const nlohmann::json& ops, const char* indent) {
    for (const auto& [name, o] : ops.items()) {
      const auto& l = o["latency_us"];
      const bool data = name == "read" || name == "write" || name == "trim";
      out << fmt::format("  {}{:<{}} {:>9} {:>10.0f} {:>9} {:>9.1f} {:>9.1f} {:>9.1f} {:>9.1f} {:>10.1f} {:>10.1f}\n", indent,
                         name, w - std::string(indent).size(), o["requests"].get<uint64_t>(), o["iops"].get<double>(),
                         data ? fmt::format("{:.1f}", o["mbps"].get<double>()) : std::string("-"), l["mean"].get<double>(),
                         l["p50"].get<double>(), l["p99"].get<double>(), l["p99.9"].get<double>(), l["p99.99"].get<double>(),
                         l["max"].get<double>());
    }
  };
  rows(r["ops"], "");
  if (r.contains("parts")) {   // each phase / job over its own time, as fio reports job groups
    for (const auto& p : r["parts"]) {
      out << fmt::format("  {} — {:.3f} ms from {:.3f} ms\n", p["name"].get<std::string>(), p["time_s"].get<double>() * 1e3,
                         p["start_s"].get<double>() * 1e3);
      rows(p["ops"], "  ");
    }
  }
  const auto& f = r["ftl"];
  print_waf(out, r.value("waf", 0.0), f);
  double die_sum = 0, ch_sum = 0;
  for (const auto& d : r["utilisation"]["dies"]) die_sum += d.get<double>();
  for (const auto& c : r["utilisation"]["channels"]) ch_sum += c.get<double>();
  const size_t nd = r["utilisation"]["dies"].size(), nc = r["utilisation"]["channels"].size();
  out << fmt::format("  utilisation: dies {:.1f}%, channels {:.1f}%, PCIe in {:.1f}% / out {:.1f}%, DRAM {:.1f}%\n",
                     nd ? 100 * die_sum / double(nd) : 0.0, nc ? 100 * ch_sum / double(nc) : 0.0,
                     100 * r["utilisation"].value("pcie_host_to_device", 0.0),
                     100 * r["utilisation"].value("pcie_device_to_host", 0.0), 100 * r["utilisation"].value("dram", 0.0));
  if (r.contains("mapping")) {
    const auto& m = r["mapping"];
    const double hits = m["read_lookups"]["hits"].get<double>(), misses = m["read_lookups"]["misses"].get<double>();
    out << fmt::format("  mapping: {} ({}), read lookups {:.1f}% cached, translation pages read {} / written {}, "
                       "batch updates {}, translation GC {}; reads that waited for a map write: {}\n",
                       m["scheme"].get<std::string>(), m["sched"].get<std::string>(),
                       hits + misses > 0 ? 100 * hits / (hits + misses) : 0.0, m["tp_reads"].get<uint64_t>(),
                       m["tp_writes"].get<uint64_t>(), m["batch_updates"].get<uint64_t>(),
                       m["translation_gc_runs"].get<uint64_t>(), m["reads_waited_for"]["map_write"].get<uint64_t>());
  }
  if (r.contains("fdp") && r["fdp"].contains("statistics")) {   // the host's view of the drive since power-on
    const auto& d = r["fdp"];
    const auto& st = d["statistics"];
    out << fmt::format("  FDP: {} handles ({}ly isolated), {} reclaim group(s); logs since power-on: host {:.2f} GB, "
                       "media {:.2f} GB written (WAF {:.3f}), {:.2f} GB erased, {} events\n",
                       d["handles"].get<uint32_t>(), d["isolation"].get<std::string>(), d["reclaim_groups"].get<uint32_t>(),
                       st["host_bytes_written"].get<double>() / 1e9, st["media_bytes_written"].get<double>() / 1e9,
                       st["waf"].get<double>(), st["media_bytes_erased"].get<double>() / 1e9,
                       d["events"]["count"].get<uint64_t>());
  } else if (r.contains("fdp")) {
    out << fmt::format("  FDP: the logs were not read (status {})\n", r["fdp"]["log_status"].get<int>());
  }
  if (r.contains("readahead")) {
    const auto& a = r["readahead"];
    const auto& no = a["not_read_ahead_sectors"];
    out << fmt::format("  read-ahead: {}, {} sectors predicted, {} read ahead ({} used), host reads {:.1f}% from the cache\n"
                       "    not read ahead: {} already cached, {} in the write buffer, {} beyond half the cache, {} with "
                       "no cache entry free, {} past the namespace, {} whose map entry was not cached\n",
                       a["policy"].get<std::string>(), a["predicted_sectors"].get<uint64_t>(),
                       a["prefetch_sectors"].get<uint64_t>(), a["prefetch_useful"].get<uint64_t>(),
                       100 * a["hit_ratio"].get<double>(), no["already_in_the_cache"].get<uint64_t>(),
                       no["in_the_write_buffer"].get<uint64_t>(), no["beyond_half_the_cache"].get<uint64_t>(),
                       no["no_cache_entry_free"].get<uint64_t>(), no["past_the_namespace"].get<uint64_t>(),
                       no["map_not_cached"].get<uint64_t>());
  }
  if (r.contains("host") && r["host"].value("folded_requests", uint64_t(0)) > 0)   // (said here, not only in run.json)
    out << fmt::format("  note: {} requests addressed beyond the namespace were folded into it (workload.address = "
                       "\"fold\"; \"strict\" sends them as they are, to be rejected)\n",
                       r["host"]["folded_requests"].get<uint64_t>());
  if (r.contains("workload_job_file_left_out")) {   // fio options of the job file with no effect here
    std::string list;
    for (const auto& o : r["workload_job_file_left_out"]) list += (list.empty() ? "" : ", ") + o.get<std::string>();
    out << "  note: the job file's options with no effect on a simulated host were left out: " << list << "\n";
  }
  if (r.contains("integrity")) {
    const auto& i = r["integrity"];
    out << fmt::format("  integrity: {} reads checked ({} sectors), {} mismatches, {} failed with media errors",
                       i["reads_checked"].get<uint64_t>(), i["sectors_checked"].get<uint64_t>(),
                       i["mismatches"].get<uint64_t>(), i["reads_failed_media_error"].get<uint64_t>());
    if (const uint64_t n = i["uncorrectable_sectors_injected"].get<uint64_t>()) out << fmt::format(" ({} uncorrectable sectors injected)", n);
    if (const uint64_t n = i["requests_rejected_out_of_range"].get<uint64_t>()) out << fmt::format(", {} requests rejected out of range", n);
    if (const uint64_t n = i.value("requests_refused_write_protected", uint64_t(0)))
      out << fmt::format(", {} writes/trims refused (the drive went read-only)", n);
    out << "\n";
    for (const auto& e : i["first_errors"]) out << "    " << e.get<std::string>() << "\n";
    if (const uint64_t n = i["unexplained_errors"].get<uint64_t>()) {
      out << fmt::format("  ERROR: {} requests failed without a cause:\n", n);
      for (const auto& e : i["first_unexplained"]) out << "    " << e.get<std::string>() << "\n";
    }
  }
  if (r.contains("recovery")) {
    const auto& v = r["recovery"];
    out << fmt::format("  recovery: ready {:.3f} ms after power-on, {} plane reads, {} superblocks with data ({} partly written, {} unreadable superpages)\n",
                       v["boot_to_ready_s"].get<double>() * 1e3, v["plane_reads"].get<uint64_t>(),
                       v["used_superblocks"].get<uint64_t>(), v["partly_written_superblocks"].get<uint64_t>(),
                       v["unreadable_superpages"].get<uint64_t>());
    if (v.contains("check")) {
      const auto& c = v["check"];
      out << fmt::format("  after the power cut: {} sectors read back, {} lost, {} newer than their durable write, {} zeros\n",
                         c["sectors_checked"].get<uint64_t>(), c["lost"].get<uint64_t>(),
                         c["newer_than_durable"].get<uint64_t>(), c["zeros"].get<uint64_t>());
      for (const auto& e : c["first_lost"]) out << "    " << e.get<std::string>() << "\n";
    }
  }
}

void prepare_output_dir(const std::string& where, const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    throw ConfigError(where + ": " + dir + " is there and is not a folder: the run's output needs a folder (give another "
                      "path with -o)");
  fs::create_directories(dir, ec);
  if (ec) throw ConfigError(where + ": cannot make the output folder " + dir + ": " + ec.message());
}

std::string write_outputs(const std::string& dir, const nlohmann::json& r, const HostDriver& driver) {
  namespace fs = std::filesystem;
  fs::create_directories(dir);
  const fs::path json_path = fs::path(dir) / "run.json";
  std::ofstream(json_path) << r.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  for (auto op : {workload::Op::Read, workload::Op::Write, workload::Op::Flush, workload::Op::Trim, workload::Op::ZoneReset}) {
    const OpStats& s = driver.stats(op);
    if (!s.requests) continue;
    std::ofstream csv(fs::path(dir) / (std::string("latency_") + workload::op_name(op) + ".csv"));
    s.latency.write_csv(csv);
  }
  if (driver.series().on()) {
    std::ofstream csv(fs::path(dir) / "throughput.csv");
    driver.series().write_csv(csv);
  }
  return json_path.string();
}

}  // namespace ssdvp
