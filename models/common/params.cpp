#include "models/common/params.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

extern "C" {
#include "ftl-sw/hal/hal.h"
#include "ftl-sw/media/nor.h"
#include "ftl-sw/readahead/pattern_tree.h"
#include "ftl-sw/zns/zns_layout.h"
}

namespace ssdvp {

using sc_core::SC_NS;
using sc_core::SC_US;
using sc_core::sc_time;

const char* cell_name(CellType c) {
  switch (c) {
    case CellType::SLC: return "slc";
    case CellType::MLC: return "mlc";
    default: return "tlc";
  }
}

uint32_t NandParams::max_pages_per_block() const {
  uint32_t p = timing(cell).pages_per_block;
  if (slc_dies) p = std::max(p, slc.pages_per_block);
  return p;
}

uint64_t NandParams::physical_bytes() const {
  uint64_t total = 0;
  for (uint32_t d = 0; d < dies(); d++) {
    const uint32_t pslc = cell_of(d) == CellType::SLC ? 0 : pslc_blocks_per_plane;
    total += uint64_t(planes) * (blocks_of(d) - pslc) * timing(cell_of(d)).pages_per_block * page_bytes;
    total += uint64_t(planes) * pslc * pslc_pages_per_block() * page_bytes;
  }
  return total;
}

namespace {

// A time parameter as an sc_time.  SystemC keeps picoseconds in 64 bits and converts a larger
// value without a check (the time silently wraps), so a value beyond 2^62 ps (about 53 days)
// is refused naming its key.
sc_time time_value(const Config& c, const std::string& key, double v, sc_core::sc_time_unit unit) {
  static const double kPicoseconds[] = {1e-3, 1, 1e3, 1e6, 1e9, 1e12};   // SC_FS .. SC_SEC
  constexpr double kMaxPicoseconds = 4611686018427387904.0;             // 2^62
  if (!(v * kPicoseconds[unit] <= kMaxPicoseconds)) {
    std::ostringstream s;
    s << c.origin(key) << ": " << key << " = " << v << " is beyond the simulated clock's range ("
      << kMaxPicoseconds / 1e12 << " s at most)";
    throw ConfigError(s.str());
  }
  return sc_time(v, unit);
}

sc_time time_of(const Config& c, const std::string& key, sc_core::sc_time_unit unit) {
  return time_value(c, key, c.get_double(key), unit);
}

CellTiming cell_timing(const Config& c, const std::string& cell, uint32_t types) {
  CellTiming t;
  t.pages_per_block = uint32_t(c.get_int("nand." + cell + ".pages_per_block"));
  for (const char* what : {"t_read_us", "t_prog_us"}) {
    std::string key = "nand." + cell + "." + what;
    auto list = c.get_list(key);
    if (list.size() != 1 && list.size() != types) {
      std::ostringstream s;
      s << c.origin(key) << ": " << key << " has " << list.size() << " values; give 1 or "
        << types << " (one per page type)";
      throw ConfigError(s.str());
    }
    auto& out = std::string(what) == "t_read_us" ? t.t_read : t.t_prog;
    for (double us : list) out.push_back(time_value(c, key, us, SC_US));
  }
  t.t_erase = time_of(c, "nand." + cell + ".t_erase_us", SC_US);
  if (t.pages_per_block % types != 0)
    throw ConfigError(c.origin("nand." + cell + ".pages_per_block") + ": nand." + cell +
                      ".pages_per_block must be a multiple of " + std::to_string(types));
  return t;
}

// nand.fail_at: "program:DIE:BLOCK[@US], erase:DIE:BLOCK[@US]" (the die's geometry must be
// known: channels, ways and blocks per plane are read first).
std::vector<NandParams::InjectedFailure> parse_injected_failures(const Config& c, const NandParams& n) {
  const std::string key = "nand.fail_at";
  const std::string& text = c.get_string(key);
  std::vector<NandParams::InjectedFailure> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find(',', pos);
    if (end == std::string::npos) end = text.size();
    std::string item = text.substr(pos, end - pos);
    pos = end + 1;
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (item.empty()) continue;
    auto bad = [&](const std::string& why) {
      return ConfigError(c.origin(key) + ": " + key + ": '" + item + "': " + why);
    };
    NandParams::InjectedFailure f;
    std::string rest;
    if (item.rfind("program:", 0) == 0) rest = item.substr(8);
    else if (item.rfind("erase:", 0) == 0) { f.erase = true; rest = item.substr(6); }
    else throw bad("give program:DIE:BLOCK[@US] or erase:DIE:BLOCK[@US]");
    double us = 0;
    unsigned long die = 0, block = 0;
    char tail = 0;
    int got = std::sscanf(rest.c_str(), "%lu:%lu@%lf%c", &die, &block, &us, &tail);
    if (!((got == 2 && rest.find('@') == std::string::npos) || got == 3) ||
        rest.find_first_not_of("0123456789:@.eE+") != std::string::npos)
      throw bad("give program:DIE:BLOCK[@US] or erase:DIE:BLOCK[@US]");
    if (die >= n.dies()) throw bad("die " + std::to_string(die) + " does not exist (" + std::to_string(n.dies()) + " dies)");
    if (block >= n.blocks_of(uint32_t(die)))
      throw bad("block " + std::to_string(block) + " does not exist (" + std::to_string(n.blocks_of(uint32_t(die))) +
                " blocks per plane)");
    f.die = uint32_t(die);
    f.block = uint32_t(block);
    f.at = time_value(c, key, us, SC_US);
    out.push_back(f);
  }
  return out;
}

// ftl.slc_gc_low_blocks / ftl.slc_gc_high_blocks: the SLC pools' own GC thresholds
// (ftl-sw/place/placement.c); a pool whose GC only migrates out needs one open superblock and one
// being cleaned, combo's (GC copies back) keeps the GC reserve too; both 0 (the pools use
// ftl.gc_*_blocks) or both set, high >= low, on a placement policy, and with room in every SLC pool.
void check_slc_gc_thresholds(const Config& c, const NandParams& n, const FtlParams& f) {
  const uint32_t lo = f.slc_gc_low_blocks, hi = f.slc_gc_high_blocks;
  if (!lo && !hi) return;
  const auto err = [&](const std::string& key, const std::string& what) {
    throw ConfigError(c.origin(key) + ": " + key + " = " + std::to_string(key == "ftl.slc_gc_low_blocks" ? lo : hi) + " " + what);
  };
  if (!lo) err("ftl.slc_gc_low_blocks", "with ftl.slc_gc_high_blocks = " + std::to_string(hi) + ": set both, or neither");
  if (hi < lo) err("ftl.slc_gc_high_blocks", "is below ftl.slc_gc_low_blocks = " + std::to_string(lo));
  const bool copies_back = f.placement == "combo";   // its SLC GC copies young data back into SLC
  if (f.placement != "lapt" && f.placement != "slc-only" && f.placement != "slc-direct" && !copies_back)
    err("ftl.slc_gc_low_blocks", "applies to the SLC pools of a placement policy: ftl.placement = lapt, slc-only, "
                                 "slc-direct or combo (it is \"" + f.placement + "\")");
  // A pool whose GC copies back into SLC keeps the GC reserve (one free superblock host data may
  // not take, for GC's copies): its GC must start before host data stops at that reserve.
  if (copies_back && lo < 2)
    err("ftl.slc_gc_low_blocks", "with ftl.placement = combo (SLC GC copies young data back into SLC, so host data "
                                 "leaves it one free superblock) must be at least 2, or GC would start only after host "
                                 "writes stop");
  // Per SLC pool: the free superblocks GC keeps (high, plus the bad-block reserve), one open for
  // host data and one victim being migrated (or, with combo, GC's open superblock: its victims
  // are the full superblocks beside them).
  const uint64_t need = uint64_t(hi) + f.bad_block_reserve + 2;
  if (n.slc_dies && n.slc_blocks_per_plane < need)
    err("ftl.slc_gc_high_blocks", "leaves no room for a migration in an SLC die of nand.slc.blocks_per_plane = " +
                                      std::to_string(n.slc_blocks_per_plane) + " superblocks (it needs this many free, " +
                                      "one open and one being migrated: " + std::to_string(need) + ")");
  if (n.pslc_blocks_per_plane && n.pslc_blocks_per_plane < need)
    err("ftl.slc_gc_high_blocks", "leaves no room for a migration in a pSLC cache of nand.pslc.blocks_per_plane = " +
                                      std::to_string(n.pslc_blocks_per_plane) + " superblocks (it needs this many free, " +
                                      "one open and one being migrated: " + std::to_string(need) + ")");
}

// A zoned device (device.interface = zns): its zones over this flash (ftl-sw/zns/zns_layout.h),
// each impossible choice named; and what it cannot do yet refused.
void check_zoned(const Config& c, const PlatformParams& p) {
  const NandParams& n = p.nand;
  const auto& z = p.device.zns;
  if (n.slc_dies || n.pslc_blocks_per_plane)
    throw ConfigError(c.origin("device.interface") + ": device.interface = \"zns\" lays zones over one cell type, but " +
                      (n.slc_dies ? "nand.slc_dies = " + std::to_string(n.slc_dies) + " adds SLC dies"
                                  : "nand.pslc.blocks_per_plane = " + std::to_string(n.pslc_blocks_per_plane) +
                                        " adds a pSLC cache"));
  const zns_media m = {n.dies(), n.planes, n.blocks_per_plane, n.timing(n.cell).pages_per_block, n.sectors_per_page, z.dies_per_zone,
                       z.stripes_per_zone, z.spare_stripes, z.pow2_zone_size ? 1u : 0u, z.max_open, z.max_active,
                       z.zasl_sectors, 0};
  zns_layout l;
  const zns_layout_error e = zns_layout_derive(&m, &l);
  if (e == ZNS_LAYOUT_LIMITS) {
    const bool open_over = z.max_open > l.nr_zones || (z.max_active && z.max_open > z.max_active);
    const char* key = open_over ? "device.zns.max_open" : "device.zns.max_active";
    throw ConfigError(c.origin(key) + ": " + key + " = " + std::to_string(open_over ? z.max_open : z.max_active) +
                      ": the device has " + std::to_string(l.nr_zones) + " zones; device.zns.max_open must be at most device.zns.max_active and both at most the zones "
                      "(0: no limit)");
  }
  if (e != ZNS_LAYOUT_OK) {
    const char* key = e == ZNS_LAYOUT_DIE_GROUPS ? "device.zns.dies_per_zone"
                      : e == ZNS_LAYOUT_NO_ZONES ? "device.zns.stripes_per_zone"
                      : e == ZNS_LAYOUT_LIMITS   ? "device.zns.max_open"
                      : e == ZNS_LAYOUT_ZASL     ? "device.zns.zasl_kib"
                                                 : "device.interface";
    throw ConfigError(c.origin(key) + ": " + zns_layout_error_text(e) + " (" + std::to_string(n.dies()) + " dies, " +
                      std::to_string(n.blocks_per_plane) + " blocks per plane, zones of " +
                      std::to_string(z.stripes_per_zone) + " stripes)");
  }
  const bool can_fail = n.factory_bad_permille > 0 || n.program_fail_per_million > 0 || n.erase_fail_per_million > 0 ||
                        n.endurance_pe > 0 || !n.injected_failures.empty();
  if (can_fail)
    throw ConfigError(c.origin(n.factory_bad_permille > 0       ? "nand.factory_bad_permille"
                               : n.program_fail_per_million > 0 ? "nand.program_fail_per_million"
                               : n.erase_fail_per_million > 0   ? "nand.erase_fail_per_million"
                               : n.endurance_pe > 0             ? "nand.endurance_pe"
                                                                : "nand.fail_at") +
                      ": a zoned device does not remap bad blocks yet (docs/zns.md): no block failures with device.interface = "
                      "\"zns\"");
}

}  // namespace

