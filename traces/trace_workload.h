// Trace replay: the requests of a trace file, one or more streams.  Open loop (the default):
// arrival times rebased to the first request and multiplied by a scale factor.  Closed loop
// (replay=closed): time stamps ignored, each stream keeps iodepth requests outstanding in file
// order, for "total execution time" experiments and traces whose time stamps cannot be
// trusted.
//
// Models: streaming replay (one line in memory, plus requests read ahead for streams other
// than the one asked for); arrival_ns = (t - t_first) * scale; a timestamp that goes
// backwards is clamped to the previous arrival and counted; an arrival beyond the simulated
// clock's range (2^62 ps, about 53 days) is an error at its line; streams=by_device|by_pid numbers
// the distinct device or pid values 0, 1, ... in order of first appearance (a pre-scan of the
// file); max=N stops after N requests; time_unit= sets the unit of the vscsi CSV's time column.
// Leaves out: address range checks and folding (the driver's business), think time.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "traces/trace_formats.h"
#include "traces/trace_record_reader.h"
#include "traces/workload.h"

namespace ssdvp::workload {

enum class StreamMapping { Single, ByDevice, ByPid };

struct TraceOptions {
  std::string path;
  const TraceFormat* format = nullptr;  // nullptr: detect from the file
  double scale = 1.0;
  bool skip_bad = false;
  uint64_t max_requests = 0;  // 0: the whole trace
  StreamMapping streams = StreamMapping::Single;
  bool closed = false;        // replay=closed
  unsigned iodepth = 1;       // closed loop: requests outstanding per stream
  TraceParserOptions parser;
  // FDP (fdp=stream | range:N): a trace says nothing of placement, so its writes take one by
  // policy: each stream its own placement identifier (stream s: index s of the drive's list,
  // modulo), or N equal ranges of the namespace each its own (range i: index i, modulo).
  enum class Fdp { None, Stream, Range };
  Fdp fdp = Fdp::None;
  uint32_t fdp_ranges = 0;
  std::vector<uint16_t> fdp_pids;     // the drive's list (attach_fdp)
  uint64_t capacity_bytes = 0;        // the namespace (range:N)
};

// Checks fdp= against the drive (it must have an FDP configuration) and fills the identifiers.
void attach_fdp(TraceOptions& options, const WorkloadContext& context, const std::string& spec);

// Parses "trace:PATH[,key=value...]" (`path_start` is where PATH begins in `spec`); throws
// WorkloadError "workload 'SPEC': ...".
TraceOptions parse_trace_options(const std::string& spec, size_t path_start);

class TraceWorkload : public Workload {
 public:
  // `spec` is used in messages about options that do not fit the detected format.
  TraceWorkload(const TraceOptions& options, const std::string& spec);

  unsigned streams() const override { return static_cast<unsigned>(pending_.size()); }
  // Requests of `stream` in file order.  Reading ahead to find them buffers the requests of
  // other streams, so a driver should take requests of all streams in roughly arrival order.
  std::optional<Request> next(unsigned stream) override;
  bool closed_loop() const override { return options_.closed; }
  unsigned queue_depth() const override { return options_.iodepth; }
  std::string describe() const override;
  uint64_t skipped_lines() const override { return records_.skipped_lines(); }
  uint64_t clamped_arrivals() const override { return clamped_arrivals_; }
  // Reads every record (up to max=) with a reader of its own.
  void validate() const override;
  WorkloadExtent extent() const override { return {validated_records_, 0}; }

  const TraceFormat& format() const { return format_; }

 private:
  // The stream key of `record` under the configured mapping.
  std::string_view stream_key(const TraceRecord& record) const;
  // Numbers the stream keys of the whole file (up to max requests) in order of appearance.
  void number_streams(const TraceParserOptions& parser_options);
  // Reads the next record into its stream's queue; false when the trace is exhausted.
  bool read_ahead();

  TraceOptions options_;
  const TraceFormat& format_;
  TraceRecordReader records_;
  std::unordered_map<std::string, uint16_t> stream_numbers_;
  uint64_t prescanned_records_ = 0;   // requests number_streams() found
  mutable uint64_t validated_records_ = 0;   // requests validate() read (0: not yet)
  std::vector<std::deque<Request>> pending_;
  uint64_t requests_read_ = 0;
  std::optional<uint64_t> first_time_ns_;
  uint64_t last_time_ns_ = 0;
  uint64_t clamped_arrivals_ = 0;
};

}  // namespace ssdvp::workload
