// Workload interface (architecture seam 5): a stream of host block requests.
//
// Models: what a host issues to the drive — operation, byte offset and length, the stream
// (host thread / submission queue) it belongs to, and, for open-loop sources (traces), its
// arrival time.  Closed-loop sources (fio-like generators) instead give a queue depth per
// stream and the driver keeps that many requests outstanding.
// Leaves out: file-system effects, request merging, host CPU time.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ssdvp::workload {

// ZoneReset: a zoned device's Zone Management Send (reset) of the zone at `offset`, `length`
// its capacity (what it clears: the integrity check treats it as a trim of that range).
enum class Op : uint8_t { Read = 0, Write = 1, Flush = 2, Trim = 3, ZoneReset = 4 };
constexpr size_t kOps = 5;

const char* op_name(Op op);

// A write without a data placement directive (Request::placement).
inline constexpr uint16_t kNoPlacement = 0xFFFF;

struct Request {
  uint64_t arrival_ns = 0;   // open loop: arrival time (already time-scaled); closed loop: 0
  Op op = Op::Read;
  uint64_t offset = 0;       // bytes from the start of the namespace
  uint32_t length = 0;       // bytes (> 0 for Read/Write/Trim)
  uint16_t stream = 0;       // host thread / job; the driver maps it to a submission queue
  bool fua = false;          // Write: force unit access (completes once on flash)
  bool barrier = false;      // issued only once the stream has nothing outstanding (fio waits
                             // for a zone's writes before it resets the zone)
  uint16_t placement = kNoPlacement;   // Write: FDP's placement identifier (the data placement
                                       // directive), or none
  // Closed loop, paced sources (fio's rate_iops, rate): not issued before this time, ns from the
  // start of the measured run (0: as soon as the queue depth allows).
  uint64_t not_before_ns = 0;
  // Closed loop with barrier (fio's thinktime): issued this long after the stream's last
  // outstanding request completed.
  uint64_t think_ns = 0;
  // Which part of a composite workload it belongs to (Workload::part_names: a phase, a job side
  // by side with others); 0 for a plain one.
  uint16_t part = 0;
  // A live source's request (ssdvp serve): the host's own bytes, length of them (writes: the
  // data; reads: where it goes), and the source's id for it.  nullptr: the driver makes the
  // data (tags, and with sim.payload a pattern derived from them).
  uint8_t* buffer = nullptr;
  uint64_t cookie = 0;
};