PlatformParams PlatformParams::from(const Config& c) {
  PlatformParams p;
  p.name = c.get_string("platform.name");
  {
    const std::string iface = c.get_string("device.interface");
    p.device.interface = iface == "ocssd" ? DeviceInterface::OpenChannel
                         : iface == "zns" ? DeviceInterface::Zoned
                                          : DeviceInterface::Conventional;
  }
  p.device.ocssd_open_chunks_per_pu = uint32_t(c.get_int("device.ocssd_open_chunks_per_pu"));
  {
    auto& z = p.device.zns;
    z.dies_per_zone = uint32_t(c.get_int("device.zns.dies_per_zone"));
    z.stripes_per_zone = uint32_t(c.get_int("device.zns.stripes_per_zone"));
    z.spare_stripes = uint32_t(c.get_int("device.zns.spare_stripes"));
    z.pow2_zone_size = c.get_bool("device.zns.pow2_zone_size");
    z.max_open = uint32_t(c.get_int("device.zns.max_open"));
    z.max_active = uint32_t(c.get_int("device.zns.max_active"));
    const int64_t kib = c.get_int("device.zns.zasl_kib");
    if (kib % 4)
      throw ConfigError(c.origin("device.zns.zasl_kib") + ": device.zns.zasl_kib = " + std::to_string(kib) +
                        " is not a whole number of 4 KiB sectors");
    z.zasl_sectors = uint32_t(kib / 4);
  }
  p.device.volatile_write_cache = c.get_bool("device.volatile_write_cache");
  {
    const int64_t kib = c.get_int("device.nor_kib");
    if (kib & (kib - 1))
      throw ConfigError(c.origin("device.nor_kib") + ": device.nor_kib = " + std::to_string(kib) +
                        " is not a power of two");
    p.device.nor_bytes = uint32_t(kib) * 1024u;
  }
  p.device.plp_holdup = sc_core::sc_time(c.get_double("device.plp_energy_mj") / c.get_double("device.plp_power_w"),
                                         sc_core::SC_MS);   // mJ / W = ms

  HostParams& h = p.host;
  h.queues = uint32_t(c.get_int("host.queues"));
  h.queue_entries = uint32_t(c.get_int("host.queue_entries"));
  h.cpus = uint32_t(c.get_int("host.cpus"));
  if (h.cpus == 0) h.cpus = h.queues;
  {
    const std::string list = c.get_string("host.thread_cpus");
    std::stringstream in(list);
    std::string item;
    while (!list.empty() && std::getline(in, item, ',')) {
      size_t used = 0;
      unsigned long cpu = 0;
      try {
        cpu = std::stoul(item, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || used != item.size())
        throw ConfigError(c.origin("host.thread_cpus") + ": host.thread_cpus = \"" + list + "\": '" + item +
                          "' is not a CPU number");
      if (cpu >= h.cpus)
        throw ConfigError(c.origin("host.thread_cpus") + ": host.thread_cpus = \"" + list + "\" binds a thread to CPU " +
                          std::to_string(cpu) + ", but the host has " + std::to_string(h.cpus) +
                          " (host.cpus, 0 .. " + std::to_string(h.cpus - 1) + ")");
      h.thread_cpus.push_back(uint32_t(cpu));
    }
  }
  {
    // host.cpu.types: "io:cpu,io:cpu,..."
    const std::string list = c.get_string("host.cpu.types");
    std::stringstream in(list);
    std::string item;
    while (!list.empty() && std::getline(in, item, ',')) {
      unsigned io = 0, cpu = 0;
      char colon = 0, extra = 0;
      std::stringstream one(item);
      if (!(one >> io >> colon >> cpu) || colon != ':' || (one >> extra) || io > 100 || cpu > 100 || io + cpu != 100)
        throw ConfigError(c.origin("host.cpu.types") + ": host.cpu.types = \"" + list + "\": '" + item +
                          "' is not an I/O:CPU split in percent adding up to 100 (e.g. 70:30)");
      h.cpu_types.emplace_back(io, cpu);
    }
    h.cpu_cycle_ms = c.get_double("host.cpu.cycle_ms");
    h.cpu_io_us = c.get_double("host.cpu.io_us");
    h.cpu_balance_ms = c.get_double("host.cpu.balance_ms");
    h.migration_rounds = uint64_t(c.get_int("host.migration_rounds"));
    h.migration_select_instructions = c.get_double("host.migration_select_instructions");
    h.migration = c.get_string("host.migration") == "greedy";
    if (h.migration && h.cpu_types.empty())
      throw ConfigError(c.origin("host.migration") +
                        ": host.migration = \"greedy\" moves host threads between CPUs: it needs the host CPU "
                        "model (host.cpu.types)");
    if (h.migration && h.cpus < 2)
      throw ConfigError(c.origin("host.migration") + ": host.migration = \"greedy\" needs two host CPUs or more (host.cpus = " +
                        std::to_string(h.cpus) + ")");
  }
  h.link_mbps = c.get_double("host.link_mbps");
  h.link_latency = time_of(c, "host.link_latency_ns", SC_NS);
  h.irq = time_of(c, "host.irq_ns", SC_NS);
  h.submit = time_of(c, "host.submit_ns", SC_NS);
  {
    const std::string stack = c.get_string("host.stack");
    h.stack = stack == "poll" ? HostParams::Stack::Poll : stack == "interrupt" ? HostParams::Stack::Interrupt : HostParams::Stack::None;
  }
  h.stack_submit = time_of(c, "host.stack.submit_ns", SC_NS);
  h.stack_irq = time_of(c, "host.stack.irq_ns", SC_NS);
  h.stack_poll = time_of(c, "host.stack.poll_ns", SC_NS);
  if (h.stack != HostParams::Stack::None) h.submit = h.irq = sc_core::SC_ZERO_TIME;   // the stack's CPU time replaces them
  h.tlp_overhead_bytes = uint32_t(c.get_int("host.tlp_overhead_bytes"));
  h.max_payload_bytes = uint32_t(c.get_int("host.max_payload_bytes"));
  if (h.max_payload_bytes & (h.max_payload_bytes - 1u))
    throw ConfigError(c.origin("host.max_payload_bytes") + ": host.max_payload_bytes = " +
                      std::to_string(h.max_payload_bytes) + " is not a power of two (PCIe allows 128 .. 4096)");
  int64_t kib = c.get_int("host.max_transfer_kib");
  if (kib % 4 != 0)
    throw ConfigError(c.origin("host.max_transfer_kib") + ": host.max_transfer_kib = " +
                      std::to_string(kib) + " is not a multiple of 4");
  h.max_transfer_sectors = uint32_t(kib / 4);
  {
    HostFtlParams& hf = p.host_ftl;
    hf.kind = c.get_string("host.ftl");
    hf.writeback_cpu = uint32_t(c.get_int("host.ftl.writeback_cpu"));
    hf.gc_cpu = uint32_t(c.get_int("host.ftl.gc_cpu"));
    hf.memory_bytes = uint64_t(c.get_int("host.ftl.memory_mib")) << 20;
    hf.copy_gbps = c.get_double("host.ftl.copy_gbps");
    hf.sockets = uint32_t(c.get_int("host.cpu.sockets"));
    hf.socket_handoff = time_of(c, "host.cpu.socket_handoff_ns", SC_NS);
    hf.clock_mhz = c.get_double("host.cpu.clock_mhz");
    hf.ipc = c.get_double("host.cpu.ipc");
    for (const char* k : {"loop", "host_cmd", "sector", "flash_submit", "flash_done", "dma_submit", "gc_sector"})
      hf.cost_instructions.push_back(c.get_double(std::string("host.ftl.cost.") + k + "_instructions"));
    hf.writeback_sector_instructions = c.get_double("host.ftl.writeback_sector_instructions");
    hf.full_ring_yield = c.get_string("host.ftl.full_ring") == "yield";
    hf.cost_instructions.push_back(0);   // spin turns: a host FTL's spinning is CPU time while it waits (HostSpinLock)
    if (h.cpus % hf.sockets)
      throw ConfigError(c.origin("host.cpu.sockets") + ": host.cpu.sockets = " + std::to_string(hf.sockets) +
                        " does not divide the " + std::to_string(h.cpus) + " host CPUs (host.cpus) evenly");
    for (const char* k : {"host.ftl.writeback_cpu", "host.ftl.gc_cpu"})
      if (hf.on() && uint32_t(c.get_int(k)) >= h.cpus)
        throw ConfigError(c.origin(k) + ": " + k + " = " + std::to_string(c.get_int(k)) + " is not one of the " +
                          std::to_string(h.cpus) + " host CPUs (host.cpus)");
    if (hf.kind == "mtftl" && h.cpus > SSD_MAX_CORES)
      throw ConfigError(c.origin("host.ftl") + ": host.ftl = \"mtftl\" keeps a ring per CPU, at most " +
                        std::to_string(SSD_MAX_CORES) + " (host.cpus = " + std::to_string(h.cpus) + ")");
    if (hf.on() && h.stack == HostParams::Stack::Poll)
      throw ConfigError(c.origin("host.stack") + ": host.stack = \"poll\" with host.ftl = \"" + hf.kind +
                        "\": the host FTL completes its requests itself (a write in its submitter's context, a read "
                        "in the device's interrupt), as pblk's bios are; there is no queue to poll");
  }

  DramParams& d = p.dram;
  d.size_bytes = uint64_t(c.get_int("dram.size_mib")) << 20;
  d.bandwidth_mbps = c.get_double("dram.bandwidth_mbps");
  d.latency = time_of(c, "dram.latency_ns", SC_NS);
  d.reserved_bytes = uint64_t(c.get_int("dram.firmware_reserved_mib")) << 20;

  NandParams& n = p.nand;
  n.channels = uint32_t(c.get_int("nand.channels"));
  n.ways = uint32_t(c.get_int("nand.ways"));
  n.planes = uint32_t(c.get_int("nand.planes"));
  n.blocks_per_plane = uint32_t(c.get_int("nand.blocks_per_plane"));
  n.page_bytes = uint32_t(c.get_int("nand.page_bytes"));
  if (n.page_bytes % 4096 != 0)
    throw ConfigError(c.origin("nand.page_bytes") + ": nand.page_bytes = " +
                      std::to_string(n.page_bytes) + " is not a multiple of 4096");
  n.sectors_per_page = n.page_bytes / 4096;
  n.oob_bytes = uint32_t(c.get_int("nand.oob_bytes"));
  if (n.oob_bytes < 8 * n.sectors_per_page)
    throw ConfigError(c.origin("nand.oob_bytes") + ": nand.oob_bytes = " +
                      std::to_string(n.oob_bytes) + " cannot hold 8 bytes per sector (" +
                      std::to_string(n.sectors_per_page) + " sectors per page)");
  const std::string cell = c.get_string("nand.cell");
  n.cell = cell == "slc" ? CellType::SLC : cell == "mlc" ? CellType::MLC : CellType::TLC;
  n.slc_dies = uint32_t(c.get_int("nand.slc_dies"));
  if (n.slc_dies > n.dies())
    throw ConfigError(c.origin("nand.slc_dies") + ": nand.slc_dies = " +
                      std::to_string(n.slc_dies) + " exceeds the " + std::to_string(n.dies()) +
                      " dies (nand.channels x nand.ways)");
  n.slc_blocks_per_plane = uint32_t(c.get_int("nand.slc.blocks_per_plane"));
  if (n.slc_blocks_per_plane && !n.slc_dies)
    throw ConfigError(c.origin("nand.slc.blocks_per_plane") + ": nand.slc.blocks_per_plane = " +
                      std::to_string(n.slc_blocks_per_plane) + " sizes an SLC region, but nand.slc_dies = 0");
  if (!n.slc_blocks_per_plane) n.slc_blocks_per_plane = n.blocks_per_plane;
  n.slc = cell_timing(c, "slc", 1);
  n.mlc = cell_timing(c, "mlc", 2);
  n.tlc = cell_timing(c, "tlc", 3);
  n.pslc_blocks_per_plane = uint32_t(c.get_int("nand.pslc.blocks_per_plane"));
  if (n.pslc_blocks_per_plane) {
    if (n.cell == CellType::SLC)
      throw ConfigError(c.origin("nand.pslc.blocks_per_plane") + ": nand.pslc.blocks_per_plane = " +
                        std::to_string(n.pslc_blocks_per_plane) +
                        " puts blocks of MLC/TLC dies in SLC mode, but nand.cell = \"slc\": the dies are SLC already");
    if (n.slc_dies == n.dies())
      throw ConfigError(c.origin("nand.pslc.blocks_per_plane") + ": nand.pslc.blocks_per_plane = " +
                        std::to_string(n.pslc_blocks_per_plane) + " needs MLC/TLC dies, but all " +
                        std::to_string(n.dies()) + " dies are SLC (nand.slc_dies)");
    if (n.slc_dies)
      throw ConfigError(c.origin("nand.pslc.blocks_per_plane") + ": nand.pslc.blocks_per_plane = " +
                        std::to_string(n.pslc_blocks_per_plane) + " and nand.slc_dies = " +
                        std::to_string(n.slc_dies) + ": a device has one SLC region, SLC dies or a pSLC cache, not both");
    if (n.pslc_blocks_per_plane >= n.blocks_per_plane)
      throw ConfigError(c.origin("nand.pslc.blocks_per_plane") + ": nand.pslc.blocks_per_plane = " +
                        std::to_string(n.pslc_blocks_per_plane) + " leaves no native blocks of the " +
                        std::to_string(n.blocks_per_plane) + " per plane (nand.blocks_per_plane)");
  }
  {  // SLC mode on the native dies: one page type, 1/bits of the pages, its own timing
    const CellTiming& native = n.timing(n.cell);
    n.pslc.pages_per_block = native.pages_per_block / uint32_t(n.cell);
    for (const char* what : {"t_read_us", "t_prog_us"}) {
      const std::string key = std::string("nand.pslc.") + what;
      auto list = c.get_list(key);
      if (list.size() != 1)
        throw ConfigError(c.origin(key) + ": " + key + " has " + std::to_string(list.size()) +
                          " values; give 1 (SLC mode has one page type)");
      (std::string(what) == "t_read_us" ? n.pslc.t_read : n.pslc.t_prog).push_back(time_value(c, key, list[0], SC_US));
    }
    const double erase = c.get_double("nand.pslc.t_erase_us");
    n.pslc.t_erase = erase > 0 ? time_value(c, "nand.pslc.t_erase_us", erase, SC_US) : native.t_erase;
  }
  n.multiplane_extra = time_of(c, "nand.multiplane_extra_us", SC_US);
  n.independent_plane_reads = c.get_bool("nand.independent_plane_reads");
  n.uncorrectable_per_million = c.get_double("nand.uncorrectable_per_million");
  n.paired_page_loss = c.get_bool("nand.paired_page_loss");
  n.corrected_per_million = c.get_double("nand.corrected_per_million");
  n.ecc_retry = time_of(c, "nand.ecc_retry_us", SC_US);
  n.fault_seed = uint64_t(c.get_int("nand.fault_seed"));
  n.factory_bad_permille = c.get_double("nand.factory_bad_permille");
  n.program_fail_per_million = c.get_double("nand.program_fail_per_million");
  n.erase_fail_per_million = c.get_double("nand.erase_fail_per_million");
  n.endurance_pe = uint32_t(c.get_int("nand.endurance_pe"));
  n.worn_fail_factor = c.get_double("nand.worn_fail_factor");
  n.injected_failures = parse_injected_failures(c, n);
  RberParams& e = n.rber;
  e.base = c.get_double("nand.rber.base");
  e.wear_coeff = c.get_double("nand.rber.wear_coeff");
  e.wear_exp = c.get_double("nand.rber.wear_exp");
  e.retention_coeff = c.get_double("nand.rber.retention_coeff");
  e.retention_wear_exp = c.get_double("nand.rber.retention_wear_exp");
  e.retention_exp = c.get_double("nand.rber.retention_exp");
  e.age_offset_hours = c.get_double("nand.rber.age_offset_hours");
  e.ecc_limit = c.get_double("nand.rber.ecc_limit");
  e.retry_gain = c.get_double("nand.rber.retry_gain");
  e.max_retries = uint32_t(c.get_int("nand.rber.max_retries"));
  if (n.dies() > 255 * 255 || n.channels > 255 || n.ways > 255)
    throw ConfigError("nand.channels/nand.ways: at most 255 of each");

  ChannelParams& ch = p.channel;
  ch.model = c.get_string("channel.model");
  ch.rtl_trace = c.get_string("channel.rtl_trace");
  ch.bus_mbps = c.get_double("channel.bus_mbps");
  ch.cycle = sc_time::from_value(uint64_t(std::llround(1e6 / ch.bus_mbps)));   // ps
  if (ch.cycle == sc_core::SC_ZERO_TIME)
    throw ConfigError(c.origin("channel.bus_mbps") + ": channel.bus_mbps = " + std::to_string(ch.bus_mbps) +
                      " makes a bus cycle shorter than half a picosecond, the simulated clock's resolution");
  auto cycles = [&](const char* key, uint32_t min) {
    const double n = std::round(c.get_double(key) * 1e3 / double(ch.cycle.value()));
    if (n < min || n > 65535)
      throw ConfigError(c.origin(key) + ": " + key + " = " + std::to_string(c.get_double(key)) + " is " +
                        std::to_string(std::llround(std::min(n, 9e18))) + " bus cycles of " + std::to_string(ch.cycle.to_seconds() * 1e9) +
                        " ns; it must be " + std::to_string(min) + ".." + "65535 cycles");
    return uint32_t(n);
  };
  ch.cmd_addr_cycles = cycles("channel.cmd_addr_ns", 1);
  ch.data_setup_cycles = cycles("channel.data_setup_ns", 0);
  ch.status_cycles = cycles("channel.status_ns", 1);
  ch.rtl_monitor = c.get_bool("channel.rtl_monitor");
  if (ch.rtl_monitor && (ch.cmd_addr_cycles < 3 || ch.data_setup_cycles < 3 || ch.status_cycles < 2))
    throw ConfigError(c.origin("channel.rtl_monitor") + ": channel.rtl_monitor = true needs room for the interface's forms "
                      "on the bus: channel.cmd_addr_ns and channel.data_setup_ns of at least 3 bus cycles and "
                      "channel.status_ns of at least 2, not " + std::to_string(ch.cmd_addr_cycles) + ", " +
                      std::to_string(ch.data_setup_cycles) + " and " + std::to_string(ch.status_cycles));
  ch.cmd_addr = ch.cycle * double(ch.cmd_addr_cycles);
  ch.data_setup = ch.cycle * double(ch.data_setup_cycles);
  ch.status = ch.cycle * double(ch.status_cycles);
  if (ch.model == "rtl" && n.ways > 16)
    throw ConfigError(c.origin("channel.model") + ": channel.model = \"rtl\" drives at most 16 ways (nand.ways = " +
                      std::to_string(n.ways) + ")");

  p.fctl.desc = time_of(c, "fctl.desc_ns", SC_NS);
  p.fctl.cpl = time_of(c, "fctl.cpl_ns", SC_NS);
  if (ch.model == "rtl")
    for (const char* key : {"fctl.desc_ns", "fctl.cpl_ns"})
      if (time_of(c, key, SC_NS) < ch.cycle)
        throw ConfigError(c.origin(key) + ": " + key + " = " + std::to_string(c.get_double(key)) +
                          " is shorter than one bus cycle (" + std::to_string(ch.cycle.to_seconds() * 1e9) +
                          " ns); channel.model = \"rtl\" runs ahead of SystemC time by up to that much");

  FirmwareParams& fw = p.firmware;
  fw.mode = c.get_string("firmware.mode");
  fw.image = c.get_string("firmware.image");
  fw.clock_mhz = c.get_double("firmware.clock_mhz");
  fw.cpi = c.get_double("firmware.cpi");
  fw.quantum_instructions = uint32_t(c.get_int("firmware.quantum_instructions"));
  fw.exact_quanta = c.get_bool("firmware.exact_quanta");
  fw.skip_idle_syncs = c.get_bool("firmware.skip_idle_syncs");
  fw.profile = c.get_bool("firmware.profile");
  fw.cores = uint32_t(c.get_int("firmware.cores"));
  if (fw.cores > p.host.queues)
    throw ConfigError(c.origin("firmware.cores") + ": firmware.cores = " + std::to_string(fw.cores) +
                      " but host.queues = " + std::to_string(p.host.queues) +
                      ": each firmware core serves its own submission queues (queue q: core q mod cores), "
                      "so there must be at least as many queues as cores");
  fw.cost.resize(HAL_COST_KINDS);
  fw.cost[HAL_COST_LOOP] = time_of(c, "firmware.cost.loop_ns", SC_NS);
  fw.cost[HAL_COST_HOST_CMD] = time_of(c, "firmware.cost.host_cmd_ns", SC_NS);
  fw.cost[HAL_COST_SECTOR] = time_of(c, "firmware.cost.sector_ns", SC_NS);
  fw.cost[HAL_COST_FLASH_SUBMIT] = time_of(c, "firmware.cost.flash_submit_ns", SC_NS);
  fw.cost[HAL_COST_FLASH_DONE] = time_of(c, "firmware.cost.flash_done_ns", SC_NS);
  fw.cost[HAL_COST_DMA_SUBMIT] = time_of(c, "firmware.cost.dma_submit_ns", SC_NS);
  fw.cost[HAL_COST_GC_SECTOR] = time_of(c, "firmware.cost.gc_sector_ns", SC_NS);
  fw.cost[HAL_COST_SPIN] = time_of(c, "firmware.cost.lock_spin_ns", SC_NS);
  fw.quantum = time_of(c, "sim.quantum_ns", SC_NS);

  FtlParams& f = p.ftl;
  f.mapping = c.get_string("ftl.mapping");
  f.cmt_ratio = c.get_double("ftl.cmt_ratio");
  f.cmt_clean_ratio = c.get_double("ftl.cmt_clean_ratio");
  f.sched = c.get_string("ftl.sched");
  f.adapt_window = uint32_t(c.get_int("ftl.adapt_window"));
  if (f.sched == "auto")
    f.sched = f.mapping == "opt" || f.mapping == "dftl" || f.mapping == "part" ? "bypass"
              : f.mapping == "adaptive" ? "adaptive" : "write-stop";
  f.gc_policy = c.get_string("ftl.gc_policy");
  f.gc_check_victims = c.get_bool("ftl.gc_check_victims");
  f.check_pool_walk = c.get_bool("ftl.check_pool_walk");
  f.test_defect = c.get_string("ftl.test_defect");
  f.lapt_tie_order = c.get_string("ftl.lapt.tie_order");
  f.lapt_logical_block = c.get_string("ftl.lapt.logical_block");
  f.placement = c.get_string("ftl.placement");
  if (f.placement == "none" && n.pslc_blocks_per_plane)
    throw ConfigError(c.origin("nand.pslc.blocks_per_plane") + ": nand.pslc.blocks_per_plane = " +
                      std::to_string(n.pslc_blocks_per_plane) +
                      " makes an SLC cache, but ftl.placement = \"none\" would not use it: choose "
                      "lapt, combo, slc-only or slc-direct");
  if (f.placement != "none") {
    if ((n.slc_dies == 0 && n.pslc_blocks_per_plane == 0) || n.slc_dies == n.dies())
      throw ConfigError(c.origin("ftl.placement") + ": ftl.placement = \"" + f.placement +
                        "\" needs an SLC region and an MLC region (nand.slc_dies = " + std::to_string(n.slc_dies) +
                        " of " + std::to_string(n.dies()) + " dies, nand.pslc.blocks_per_plane = " +
                        std::to_string(n.pslc_blocks_per_plane) + ")");
    if (c.get_string("ftl.mapping") != "opt")
      throw ConfigError(c.origin("ftl.placement") + ": ftl.placement = \"" + f.placement +
                        "\" works with ftl.mapping = \"opt\" only (not yet with demand-based mapping)");
  }
  f.fdp_handles = uint32_t(c.get_int("ftl.fdp.handles"));
  f.fdp_groups = uint32_t(c.get_int("ftl.fdp.reclaim_groups"));
  f.fdp_persistent = c.get_string("ftl.fdp.isolation") == "persistent";
  if (f.fdp_handles) {
    const auto refuse = [&](const std::string& key, const std::string& why) {
      throw ConfigError(c.origin(key) + ": ftl.fdp.handles = " + std::to_string(f.fdp_handles) + ": " + why);
    };
    if (n.dies() % f.fdp_groups)
      refuse("ftl.fdp.reclaim_groups", "ftl.fdp.reclaim_groups = " + std::to_string(f.fdp_groups) + " does not divide the " +
                                           std::to_string(n.dies()) + " dies");
    if (f.fdp_groups * f.fdp_handles > 32)
      refuse("ftl.fdp.reclaim_groups", "reclaim groups x handles = " + std::to_string(f.fdp_groups * f.fdp_handles) +
                                           " is above the firmware's 32 write-buffer queues");
    if (f.placement != "none") refuse("ftl.placement", "FDP together with SLC/MLC placement is not built (ftl.placement = \"none\")");
    if (n.pslc_blocks_per_plane) refuse("nand.pslc.blocks_per_plane", "FDP with a pSLC cache is not built");
    if (p.device.interface != DeviceInterface::Conventional)
      refuse("device.interface", "FDP is a conventional namespace's (device.interface = \"conventional\")");
    if (!p.device.volatile_write_cache)
      refuse("device.volatile_write_cache", "FDP with the write cache off (write-through) is not built");
  }
  f.combo_hot_sectors = uint32_t((c.get_int("ftl.combo.hot_write_kib") + 3) / 4);
  f.combo_survivals = uint32_t(c.get_int("ftl.combo.slc_survivals"));
  f.combo_unit_blocks = uint32_t(c.get_int("ftl.combo.unit_blocks"));
  f.combo_unit_extra = uint32_t(c.get_int("ftl.combo.unit_extra_blocks"));
  if (f.placement == "combo" && f.combo_unit_blocks) {
    // What the MLC region has: a pSLC cache's dies keep their other blocks, SLC dies none.
    const uint64_t mlc_dies = n.dies() - n.slc_dies;
    const uint64_t mlc_superblocks = mlc_dies * (n.blocks_per_plane - n.pslc_blocks_per_plane);
    const uint64_t quota = uint64_t(f.combo_unit_blocks) + f.combo_unit_extra;
    if (quota + mlc_dies * 2 > mlc_superblocks)
      throw ConfigError(c.origin("ftl.combo.unit_blocks") + ": a combo unit may own ftl.combo.unit_blocks + "
                        "ftl.combo.unit_extra_blocks = " + std::to_string(quota) +
                        " superblocks, more than the MLC region's " + std::to_string(mlc_superblocks) +
                        " less two spare per die");
  }
  f.slc_dynamic_blocks = uint32_t(c.get_int("ftl.slc_cache.dynamic_blocks_per_plane"));
  if (f.slc_dynamic_blocks && (n.pslc_blocks_per_plane == 0 || (f.placement != "slc-only" && f.placement != "slc-direct")))
    throw ConfigError(c.origin("ftl.slc_cache.dynamic_blocks_per_plane") + ": ftl.slc_cache.dynamic_blocks_per_plane = " +
                      std::to_string(f.slc_dynamic_blocks) + " needs a static pSLC cache (nand.pslc.blocks_per_plane = " +
                      std::to_string(n.pslc_blocks_per_plane) + ") and ftl.placement = \"slc-only\" or \"slc-direct\" (it is \"" +
                      f.placement + "\")");
  if (f.slc_dynamic_blocks && f.slc_dynamic_blocks >= n.blocks_per_plane - n.pslc_blocks_per_plane)
    throw ConfigError(c.origin("ftl.slc_cache.dynamic_blocks_per_plane") + ": ftl.slc_cache.dynamic_blocks_per_plane = " +
                      std::to_string(f.slc_dynamic_blocks) + " is not less than the " +
                      std::to_string(n.blocks_per_plane - n.pslc_blocks_per_plane) + " native blocks per plane");
  f.idle_migration_us = c.get_double("ftl.idle_migration_us");
  f.idle_migration_free_ratio = c.get_double("ftl.idle_migration_free_ratio");
  f.readahead = c.get_string("ftl.readahead");
  {
    const int64_t cache_kib = c.get_int("ftl.read_cache.kib"), item_kib = c.get_int("ftl.read_cache.item_kib");
    if (item_kib % 4)
      throw ConfigError(c.origin("ftl.read_cache.item_kib") + ": ftl.read_cache.item_kib = " +
                        std::to_string(item_kib) + " is not a whole number of 4 KiB sectors");
    if (f.readahead != "none" && item_kib > cache_kib)
      throw ConfigError(c.origin("ftl.read_cache.kib") + ": ftl.read_cache.kib = " + std::to_string(cache_kib) +
                        " is smaller than one item (ftl.read_cache.item_kib = " + std::to_string(item_kib) + ")");
    f.read_cache_sectors = uint32_t(cache_kib / 4);
    f.readahead_item_sectors = uint32_t(item_kib / 4);
  }
  f.pattern_branches = uint32_t(c.get_int("ftl.read_pattern.branches"));
  f.pattern_depth = uint32_t(c.get_int("ftl.read_pattern.depth"));
  f.pattern_sequential_run = uint32_t(c.get_int("ftl.read_pattern.sequential_run"));
  f.pattern_min_repeats = uint32_t(c.get_int("ftl.read_pattern.min_repeats"));
  f.pattern_bytes = uint32_t(c.get_int("ftl.read_pattern.memory_kib") * 1024);
  if (f.readahead == "dtree" || f.readahead == "dtree-lru") {
    const uint32_t nodes = pt_nodes_for(f.pattern_bytes);
    for (const char* key : {"ftl.read_pattern.depth", "ftl.read_pattern.branches"}) {
      const int64_t v = c.get_int(key);
      if (v > int64_t(nodes))
        throw ConfigError(c.origin(key) + ": " + key + " = " + std::to_string(v) + " is beyond the analyser's budget: " +
                          "ftl.read_pattern.memory_kib = " + std::to_string(f.pattern_bytes / 1024) + " holds " +
                          std::to_string(nodes) + " nodes of " + std::to_string(sizeof(pt_node)) +
                          " bytes with their indexes");
    }
  }
  f.seq_window_sectors = uint32_t(c.get_int("ftl.seq_readahead.window_kib") / 4);
  f.seq_trigger = uint32_t(c.get_int("ftl.seq_readahead.trigger"));
  if (f.idle_migration_us > 0 && f.placement == "none")
    throw ConfigError(c.origin("ftl.idle_migration_us") +
                      ": ftl.idle_migration_us migrates SLC data to MLC: it needs ftl.placement "
                      "(now \"none\")");
  if (f.placement == "slc-direct" && f.idle_migration_us <= 0)
    throw ConfigError(c.origin("ftl.placement") +
                      ": ftl.placement = \"slc-direct\" empties its SLC cache only while the host is idle: "
                      "set ftl.idle_migration_us > 0 (now 0, the cache would fill once and never take data again)");
  f.op = c.get_double("ftl.op");
  f.logical_sectors = uint64_t(c.get_int("ftl.logical_sectors"));
  if (f.logical_sectors && f.logical_sectors * 4096 > n.physical_bytes())
    throw ConfigError(c.origin("ftl.logical_sectors") + ": ftl.logical_sectors = " + std::to_string(f.logical_sectors) +
                      " (" + std::to_string(f.logical_sectors * 4096 / (1024 * 1024)) + " MiB) is more than the NAND's " +
                      std::to_string(n.physical_bytes() / (1024 * 1024)) + " MiB");
  f.gc_low_blocks = uint32_t(c.get_int("ftl.gc_low_blocks"));
  f.gc_high_blocks = uint32_t(c.get_int("ftl.gc_high_blocks"));
  f.gc_pacing = c.get_bool("ftl.gc_pacing");
  {
    const int64_t r = c.get_int("ftl.bad_block_reserve");
    const bool can_fail = n.factory_bad_permille > 0 || n.program_fail_per_million > 0 || n.erase_fail_per_million > 0 ||
                          !n.injected_failures.empty();
    f.bad_block_reserve = r >= 0 ? uint32_t(r) : can_fail ? 1u : 0u;
  }
  f.wear_spread = uint32_t(c.get_int("ftl.wear_spread"));
  f.wear_record_step = uint32_t(c.get_int("ftl.wear_record_step"));
  if (f.gc_high_blocks < f.gc_low_blocks)
    throw ConfigError(c.origin("ftl.gc_high_blocks") + ": ftl.gc_high_blocks = " +
                      std::to_string(f.gc_high_blocks) + " is below ftl.gc_low_blocks = " +
                      std::to_string(f.gc_low_blocks));
  f.slc_gc_low_blocks = uint32_t(c.get_int("ftl.slc_gc_low_blocks"));
  f.slc_gc_high_blocks = uint32_t(c.get_int("ftl.slc_gc_high_blocks"));
  check_slc_gc_thresholds(c, n, f);
  f.write_buffer = c.get_string("ftl.write_buffer");
  f.ring_stripe_sectors = n.dies() * n.planes * n.sectors_per_page;
  f.ring_timeout_us = uint32_t(c.get_int("ftl.ring.timeout_us"));
  const double wbuf_mib = c.get_double("ftl.write_buffer_mib");
  // The buffer is split evenly between the firmware cores: each part must work on its own.
  // (A host FTL splits it between its rings: MT-FTL's one per CPU.)
  const uint32_t cores = p.host_ftl.on() ? p.host_ftl.cores(p.host.cpus) : p.firmware.cores;
  const std::string per_core = cores > 1 ? (p.host_ftl.on() ? " per ring (" + std::to_string(cores) + " rings, host.ftl = mtftl)"
                                                            : " per firmware core (" + std::to_string(cores) + " cores)")
                                         : "";
  if (wbuf_mib > 0) f.wbuf_sectors = uint32_t(wbuf_mib * 256.0);
  const uint32_t min_sectors = 2 * SSD_MDTS_SECTORS + n.planes * n.sectors_per_page;
  if (wbuf_mib > 0) {
  } else if (f.write_buffer == "ring") {   // whole stripes per core, as many as hold the minimum at least
    const uint32_t stripes = uint32_t(c.get_int("ftl.ring.stripes"));
    f.wbuf_sectors =
        cores * std::max(stripes, (min_sectors + f.ring_stripe_sectors - 1) / f.ring_stripe_sectors) * f.ring_stripe_sectors;
  } else {
    f.wbuf_sectors = std::max<uint32_t>(16 * 256, cores * min_sectors);
  }
  f.die_program_queue = uint32_t(c.get_int("ftl.die_program_queue"));
  const uint32_t part = f.wbuf_sectors / cores;
  if (part < min_sectors)
    throw ConfigError(c.origin("ftl.write_buffer_mib") +
                      ": ftl.write_buffer_mib is too small: it must hold two largest commands "
                      "and one superpage (" + std::to_string(min_sectors * 4) + " KiB)" + per_core);
  if (f.write_buffer == "ring" && part < f.ring_stripe_sectors)
    throw ConfigError(c.origin(wbuf_mib > 0 ? "ftl.write_buffer_mib" : "ftl.ring.stripes") +
                      ": the ring write buffer (" + std::to_string(part * 4) + " KiB" + per_core +
                      ") is smaller than one stripe: a superpage on each of the " + std::to_string(n.dies()) +
                      " dies is " + std::to_string(uint64_t(f.ring_stripe_sectors) * 4) + " KiB");
  if (f.wbuf_sectors > SSD_WBUF_MAX_SECTORS)
    throw ConfigError(c.origin("ftl.write_buffer_mib") + ": ftl.write_buffer_mib = " + std::to_string(wbuf_mib) +
                      " is beyond the firmware's " + std::to_string(SSD_WBUF_MAX_SECTORS / 256) + " MiB");
  // The device FTL's spare room (an Open-Channel device runs no FTL: nothing of it to fit).
  if (p.device.interface == DeviceInterface::Conventional) {
    uint64_t min_spare_blocks = uint64_t(f.gc_high_blocks) + 4;  // GC reserve + open blocks
    if (n.blocks_per_plane <= min_spare_blocks * 2)
      throw ConfigError(c.origin("nand.blocks_per_plane") + ": nand.blocks_per_plane = " +
                        std::to_string(n.blocks_per_plane) +
                        " leaves no room next to ftl.gc_high_blocks + 4 spare superblocks per die");
    // An SLC die needs the spare superblocks, and at least as many again for data when its GC
    // cleans in place; one more when it migrates to MLC (ftl.placement) is enough.
    if (n.slc_dies && f.placement == "none" && n.slc_blocks_per_plane <= min_spare_blocks * 2)
      throw ConfigError(c.origin("nand.slc.blocks_per_plane") + ": nand.slc.blocks_per_plane = " +
                        std::to_string(n.slc_blocks_per_plane) + " leaves no room for data next to ftl.gc_high_blocks + 4 spare "
                        "superblocks per SLC die when its GC cleans in place (ftl.placement = none)");
    if (n.pslc_blocks_per_plane && !f.slc_gc_low_blocks && n.pslc_blocks_per_plane <= min_spare_blocks)
      throw ConfigError(c.origin("nand.pslc.blocks_per_plane") + ": nand.pslc.blocks_per_plane = " +
                        std::to_string(n.pslc_blocks_per_plane) +
                        " leaves no room next to ftl.gc_high_blocks + 4 spare superblocks in each die's SLC cache");
    if (n.pslc_blocks_per_plane && n.blocks_per_plane - n.pslc_blocks_per_plane <= min_spare_blocks * 2)
      throw ConfigError(c.origin("nand.pslc.blocks_per_plane") + ": nand.pslc.blocks_per_plane = " +
                        std::to_string(n.pslc_blocks_per_plane) + " of nand.blocks_per_plane = " +
                        std::to_string(n.blocks_per_plane) +
                        " leaves no room for data next to ftl.gc_high_blocks + 4 spare native superblocks per die");
    if (n.slc_dies && !f.slc_gc_low_blocks && n.slc_blocks_per_plane <= min_spare_blocks)
      throw ConfigError(c.origin("nand.slc.blocks_per_plane") + ": nand.slc.blocks_per_plane = " +
                        std::to_string(n.slc_blocks_per_plane) +
                        " leaves no room next to ftl.gc_high_blocks + 4 spare superblocks per SLC die");
  }

  p.precondition.fill = c.get_double("precondition.fill");
  p.precondition.overwrite = c.get_double("precondition.overwrite");
  p.precondition.seed = uint32_t(c.get_int("precondition.seed"));
  p.precondition.timed = c.get_string("precondition.mode") == "timed";
  if (p.device.interface == DeviceInterface::Zoned && !p.host_ftl.on())   // a zoned drive starts empty: its host writes it (a host FTL over it writes the fill)
    for (const char* key : {"precondition.fill", "precondition.overwrite"}) {
      if (c.get_double(key) == 0) continue;
      if (c.origin(key) != "default")
        throw ConfigError(c.origin(key) + ": " + key + " = " + std::to_string(c.get_double(key)) +
                          ": a zoned device (device.interface = zns) is written by its host at the write pointers; it "
                          "starts empty (no preconditioning: 0)");
      (std::string(key) == "precondition.fill" ? p.precondition.fill : p.precondition.overwrite) = 0;
    }
  p.host_data = c.get_bool("sim.host_data");
  p.payload = c.get_bool("sim.payload") || p.host_data;
  p.check_flush_durability = c.get_bool("sim.check_flush_durability");

  uint64_t sectors = n.physical_bytes() / 4096;
  if (sectors >= 0xFFFFFFF0ull)
    throw ConfigError("nand geometry: " + std::to_string(sectors) +
                      " physical 4 KiB sectors exceed the firmware's 32-bit addresses");
  if (p.device.interface == DeviceInterface::OpenChannel && (n.slc_dies || n.pslc_blocks_per_plane))
    throw ConfigError(c.origin("device.interface") + ": device.interface = \"ocssd\" exposes one cell type, but " +
                      (n.slc_dies ? "nand.slc_dies = " + std::to_string(n.slc_dies) + " adds SLC dies"
                                  : "nand.pslc.blocks_per_plane = " + std::to_string(n.pslc_blocks_per_plane) +
                                        " adds a pSLC cache") +
                      " (an Open-Channel geometry describes one media)");
  if (p.device.interface == DeviceInterface::Zoned) check_zoned(c, p);
  uint64_t need = p.firmware_dram_estimate() + d.reserved_bytes;
  if (need > d.size_bytes) {
    std::ostringstream s;
    s << c.origin("dram.size_mib") << ": dram.size_mib = " << (d.size_bytes >> 20)
      << " is too small: the firmware needs about " << ((need + (1 << 20) - 1) >> 20)
      << " MiB for this geometry and buffer (map, reverse map, buffers, rings)";
    throw ConfigError(s.str());
  }
  {   // the firmware's tables in the SPI NOR (ftl-sw/media/nor.h)
    const uint64_t superblocks =
        uint64_t(n.dies()) * n.max_blocks_per_plane();
    if (superblocks >= 0xFFFFFu)   // the erase-count log's records hold 20 bits of superblock
      throw ConfigError("nand geometry: " + std::to_string(superblocks) +
                        " superblocks (nand.channels x nand.ways x nand.blocks_per_plane) exceed the firmware's "
                        "limit of 1048574");
    if (!nor_fits(p.device.nor_bytes, uint32_t(superblocks))) {
      const uint32_t kib = nor_kib_needed(uint32_t(superblocks));
      throw ConfigError(c.origin("device.nor_kib") + ": device.nor_kib = " + std::to_string(p.device.nor_bytes / 1024) +
                        " cannot hold the bad-block table and the erase-count log of " + std::to_string(superblocks) +
                        " superblocks (nand.channels x nand.ways x nand.blocks_per_plane): it needs at least " +
                        std::to_string(kib));
    }
  }
  const bool ocssd = p.device.interface == DeviceInterface::OpenChannel;
  const bool zoned = p.device.interface == DeviceInterface::Zoned;
  if (p.host_ftl.on() && !ocssd && !zoned)
    throw ConfigError(c.origin("host.ftl") + ": host.ftl = \"" + p.host_ftl.kind +
                      "\" runs the FTL on the host over a host-managed device: it needs device.interface = \"ocssd\" or "
                      "\"zns\" (a conventional device runs its own FTL)");
  if (p.host_ftl.on() && zoned) {   // a zone is one of the FTL's blocks (models/host/zns_flash_backend.h)
    const auto& z = p.device.zns;
    for (const auto& [key, ok] : {std::pair<const char*, bool>{"device.zns.dies_per_zone", z.dies_per_zone == 1},
                                  {"device.zns.stripes_per_zone", z.stripes_per_zone == 1},
                                  {"device.zns.spare_stripes", z.spare_stripes == 0}})
      if (!ok)
        throw ConfigError(c.origin(key) + ": a host FTL over zones (host.ftl = \"" + p.host_ftl.kind +
                          "\") takes a zone as one of its blocks: device.zns.dies_per_zone = 1, stripes_per_zone = 1, "
                          "spare_stripes = 0");
    // Its open superblocks per die (host data, GC, and one more while a stream moves on) are
    // active zones: 3 a die.
    const uint64_t need = 3ull * n.dies();
    for (const char* key : {"device.zns.max_active", "device.zns.max_open"}) {
      const uint64_t v = std::string(key) == "device.zns.max_active" ? z.max_active : z.max_open;
      if (v && v < need)
        throw ConfigError(c.origin(key) + ": " + key + " = " + std::to_string(v) + " is below the " + std::to_string(need) +
                          " zones a host FTL over zones keeps open (3 a die: host data, GC, one moving on; 0: no limit)");
    }
  }
  if (p.host_ftl.on()) {
    if (p.ftl.mapping != "opt")
      throw ConfigError(c.origin("ftl.mapping") + ": a host FTL keeps its whole map in host memory (ftl.mapping = \"opt\"; "
                        "now \"" + p.ftl.mapping + "\")");
    if ((p.precondition.fill > 0 || p.precondition.overwrite > 0) && !p.precondition.timed)
      throw ConfigError(c.origin("precondition.fill") + ": precondition.mode = \"functional\" has the device's firmware write "
                        "the fill, but a host FTL's map is on the host and the device below it only runs vector commands: "
                        "precondition.mode = \"timed\" writes the fill through the host FTL in simulated time (or "
                        "precondition.fill = 0 and precondition.overwrite = 0: a new device)");
    if (p.ftl.write_buffer != "ring")
      throw ConfigError(c.origin("ftl.write_buffer") + ": a host FTL buffers writes in pblk's ring: ftl.write_buffer = \"ring\" "
                        "(now \"" + p.ftl.write_buffer + "\")");
    if (p.ftl.placement != "none")
      throw ConfigError(c.origin("ftl.placement") + ": an Open-Channel device has one cell type: ftl.placement = \"none\"");
    const PlatformParams view = p.host_ftl_view();
    const uint64_t need = view.firmware_dram_estimate() + view.dram.reserved_bytes;
    if (need > p.host_ftl.memory_bytes)
      throw ConfigError(c.origin("host.ftl.memory_mib") + ": host.ftl.memory_mib = " + std::to_string(p.host_ftl.memory_bytes >> 20) +
                        " is too small: the host FTL needs about " + std::to_string((need + (1 << 20) - 1) >> 20) +
                        " MiB for this device and ring (map, reverse map, ring, tables)");
  }
  return p;
}

PlatformParams PlatformParams::host_ftl_view() const {
  PlatformParams v = *this;
  v.device.interface = DeviceInterface::Conventional;
  v.host_ftl = HostFtlParams{};
  v.nand.sectors_per_page = nand.planes * nand.sectors_per_page;   // a write unit
  v.nand.page_bytes = v.nand.sectors_per_page * 4096u;
  v.nand.planes = 1;
  v.dram.size_bytes = host_ftl.memory_bytes;
  v.firmware.cores = host_ftl.cores(host.cpus);
  v.firmware.mode = "native";
  return v;
}

uint64_t PlatformParams::firmware_dram_estimate() const {
  const uint64_t phys = nand.physical_bytes() / 4096;
  const uint64_t unit = uint64_t(nand.planes) * nand.sectors_per_page;
  const uint64_t superblocks = uint64_t(nand.dies()) * nand.max_blocks_per_plane();
  uint64_t bytes = 0;
  if (device.interface == DeviceInterface::Zoned) {   // ftl-sw/zns/zns_device.c
    const uint64_t zones = superblocks;                    // at most one per block of a die
    bytes += zones * (64 + 8 + 4 + 4 + 48);                // zone map, pipelines
    bytes += superblocks * (4 + 2 + 4);                    // erases, pool, versions
    bytes += 4096ull * unit * (4 + 8 + 4);                 // per flash op lists
    bytes += uint64_t(SSD_HOST_SLOTS) * (SSD_MDTS_SECTORS * 4 + SSD_MDTS_SECTORS / 8 + 32);   // sector lists
    bytes += uint64_t(SSD_MDTS_SECTORS) * 4096 * 2;       // the report buffer; sector buffers (half the rest)
    bytes += 2ull * (SSD_MDTS_SECTORS + 4096) * 4096;      // the fewest sector buffers, as the firmware asks
    bytes += 1 << 20;                                      // rings, identify, context, alignment
    return bytes;
  }
  if (device.interface == DeviceInterface::OpenChannel) {   // ftl-sw/ocssd/oc_device.c
    bytes += superblocks * (32 + 4 + 1 + 4 + 2 + 4);       // chunk log, programmed, bad, erases, pool, versions
    bytes += 4096ull * unit * (4 + 8 + 4);                 // per flash op lists
    bytes += uint64_t(SSD_HOST_SLOTS) * SSD_OC_MAX_LBAS * (8 + 4) + SSD_HOST_SLOTS * 16ull;   // LBA lists, sector lists
    bytes += 2ull * 2 * SSD_OC_MAX_LBAS * 4096;           // two command buffers at least (half the rest)
    bytes += 1 << 20;                                      // rings, geometry, context, alignment
    return bytes;
  }
  bytes += phys * 4 * 2;                               // l2p (<= phys) + p2l
  bytes += superblocks * (4 * 4 + 1 + 2);              // per-superblock arrays
  bytes += uint64_t(ftl.wbuf_sectors) * (4096 + 4 + 1 + 2 + 4 + 4 + 16);  // write buffer + fifo + hash
  bytes += 4096ull * (4096 + 4);                       // read buffers
  const uint64_t pools = uint64_t(nand.dies()) * (nand.pslc_blocks_per_plane ? 2 : 1);  // GC engines
  bytes += pools * 2 * unit * (4096 + 4 + 4 + 4 + 8);  // GC buffers
  uint64_t leaves = 1;                                 // GC's victim index: a tree per pool
  while (leaves < nand.max_blocks_per_plane()) leaves *= 2;
  bytes += pools * (2 * leaves * 4 + 8);
  bytes += 4096ull * unit * (4 + 8 + 4);               // per flash op program lists
  bytes += uint64_t(SSD_HOST_SLOTS) * SSD_MDTS_SECTORS * (4 + 4);  // per command lists
  bytes += 1 << 20;                                    // rings, context, alignment
  return bytes;
}

std::optional<PlatformParams::ZoneGeometry> PlatformParams::zone_geometry() const {
  if (device.interface != DeviceInterface::Zoned) return std::nullopt;
  const auto& z = device.zns;
  const zns_media m = {nand.dies(), nand.planes, nand.blocks_per_plane, nand.timing(nand.cell).pages_per_block,
                       nand.sectors_per_page, z.dies_per_zone, z.stripes_per_zone, z.spare_stripes,
                       z.pow2_zone_size ? 1u : 0u, z.max_open, z.max_active, z.zasl_sectors, 0};
  zns_layout l;
  if (zns_layout_derive(&m, &l) != ZNS_LAYOUT_OK) return std::nullopt;   // from() refused it already
  return ZoneGeometry{l.zsze, l.zcap, l.nr_zones, l.max_open, l.max_active};
}

uint32_t nor_kib_needed(uint32_t superblocks) {
  uint32_t kib = 64;
  while (kib < 65536 && !nor_fits(kib * 1024u, superblocks)) kib *= 2;
  return kib;
}

}  // namespace ssdvp
