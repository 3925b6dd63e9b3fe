// The parameters of a fio-like job ("fio:rw=randread,bs=4k,iodepth=32,..."), parsed and
// validated against the namespace capacity.
//
// Models: the subset of fio's job options that shapes the block request stream (pattern,
// block size, range, mix, depth, job count, amount of I/O, random distribution, alignment,
// seed).  `size` is the whole range shared by the jobs (fio's offset_increment layout), not
// a per-job size as in fio.
// Zoned namespaces: zonemode=zbd and max_open_zones (traces/zoned_fio_workload.h).
// Time and pace (fio's): runtime and time_based, rate_iops and rate per direction (read:write:trim,
// ':' for fio's ','), thinktime with thinktime_blocks (traces/fio_workload.h says how each runs).
// Leaves out: bssplit, verify, files and engines, ramp_time, rate_process=poisson,
// thinktime_spin; time and pace with zonemode=zbd.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "traces/block_distribution.h"
#include "traces/workload.h"

namespace ssdvp::workload {

enum class FioPattern {
  Read,
  Write,
  Trim,
  ReadWrite,
  RandRead,
  RandWrite,
  RandTrim,
  RandReadWrite
};

const char* fio_pattern_name(FioPattern pattern);
bool is_random(FioPattern pattern);
bool is_mixed(FioPattern pattern);

struct FioConfig {
  FioPattern pattern = FioPattern::Read;
  uint32_t block_size = 4096;     // bs, bytes (with bsrange: its largest)
  uint32_t block_size_min = 0;    // bsrange=MIN-MAX: each request MIN, 2 MIN, ... MAX bytes,
                                  // uniformly (0: every request is bs)
  unsigned iodepth = 1;           // requests kept outstanding per job
  unsigned numjobs = 1;           // streams
  uint64_t skip = 0;              // sequential patterns: bytes skipped after each request
                                  // (rw=read:SKIP, fio's holes: a strided stream)
  uint64_t offset = 0;            // first byte of the range
  uint64_t size = 0;              // bytes in the range [offset, offset + size)
  unsigned read_percent = 50;     // rwmixread, mixed patterns only
  uint64_t requests_per_job = 0;  // io, or io_size / bs
  DistributionSpec distribution;  // random patterns only
  bool scramble = true;           // spread skewed ranks over the range
  uint64_t align = 4096;          // random offsets are offset + k * align
  uint64_t seed = 0;              // mixed with the context seed and the job number
  // Durability mix (power-loss campaigns, docs/reliability.md):
  unsigned fsync = 0;             // fio's fsync=N: a flush after every N writes of a job (0: none)
  unsigned fua_percent = 0;       // writes sent with FUA (ssdvp; fio's fua=1 is 100)
  unsigned trim_percent = 0;      // write requests sent as trims of the same range instead (ssdvp)
  uint64_t run_length = 0;        // random patterns (ssdvp): sequential runs of this many bytes,
                                  // each from offset + a uniformly drawn multiple of it (a cache's
                                  // regions rewritten in no particular order); 0: off
  // Time and pace: each job on its own clock, from its first request.
  uint64_t runtime_ns = 0;        // runtime: a job issues no request after this long (0: none)
  bool time_based = false;        // time_based: the job repeats its I/O until runtime
  uint64_t rate_iops[3] = {};     // rate_iops=R[:W[:T]]: requests per second of each direction (0: any)
  uint64_t rate_bytes[3] = {};    // rate=R[:W[:T]]: bytes per second of each direction (0: any)
  uint64_t thinktime_ns = 0;      // thinktime: after thinktime_blocks requests, wait for them all to
  unsigned thinktime_blocks = 1;  // complete, then this long, before the next
  // Zoned (fio's zonemode=zbd, traces/zoned_fio_workload.h): writes at the write pointers of
  // whole zones of the range, zones reset when full.
  bool zoned = false;
  unsigned max_open_zones = 0;    // fio's max_open_zones: zones written at once (0: the device's)
  // Flexible Data Placement (fio's fdp=1): writes carry a placement identifier, one of
  // fdp_pids (fdp_pli: indices into the device's list, turned into identifiers), chosen per
  // write by fdp_select: fio's roundrobin or random, or ssdvp's job (job j writes with the
  // j-th, modulo) and hotcold (random_distribution=hotcold: the hot blocks' writes with the
  // first, the others' with the second).
  enum class FdpSelect { RoundRobin, Random, Job, HotCold };
  bool fdp = false;
  std::vector<uint16_t> fdp_pids;
  std::vector<uint32_t> fdp_indices;   // as given (for describe)
  FdpSelect fdp_select = FdpSelect::RoundRobin;
};

// Parses `spec` (starting with "fio:"); throws WorkloadError naming the key and the spec.
FioConfig parse_fio_config(const std::string& spec, const WorkloadContext& context);

}  // namespace ssdvp::workload