// Thrown for malformed input; what() reads "file:line: what is wrong" for traces and
// "workload 'spec': what is wrong" for generator specs.
class WorkloadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What the zoned generators of a run know of the zones (fio's view, kept as it writes): bytes
// written in each zone and whether a job holds it open.  Shared by the phases of a run, so a
// read phase finds what a write phase wrote (fio reads it from the device's zone report).
struct ZoneView {
  std::vector<uint64_t> written;
  std::vector<uint8_t> open;
};

struct WorkloadContext {
  uint64_t capacity_bytes = 0;  // logical capacity of the namespace (for size=NN% and bounds)
  uint64_t seed = 1;            // base seed for generators (each stream derives its own)
  // A zoned namespace (device.interface = zns): its zones, from the device's configuration;
  // zones = 0: not zoned.
  uint64_t zone_size_bytes = 0, zone_capacity_bytes = 0;
  uint32_t zones = 0;
  uint32_t max_open_zones = 0;  // the device's limit (0: none)
  std::shared_ptr<ZoneView> zone_view = nullptr;   // (made by make_workload when null)
  // Flexible Data Placement (ftl.fdp.*): the configuration's handles and reclaim groups; 0
  // handles: the drive has none.  Placement identifier i of the device's list (fio's fdp_pli
  // indices) is group i / handles, handle i % handles (fdp_placement_id).
  uint32_t fdp_handles = 0, fdp_groups = 1;
  // The simulated time, ns from the start of the measured run: what time-based and paced
  // generators (fio's runtime, rate_iops, thinktime) read.  Empty when no simulation runs (a
  // check before elaboration): such a generator then fails at its first request.
  std::function<uint64_t()> now_ns = nullptr;
  // What capacity_bytes is, for messages: the namespace's, or (checks made before the firmware
  // has reported its namespace) an upper bound of it.
  bool capacity_is_upper_bound = false;
};

// The placement identifier of index i of the device's list (group in the upper RGIF bits).
uint16_t fdp_placement_id(const WorkloadContext& context, uint32_t index);

// What a source will issue, for progress lines: requests in all, or for a time-based source the
// simulated time it runs; 0: not known.
struct WorkloadExtent {
  uint64_t requests = 0;
  uint64_t duration_ns = 0;
};

// The extent of parts run one after the other (sequential) or side by side: known when every
// part's is known in the same unit.
WorkloadExtent combined_extent(const std::vector<WorkloadExtent>& parts, bool sequential);

class Workload {
 public:
  virtual ~Workload() = default;
  // Number of independent streams (jobs / threads).  Requests of stream s come from next(s).
  virtual unsigned streams() const = 0;
  // Next request of `stream`, or nullopt when that stream is exhausted.
  // Open-loop sources return requests in non-decreasing arrival_ns order per stream.
  virtual std::optional<Request> next(unsigned stream) = 0;
  // true: keep queue_depth() requests outstanding per stream; false: issue at arrival_ns.
  virtual bool closed_loop() const = 0;
  virtual unsigned queue_depth() const { return 1; }
  // One line for the run summary, e.g. "fio randread bs=4096 iodepth=32 numjobs=1".
  virtual std::string describe() const = 0;
  // Counters a reader keeps (lines skipped when skip_bad is on, requests out of range, ...).
  virtual uint64_t skipped_lines() const { return 0; }
  // Requests whose trace timestamp went backwards; their arrival was clamped to the previous
  // request's arrival so that arrivals never decrease.
  virtual uint64_t clamped_arrivals() const { return 0; }
  // It writes a zoned namespace as the spec allows (at write pointers, resetting zones): the
  // only kind a zoned device takes.
  virtual bool zoned() const { return false; }
  // Reads the whole input once more, on its own, and throws WorkloadError at the first
  // malformed line, so that a bad trace is named before a platform is built.  Generators
  // check everything when they are made: the default does nothing.
  virtual void validate() const {}
  // What it will issue (for progress; traces know their requests once validate() has read them).
  virtual WorkloadExtent extent() const { return {}; }
  // The parts its requests come from, named as a report would ("phase 2: fio randread ..."),
  // each request's Request::part an index into them; empty: one part, the whole.
  virtual std::vector<std::string> part_names() const { return {}; }

  // A live source: requests arrive while the simulation runs (ssdvp serve's clients).  Its
  // next(s) returning nullopt means "nothing now" until ended(); it calls on_arrival(s) from
  // the simulation's thread when stream s has a request (or the source has ended: every
  // stream), and arrival_ns is then the absolute simulated time the request arrived at.  It
  // is open loop (closed_loop() false).
  virtual bool live() const { return false; }
  virtual bool ended() const { return true; }
  std::function<void(unsigned stream)> on_arrival;
  // A live source's request is done: ok, or the drive's first error status (0 for ok; the
  // driver's own refusals, such as a request past the end, give that status too).  A read's
  // buffer holds the data.
  virtual void completed(const Request& /*r*/, bool /*ok*/, uint16_t /*status*/) {}
};

// Builds a workload from a spec string (see docs/traces.md):
//   "fio:rw=randread,bs=4k,iodepth=32,..."  fio-like generator
//   "rr:ratio=50,..."                         ratio-of-random read mix (read-ahead paper)
//   "trace:PATH[,format=...,scale=...,skip_bad=1,...]" or a bare PATH that names a file
//   "SPEC1;SPEC2;..."                         generators run one after the other (phases)
std::unique_ptr<Workload> make_workload(const std::string& spec, const WorkloadContext& ctx);

// Makes the workload and validates all of its input (Workload::validate); throws WorkloadError
// naming the spec or the file and line.  Run before elaboration, with ctx.capacity_bytes an
// upper bound of the namespace (the real one is known once the firmware has booted).
// Returns the checked workload's extent (a trace's request count costs no second read).
WorkloadExtent check_workload(const std::string& spec, const WorkloadContext& ctx);

// The parts of a composite workload (phases, jobs side by side), each made from its spec: every
// one closed-loop with the first one's queue depth (the driver keeps one depth); `kind` names a
// part in messages ("phase", "job"); own_seeds: each part its own random streams (the context's
// seed mixed with its position, as fio seeds jobs apart).  Throws WorkloadError naming the spec
// and the part.
std::vector<std::unique_ptr<Workload>> make_closed_loop_parts(const std::vector<std::string>& specs,
                                                              const WorkloadContext& ctx, const char* kind,
                                                              bool own_seeds);

}  // namespace ssdvp::workload
