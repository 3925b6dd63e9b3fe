// fio-like job options: see fio_config.h.
#include "traces/fio_config.h"

#include <algorithm>
#include <limits>
#include <string_view>

#include "traces/nearest_name.h"
#include "traces/request_extent.h"
#include "traces/spec_options.h"
#include "traces/text_fields.h"

namespace ssdvp::workload {

namespace {

constexpr uint64_t kSector = 512;

struct PatternName {
  std::string_view name;
  FioPattern pattern;
};

constexpr PatternName kPatterns[] = {
    {"read", FioPattern::Read},
    {"write", FioPattern::Write},
    {"trim", FioPattern::Trim},
    {"rw", FioPattern::ReadWrite},
    {"readwrite", FioPattern::ReadWrite},
    {"randread", FioPattern::RandRead},
    {"randwrite", FioPattern::RandWrite},
    {"randtrim", FioPattern::RandTrim},
    {"randrw", FioPattern::RandReadWrite},
};

// rw=NAME or, for the sequential patterns, rw=NAME:SKIP (fio's holes: SKIP bytes after each
// request, a strided stream).
FioPattern parse_pattern(const SpecOptions& options, uint64_t* skip) {
  const std::string_view value = options.text("rw").value_or("read");
  const size_t colon = value.find(':');
  const std::string_view name = value.substr(0, colon);
  *skip = 0;
  for (const PatternName& entry : kPatterns) {
    if (entry.name != name) continue;
    if (colon != std::string_view::npos) {
      if (is_random(entry.pattern)) options.fail("rw", "a skip (NAME:SKIP) is for sequential patterns only");
      const auto bytes = parse_byte_size(value.substr(colon + 1));
      if (!bytes || *bytes % kSector != 0)
        options.fail("rw", "the skip after ':' must be a byte size, a multiple of 512");
      *skip = *bytes;
    }
    return entry.pattern;
  }
  std::vector<std::string> names;
  for (const PatternName& entry : kPatterns) names.emplace_back(entry.name);
  options.fail("rw", "unknown pattern" + did_you_mean(name, names) +
                         " (read, write, trim, rw, readwrite, randread, randwrite, "
                         "randtrim, randrw; sequential ones may add :SKIP)");
}

// zonemode=zbd (fio's): the range rounded to whole zones as fio rounds a write job's (offset up
// to a zone start, end down to one), the zone and open limits checked against the device.
void parse_zoned(const SpecOptions& options, const WorkloadContext& context, FioConfig& config) {
  const std::string_view mode = options.text("zonemode").value_or("none");
  if (mode != "none" && mode != "zbd") options.fail("zonemode", "none or zbd");
  config.zoned = mode == "zbd";
  if (!config.zoned) {
    if (options.has("max_open_zones")) options.fail("max_open_zones", "is for zonemode=zbd");
    const bool reads_only = config.pattern == FioPattern::Read || config.pattern == FioPattern::RandRead;
    if (context.zones && !reads_only)
      options.fail("zonemode", "a zoned device (device.interface = zns) takes writes at its write pointers only: zonemode=zbd");
    if (context.zones && (context.zone_size_bytes % config.block_size || config.block_size_min || config.offset % config.block_size))
      options.fail("bs", "reads of a zoned device without zonemode=zbd (every LBA, unwritten ones as zeros) must not cross "
                         "a zone boundary: bs must divide the zone size (" + std::to_string(context.zone_size_bytes) +
                         " bytes) and the offset be a multiple of it");
    return;
  }
  if (!context.zones) options.fail("zonemode", "zbd needs a zoned device (device.interface = zns)");
  if (config.pattern == FioPattern::Trim || config.pattern == FioPattern::RandTrim || config.trim_percent)
    options.fail("rw", "trims are not zoned writes (a zone is reset whole): no trim with zonemode=zbd");
  if (config.skip) options.fail("rw", "no skip with zonemode=zbd");
  const uint64_t zs = context.zone_size_bytes;
  const uint64_t first = (config.offset + zs - 1) / zs, end = (config.offset + config.size) / zs;
  if (end <= first) options.fail("size", "the range holds no whole zone (zones of " + std::to_string(zs) + " bytes)");
  config.offset = first * zs;
  config.size = (end - first) * zs;
  if (config.block_size > context.zone_capacity_bytes)
    options.fail("bs", "larger than a zone's capacity (" + std::to_string(context.zone_capacity_bytes) + " bytes)");
  if (config.block_size % 4096 || (config.block_size_min && config.block_size_min % 4096))
    options.fail(config.block_size_min ? "bsrange" : "bs", "zoned writes are whole 4 KiB sectors");
  if (config.numjobs > end - first) options.fail("numjobs", "more jobs than zones in the range: each job writes zones of its own");
  const uint64_t open = options.count("max_open_zones", context.max_open_zones);
  if (context.max_open_zones && open > context.max_open_zones)
    options.fail("max_open_zones", "above the device's " + std::to_string(context.max_open_zones));
  if (open && open < config.numjobs) options.fail("max_open_zones", "fewer than the jobs: each job keeps at least one zone open");
  config.max_open_zones = unsigned(open);
}

// R[:W[:T]] per direction (fio's R,W,T: its ',' is ':' here); as fio's, the last value given
// holds for the directions after it (500:200 is 200 for trims too), an empty one is 0 (no limit).
void parse_per_direction(const SpecOptions& options, const char* key, bool bytes, uint64_t out[3]) {
  const std::string_view list = options.text(key).value_or("");
  std::vector<std::string_view> parts;
  split_on(list, ':', parts);
  if (parts.size() > 3) options.fail(key, "at most three values, read:write:trim");
  for (size_t d = 0; d < 3; d++) {
    const std::string_view part = parts[std::min(d, parts.size() - 1)];
    const auto value = part.empty() ? std::optional<uint64_t>(0) : bytes ? parse_byte_size(part) : parse_unsigned(part);
    if (!value) options.fail(key, bytes ? "must be byte rates (bytes per second, k/m/g suffixes), read:write:trim"
                                        : "must be request rates (per second), read:write:trim");
    out[d] = *value;
  }
  if (!out[0] && !out[1] && !out[2]) options.fail(key, "every rate is 0 (no limit): leave the key out");
}

// runtime, time_based, rate_iops, rate, thinktime, thinktime_blocks (fio's; fio_workload.h).
void parse_pace(const SpecOptions& options, FioConfig& config) {
  config.runtime_ns = options.duration_ns("runtime", 0, 1000000000);   // fio: seconds by default
  if (options.has("runtime") && config.runtime_ns == 0) options.fail("runtime", "must be greater than 0");
  config.time_based = options.flag("time_based", false);
  if (config.time_based) {
    if (!config.runtime_ns) options.fail("time_based", "needs runtime= (how long the jobs run)");
    if (options.has("io") || options.has("io_size"))
      options.fail("time_based", "runs as long as runtime= and repeats its I/O: give io= or time_based, not both");
    config.requests_per_job = UINT64_MAX;
  }
  if (options.has("rate_iops")) parse_per_direction(options, "rate_iops", false, config.rate_iops);
  if (options.has("rate")) parse_per_direction(options, "rate", true, config.rate_bytes);
  config.thinktime_ns = options.duration_ns("thinktime", 0, 1000);     // fio: microseconds by default
  const uint64_t blocks = options.count("thinktime_blocks", 1);
  if (options.has("thinktime_blocks") && !config.thinktime_ns) options.fail("thinktime_blocks", "is for thinktime=");
  if (blocks == 0 || blocks > 1000000) options.fail("thinktime_blocks", "must be in 1..1000000");
  config.thinktime_blocks = unsigned(blocks);
  const bool paced = config.runtime_ns || options.has("rate_iops") || options.has("rate") || config.thinktime_ns;
  if (paced && config.zoned)
    options.fail(config.runtime_ns ? "runtime" : config.thinktime_ns ? "thinktime" : options.has("rate") ? "rate" : "rate_iops",
                 "not with zonemode=zbd (time and pace are for the block generator only)");
}

// fdp=1 (fio's): writes carry placement identifiers of the drive's FDP configuration.
void parse_fdp(const SpecOptions& options, const WorkloadContext& context, FioConfig& config) {
  config.fdp = options.flag("fdp", false);
  if (!config.fdp) {
    for (const char* key : {"fdp_pli", "fdp_pli_select"})
      if (options.has(key)) options.fail(key, "is for fdp=1");
    return;
  }
  if (!context.fdp_handles) options.fail("fdp", "the drive has no FDP configuration (ftl.fdp.handles = 0)");
  if (config.pattern == FioPattern::Read || config.pattern == FioPattern::RandRead ||
      config.pattern == FioPattern::Trim || config.pattern == FioPattern::RandTrim)
    options.fail("fdp", "needs a pattern with writes");
  const uint32_t ids = context.fdp_handles * context.fdp_groups;
  if (options.has("fdp_pli")) {
    const std::string_view list = options.text("fdp_pli").value_or("");
    size_t start = 0;
    while (start <= list.size()) {
      const size_t comma = std::min(list.find(':', start), list.size());   // ',' separates options
      const auto index = parse_unsigned(list.substr(start, comma - start));
      if (!index || *index >= ids)
        options.fail("fdp_pli", "must list placement ID indices (0.." + std::to_string(ids - 1) +
                                    ": the drive's reclaim groups x handles) separated by ':' (fio's commas separate options here)");
      config.fdp_indices.push_back(uint32_t(*index));
      start = comma + 1;
    }
  } else {
    for (uint32_t i = 0; i < ids; i++) config.fdp_indices.push_back(i);   // fio: every one
  }
  for (uint32_t i : config.fdp_indices) config.fdp_pids.push_back(fdp_placement_id(context, i));
  const std::string_view select = options.text("fdp_pli_select").value_or("roundrobin");
  using S = FioConfig::FdpSelect;
  if (select == "roundrobin") config.fdp_select = S::RoundRobin;
  else if (select == "random") config.fdp_select = S::Random;
  else if (select == "job") config.fdp_select = S::Job;
  else if (select == "hotcold") config.fdp_select = S::HotCold;
  else options.fail("fdp_pli_select", "roundrobin, random, job or hotcold");
  if (config.fdp_select == S::HotCold &&
      (config.distribution.kind != DistributionSpec::Kind::HotCold || config.fdp_pids.size() != 2 || !is_random(config.pattern)))
    options.fail("fdp_pli_select", "hotcold needs a random pattern with random_distribution=hotcold and two fdp_pli (hot, cold)");
}

}  // namespace

const char* fio_pattern_name(FioPattern pattern) {
  switch (pattern) {
    case FioPattern::Read: return "read";
    case FioPattern::Write: return "write";
    case FioPattern::Trim: return "trim";
    case FioPattern::ReadWrite: return "rw";
    case FioPattern::RandRead: return "randread";
    case FioPattern::RandWrite: return "randwrite";
    case FioPattern::RandTrim: return "randtrim";
    case FioPattern::RandReadWrite: return "randrw";
  }
  return "?";
}

bool is_random(FioPattern pattern) {
  return pattern == FioPattern::RandRead || pattern == FioPattern::RandWrite ||
         pattern == FioPattern::RandTrim || pattern == FioPattern::RandReadWrite;
}

bool is_mixed(FioPattern pattern) {
  return pattern == FioPattern::ReadWrite || pattern == FioPattern::RandReadWrite;
}

FioConfig parse_fio_config(const std::string& spec, const WorkloadContext& context) {
  const SpecOptions options(spec, spec.find(':') + 1,
                            {"rw", "bs", "bsrange", "iodepth", "numjobs", "size", "offset", "rwmixread", "io",
                             "io_size", "random_distribution", "seed", "align", "scramble", "fsync", "fua_percent",
                             "trim_percent", "zonemode", "max_open_zones", "fdp", "fdp_pli", "fdp_pli_select", "run_length",
                             "runtime", "time_based", "rate_iops", "rate", "thinktime", "thinktime_blocks"},
                            {"time_based"});
  if (options.has("bs") && options.has("bsrange")) options.fail("give bs= or bsrange=, not both");
  const uint64_t capacity = context.capacity_bytes;
  FioConfig config;
  config.pattern = parse_pattern(options, &config.skip);

  uint64_t bs_min = 0, bs_max = 0;
  if (options.has("bsrange")) {
    // fio's bsrange=MIN-MAX: sizes MIN, 2 MIN, ... up to MAX
    const std::string_view range = options.text("bsrange").value_or("");
    const size_t dash = range.find('-');
    const auto lo = dash == std::string_view::npos ? std::nullopt : parse_byte_size(range.substr(0, dash));
    const auto hi = dash == std::string_view::npos ? std::nullopt : parse_byte_size(range.substr(dash + 1));
    if (!lo || !hi || *lo == 0 || *lo % kSector != 0 || *hi < *lo || *hi % *lo != 0 || *hi > (1ull << 30))
      options.fail("bsrange", "must be MIN-MAX: byte sizes, MIN a non-zero multiple of 512, MAX a multiple of MIN up to 1 GiB");
    bs_min = *lo;
    bs_max = *hi;
  }
  const RequestExtent extent = parse_request_extent(options, capacity, bs_max ? bs_max : 4096, context.capacity_is_upper_bound);
  const uint64_t block_size = bs_max ? bs_max : extent.block_size;
  config.block_size = uint32_t(block_size);
  config.block_size_min = uint32_t(bs_min);
  config.offset = extent.offset;
  config.size = extent.size;
  // A stride of a block and its hole: it must fit the range (and 64 bits: bs + skip wrapped
  // to 0 and divided by it below).
  if (config.skip >= config.size || config.skip > std::numeric_limits<uint64_t>::max() - block_size)
    options.fail("rw", "the skip after ':' must be smaller than the range (size=" + std::to_string(config.size) + ")");

  const uint64_t numjobs = options.count("numjobs", 1);
  if (numjobs == 0 || numjobs > 65536) options.fail("numjobs", "must be in 1..65536");
  if (config.size / numjobs < block_size) {
    options.fail("numjobs", "the range gives each job less than one block of bs");
  }
  config.numjobs = static_cast<unsigned>(numjobs);

  const uint64_t iodepth = options.count("iodepth", 1);
  if (iodepth == 0 || iodepth > 65535) options.fail("iodepth", "must be in 1..65535");
  config.iodepth = static_cast<unsigned>(iodepth);

  const uint64_t read_percent = options.count("rwmixread", 50);
  if (read_percent > 100) options.fail("rwmixread", "must be in 0..100");
  config.read_percent = static_cast<unsigned>(read_percent);

  if (options.has("io") && options.has("io_size")) options.fail("give io= or io_size=, not both");
  if (options.has("io")) {
    config.requests_per_job = options.count("io", 0);
    if (config.requests_per_job == 0) options.fail("io", "must be greater than 0");
  } else if (options.has("io_size")) {
    const uint64_t io_size = options.bytes("io_size", 0);
    if (io_size < block_size) options.fail("io_size", "smaller than bs");
    config.requests_per_job = io_size / block_size;
  } else {
    config.requests_per_job = std::max<uint64_t>(1, config.size / numjobs / (block_size + config.skip));
  }

  config.align = options.bytes("align", bs_min ? bs_min : block_size);
  if (config.align == 0 || config.align % kSector != 0) {
    options.fail("align", "must be a non-zero multiple of 512");
  }
  config.distribution = parse_distribution(options, "random_distribution");
  const uint64_t positions = (config.size - block_size) / config.align + 1;
  if (config.distribution.kind == DistributionSpec::Kind::HotCold && positions < 2) {
    options.fail("random_distribution", "hotcold needs at least two blocks in the range");
  }
  config.scramble = options.flag("scramble", true);
  config.seed = options.count("seed", 0);
  const uint64_t fsync = options.count("fsync", 0);
  if (fsync > 1000000) options.fail("fsync", "must be in 0..1000000 (writes between flushes; 0: none)");
  config.fsync = unsigned(fsync);
  const uint64_t fua = options.count("fua_percent", 0), trims = options.count("trim_percent", 0);
  if (fua > 100) options.fail("fua_percent", "must be in 0..100");
  if (trims > 100) options.fail("trim_percent", "must be in 0..100");
  config.fua_percent = unsigned(fua);
  config.trim_percent = unsigned(trims);
  if ((config.fsync || fua || trims) && config.pattern != FioPattern::Write && config.pattern != FioPattern::RandWrite &&
      config.pattern != FioPattern::ReadWrite && config.pattern != FioPattern::RandReadWrite)
    options.fail(fsync ? "fsync" : fua ? "fua_percent" : "trim_percent", "needs a pattern with writes");
  if (options.has("run_length")) {
    config.run_length = options.bytes("run_length", 0);
    if (!is_random(config.pattern)) options.fail("run_length", "is for random patterns (a sequential one is one run)");
    if (config.run_length == 0 || config.run_length % block_size || config.run_length > config.size)
      options.fail("run_length", "must be a multiple of bs and at most the range (runs start at offset + k x run_length)");
    if (config.distribution.kind != DistributionSpec::Kind::Uniform || config.block_size_min)
      options.fail("run_length", "runs start uniformly: not with random_distribution or bsrange");
  }
  parse_zoned(options, context, config);
  parse_pace(options, config);
  parse_fdp(options, context, config);
  return config;
}

}  // namespace ssdvp::workload
