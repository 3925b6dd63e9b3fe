// Open-loop trace replay: see trace_workload.h.
#include "traces/trace_workload.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "traces/spec_options.h"
#include "traces/text_fields.h"

namespace ssdvp::workload {

namespace {

// The latest arrival the simulation can reach: SystemC counts picoseconds in 64 bits (and
// converts a larger time without a check); 2^62 ps, about 53 days, leaves room for the run.
constexpr uint64_t kMaxArrivalNs = (uint64_t{1} << 62) / 1000;

const TraceFormat& resolve_format(const TraceOptions& options) {
  return options.format != nullptr ? *options.format : detect_trace_format(options.path);
}

[[noreturn]] void fail_spec(const std::string& spec, const std::string& what) {
  throw WorkloadError("workload '" + spec + "': " + what);
}

const char* mapping_name(StreamMapping mapping) {
  switch (mapping) {
    case StreamMapping::Single: return "single";
    case StreamMapping::ByDevice: return "by_device";
    case StreamMapping::ByPid: return "by_pid";
  }
  return "?";
}

}  // namespace

TraceOptions parse_trace_options(const std::string& spec, size_t path_start) {
  const size_t comma = spec.find(',', path_start);
  const size_t options_start = comma == std::string::npos ? spec.size() : comma + 1;
  const SpecOptions options(spec, options_start,
                            {"format", "scale", "skip_bad", "max", "streams", "action", "replay", "iodepth", "fdp", "device",
                             "volume", "time_unit"});
  TraceOptions trace;
  trace.path =
      spec.substr(path_start, comma == std::string::npos ? std::string::npos : comma - path_start);
  if (trace.path.empty()) options.fail("no trace file path");

  const std::string_view format = options.text("format").value_or("auto");
  if (format != "auto") {
    trace.format = find_trace_format(format);
    if (trace.format == nullptr) {
      std::string names = "auto";
      for (const TraceFormat* known : trace_formats()) names += ", " + std::string(known->name);
      options.fail("format", "unknown trace format (" + names + ")");
    }
  }
  trace.scale = options.real("scale", 1.0);
  if (trace.scale < 0) options.fail("scale", "must be >= 0");
  trace.skip_bad = options.flag("skip_bad", false);
  if (options.has("max")) {
    trace.max_requests = options.count("max", 0);
    if (trace.max_requests == 0) options.fail("max", "must be greater than 0");
  }
  const std::string_view streams = options.text("streams").value_or("single");
  if (streams == "single") {
    trace.streams = StreamMapping::Single;
  } else if (streams == "by_device" || streams == "by_volume") {
    trace.streams = StreamMapping::ByDevice;
  } else if (streams == "by_pid") {
    trace.streams = StreamMapping::ByPid;
  } else {
    options.fail("streams", "must be single, by_device (by_volume) or by_pid");
  }
  if (options.has("device") && options.has("volume")) options.fail("volume", "give device= or volume=, not both");
  for (const char* key : {"device", "volume"}) {
    if (!options.has(key)) continue;
    trace.parser.device = std::string(options.text(key).value_or(""));
    if (trace.parser.device.empty()) options.fail(key, "must name a device (the value of the trace's device column)");
  }
  const std::string_view action = options.text("action").value_or("D");
  if (action.size() != 1 || action[0] < 'A' || action[0] > 'Z') {
    options.fail("action", "must be one blkparse action letter, e.g. D or Q");
  }
  trace.parser.action = action[0];
  if (options.has("time_unit")) {
    trace.parser.time_unit = std::string(options.text("time_unit").value_or(""));
    if (!time_unit_decimal_shift(trace.parser.time_unit)) options.fail("time_unit", "must be s, ms, us or ns");
  }
  const std::string_view replay = options.text("replay").value_or("open");
  if (replay == "closed") {
    trace.closed = true;
  } else if (replay != "open") {
    options.fail("replay", "must be open (at the trace's times) or closed (keep iodepth outstanding)");
  }
  if (options.has("iodepth")) {
    if (!trace.closed) options.fail("iodepth", "only with replay=closed (an open-loop replay issues at the trace's times)");
    const uint64_t depth = options.count("iodepth", 1);
    if (depth < 1 || depth > 65535) options.fail("iodepth", "must be 1 ... 65535");
    trace.iodepth = static_cast<unsigned>(depth);
  }
  if (trace.closed && options.has("scale")) options.fail("scale", "has no meaning with replay=closed (time stamps are ignored)");
  if (options.has("fdp")) {
    const std::string_view fdp = options.text("fdp").value_or("");
    if (fdp == "stream") {
      trace.fdp = TraceOptions::Fdp::Stream;
    } else if (fdp.substr(0, 6) == "range:") {
      const auto n = parse_unsigned(fdp.substr(6));
      if (!n || *n == 0 || *n > 1024) options.fail("fdp", "range:N needs N in 1 ... 1024");
      trace.fdp = TraceOptions::Fdp::Range;
      trace.fdp_ranges = uint32_t(*n);
    } else {
      options.fail("fdp", "stream (each stream its own placement identifier) or range:N (N equal ranges of the namespace)");
    }
  }
  // Whether the format has the columns and events these options name is checked once the
  // format is known (it may be detected from the file).
  return trace;
}

TraceWorkload::TraceWorkload(const TraceOptions& options, const std::string& spec)
    : options_(options),
      format_(resolve_format(options)),
      records_(options.path, format_, options.parser, options.skip_bad) {
  const std::string format_name(format_.name);
  if (options_.streams == StreamMapping::ByDevice && !format_.has_device) {
    fail_spec(spec, "streams=by_device: format " + format_name + " has no device column");
  }
  if (options_.streams == StreamMapping::ByPid && !format_.has_pid) {
    fail_spec(spec, "streams=by_pid: format " + format_name + " has no pid column");
  }
  if (!options_.parser.device.empty() && !format_.has_device) {
    fail_spec(spec, "device=: format " + format_name + " has no device column");
  }
  if (options_.parser.action != 'D' && !format_.has_action) {
    fail_spec(spec, "action=: format " + format_name + " has no event actions");
  }
  if (&format_ == &blkparse_events_trace_format() && options_.parser.action != 'D' &&
      options_.parser.action != 'C') {
    fail_spec(spec, "action=: format " + format_name + " has only actions D and C");
  }
  if (!options_.parser.time_unit.empty() && &format_ != &vscsi_trace_format()) {
    fail_spec(spec, "time_unit=: format " + format_name + " has one time unit (docs/traces.md); only vscsi takes time_unit=");
  }
  if (!options_.parser.time_unit.empty() && records_.binary_vscsi()) {
    fail_spec(spec, "time_unit=: binary vscsi records give their times in microseconds");
  }
  if (options_.streams == StreamMapping::Single) {
    pending_.resize(1);
  } else {
    number_streams(options_.parser);
  }
}

std::string_view TraceWorkload::stream_key(const TraceRecord& record) const {
  return options_.streams == StreamMapping::ByDevice ? record.device : record.pid;
}

void TraceWorkload::number_streams(const TraceParserOptions& parser_options) {
  TraceRecordReader prescan(options_.path, format_, parser_options, options_.skip_bad);
  uint64_t records = 0;
  while (options_.max_requests == 0 || records < options_.max_requests) {
    const std::optional<TraceRecord> record = prescan.next();
    if (!record) break;
    ++records;
    const auto [entry, inserted] =
        stream_numbers_.try_emplace(std::string(stream_key(*record)), static_cast<uint16_t>(0));
    if (!inserted) continue;
    if (stream_numbers_.size() > std::numeric_limits<uint16_t>::max() + size_t{1}) {
      prescan.fail_at_line("more than 65536 distinct stream keys");
    }
    entry->second = static_cast<uint16_t>(stream_numbers_.size() - 1);
  }
  pending_.resize(std::max<size_t>(1, stream_numbers_.size()));
  prescanned_records_ = records;
}

// Every line read before the run (a bad one named with its line), and a trace that gives no
// request (a header only, or a device= / volume= filter no line matches) refused: a run of
// nothing would end with exit 0 and figures of nothing.
void TraceWorkload::validate() const {
  uint64_t records = prescanned_records_;   // (the constructor's pre-scan read it all)
  if (options_.streams == StreamMapping::Single) {
    TraceRecordReader reader(options_.path, format_, options_.parser, options_.skip_bad);
    for (records = 0; options_.max_requests == 0 || records < options_.max_requests; records++)
      if (!reader.next()) break;
  }
  validated_records_ = records;
  if (records == 0) {
    const std::string& device = options_.parser.device;
    throw WorkloadError(options_.path + ": no request " +
                        (device.empty() ? std::string("in the trace") : "of device/volume " + device + " in the trace") +
                        ": nothing to run");
  }
}

bool TraceWorkload::read_ahead() {
  if (options_.max_requests != 0 && requests_read_ == options_.max_requests) return false;
  const std::optional<TraceRecord> record = records_.next();
  if (!record) return false;
  ++requests_read_;

  uint64_t time_ns = record->time_ns;
  if (!first_time_ns_) {
    first_time_ns_ = time_ns;
    last_time_ns_ = time_ns;
  }
  if (time_ns < last_time_ns_) {
    time_ns = last_time_ns_;
    ++clamped_arrivals_;
  }
  last_time_ns_ = time_ns;

  Request request;
  const uint64_t elapsed_ns = time_ns - *first_time_ns_;
  const long double scaled_ns = static_cast<long double>(elapsed_ns) * options_.scale;
  if (!options_.closed && !(scaled_ns <= static_cast<long double>(kMaxArrivalNs))) {
    std::ostringstream what;
    what << "arrival " << scaled_ns << " ns after the first request (scale=" << options_.scale
         << ") is beyond the simulated clock's range (" << kMaxArrivalNs / 1000000000 << " s)";
    if (&format_ == &vscsi_trace_format() && options_.parser.time_unit.empty() && !records_.binary_vscsi())
      what << "; its time column was read in seconds: give time_unit= if it is in another unit";
    records_.fail_at_line(what.str());
  }
  request.arrival_ns = options_.scale == 1.0 ? elapsed_ns : static_cast<uint64_t>(std::llround(scaled_ns));
  request.op = record->op;
  request.offset = record->offset;
  request.length = record->length;
  if (options_.streams != StreamMapping::Single) {
    const auto number = stream_numbers_.find(std::string(stream_key(*record)));
    if (number == stream_numbers_.end()) {
      records_.fail_at_line("stream key not seen when the file was first scanned (file changed?)");
    }
    request.stream = number->second;
  }
  pending_[request.stream].push_back(request);
  return true;
}

std::optional<Request> TraceWorkload::next(unsigned stream) {
  if (stream >= pending_.size()) {
    throw std::out_of_range("trace workload has " + std::to_string(pending_.size()) +
                            " streams, asked for stream " + std::to_string(stream));
  }
  std::deque<Request>& queue = pending_[stream];
  while (queue.empty()) {
    if (!read_ahead()) return std::nullopt;
  }
  Request request = queue.front();
  queue.pop_front();
  if (options_.fdp != TraceOptions::Fdp::None && request.op == Op::Write) {
    const auto& pids = options_.fdp_pids;
    uint64_t index = stream;
    if (options_.fdp == TraceOptions::Fdp::Range)
      index = options_.capacity_bytes ? std::min<uint64_t>(request.offset / ((options_.capacity_bytes + options_.fdp_ranges - 1) /
                                                                             options_.fdp_ranges),
                                                           options_.fdp_ranges - 1)
                                      : 0;
    request.placement = pids[index % pids.size()];
  }
  return request;
}

void attach_fdp(TraceOptions& options, const WorkloadContext& context, const std::string& spec) {
  if (options.fdp == TraceOptions::Fdp::None) return;
  if (!context.fdp_handles)
    throw WorkloadError("workload '" + spec + "': fdp=: the drive has no FDP configuration (ftl.fdp.handles = 0)");
  for (uint32_t i = 0; i < context.fdp_handles * context.fdp_groups; i++) options.fdp_pids.push_back(fdp_placement_id(context, i));
  options.capacity_bytes = context.capacity_bytes;
}

std::string TraceWorkload::describe() const {
  std::ostringstream text;
  text << "trace " << options_.path << " format=" << format_.name;
  if (!options_.parser.device.empty()) text << " device=" << options_.parser.device;
  if (!options_.parser.time_unit.empty()) text << " time_unit=" << options_.parser.time_unit;
  if (options_.closed) text << " replay=closed iodepth=" << options_.iodepth;
  else text << " scale=" << options_.scale;
  text << " streams=" << mapping_name(options_.streams) << " (" << pending_.size() << ")";
  if (options_.max_requests != 0) text << " max=" << options_.max_requests;
  if (options_.fdp == TraceOptions::Fdp::Stream) text << " fdp=stream";
  if (options_.fdp == TraceOptions::Fdp::Range) text << " fdp=range:" << options_.fdp_ranges;
  if (format_.has_action) text << " action=" << options_.parser.action;
  return text.str();
}

}  // namespace ssdvp::workload
