// The workload factory: dispatches a spec string on its prefix (fio:, rr:, trace:) or treats
// a spec whose part before the first ',' names an existing file as a trace.  See workload.h
// and docs/traces.md for the grammar.
#include <filesystem>
#include <string_view>
#include <vector>

#include "traces/concurrent_workload.h"
#include "traces/fio_config.h"
#include "traces/fio_job_file.h"
#include "traces/fio_workload.h"
#include "traces/phased_workload.h"
#include "traces/rr_workload.h"
#include "traces/text_fields.h"
#include "traces/trace_workload.h"
#include "traces/zoned_fio_workload.h"
#include "traces/workload.h"

namespace ssdvp::workload {

namespace {

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

bool names_existing_file(const std::string& spec) {
  std::error_code error;
  return std::filesystem::is_regular_file(spec.substr(0, spec.find(',')), error);
}

// "A<sep>B<sep>C" as its parts (empty ones kept: their workload names them).
std::vector<std::string> split_spec(const std::string& spec, char sep) {
  std::vector<std::string> parts;
  for (size_t start = 0;;) {
    const size_t end = spec.find(sep, start);
    parts.push_back(spec.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return parts;
    start = end + 1;
  }
}

}  // namespace

std::unique_ptr<Workload> make_workload(const std::string& spec, const WorkloadContext& ctx) {
  // Messages quote the spec (and a trace's path) as a C string: a NUL would cut them short.
  if (const size_t nul = spec.find('\0'); nul != std::string::npos) {
    throw WorkloadError("workload '" + printable(spec) + "': a NUL byte at offset " + std::to_string(nul));
  }
  if (ctx.zones && !ctx.zone_view) {   // one view of the zones for every phase of the run
    WorkloadContext shared = ctx;
    shared.zone_view = std::make_shared<ZoneView>();
    return make_workload(spec, shared);
  }
  if (spec.find(';') != std::string::npos && !names_existing_file(spec))   // phases
    return std::make_unique<PhasedWorkload>(split_spec(spec, ';'), ctx);
  if (spec.find('&') != std::string::npos && !names_existing_file(spec))   // jobs side by side
    return std::make_unique<ConcurrentWorkload>(split_spec(spec, '&'), ctx);
  if (starts_with(spec, "fio:")) {
    const FioConfig config = parse_fio_config(spec, ctx);
    if (config.zoned) return std::make_unique<ZonedFioWorkload>(config, ctx);
    return std::make_unique<FioWorkload>(config, ctx.seed, ctx.now_ns, spec);
  }
  if (ctx.zones && !starts_with(spec, "fio:"))   // traces and rr: know nothing of zones
    throw WorkloadError("workload '" + spec +
                        "': a zoned device (device.interface = zns) takes writes at its write pointers only: a fio: "
                        "workload with zonemode=zbd (docs/zns.md); a trace or a conventional workload runs on it through a "
                        "host FTL over zones (host.ftl = pblk, device.zns.dies_per_zone = 1: docs/host-ftl.md)");
  if (starts_with(spec, "rr:")) {
    return std::make_unique<RrWorkload>(parse_rr_config(spec, ctx), ctx.seed);
  }
  if (spec.find(',') == std::string::npos && names_existing_file(spec) && is_fio_job_file(spec))   // fio's job file
    return make_workload(read_fio_job_file(spec, ctx).spec, ctx);
  if (starts_with(spec, "trace:") || names_existing_file(spec)) {
    TraceOptions options = parse_trace_options(spec, starts_with(spec, "trace:") ? 6 : 0);
    attach_fdp(options, ctx, spec);
    return std::make_unique<TraceWorkload>(options, spec);
  }
  throw WorkloadError("workload '" + spec +
                      "': not fio:..., rr:..., trace:PATH... nor the path of an existing file");
}

std::vector<std::unique_ptr<Workload>> make_closed_loop_parts(const std::vector<std::string>& specs,
                                                              const WorkloadContext& ctx, const char* kind,
                                                              bool own_seeds) {
  std::vector<std::unique_ptr<Workload>> parts;
  for (size_t i = 0; i < specs.size(); i++) {
    const std::string& spec = specs[i];
    const std::string which = std::string(kind) + " " + std::to_string(i + 1);
    if (spec.empty()) throw WorkloadError("workload " + which + " is empty");
    WorkloadContext own = ctx;
    if (own_seeds) own.seed = ctx.seed + uint64_t(i) * 0x9E3779B97F4A7C15ull;
    auto w = make_workload(spec, own);
    if (!w->closed_loop())
      throw WorkloadError("workload '" + spec + "' (" + which + "): " + kind +
                          "s must be closed-loop generators (fio:, rr:), not traces");
    if (i > 0 && w->queue_depth() != parts[0]->queue_depth())
      throw WorkloadError("workload '" + spec + "' (" + which + "): iodepth " + std::to_string(w->queue_depth()) +
                          " differs from " + kind + " 1's " + std::to_string(parts[0]->queue_depth()) +
                          " (the driver keeps one queue depth)");
    parts.push_back(std::move(w));
  }
  return parts;
}

WorkloadExtent check_workload(const std::string& spec, const WorkloadContext& ctx) {
  const auto w = make_workload(spec, ctx);
  w->validate();
  return w->extent();
}

}  // namespace ssdvp::workload
