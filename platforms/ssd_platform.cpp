#include "platforms/ssd_platform.h"

#include "platforms/device_series.h"
#include "platforms/drive_snapshot.h"

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <cstring>

#include "models/bus/router.h"
#include "models/common/event_queue.h"
#include "models/common/fatal.h"
#include "models/cpu/elf_image.h"
#include "models/cpu/gdb_server.h"
#include "models/cpu/iss_core.h"
#include "models/cpu/mailbox.h"
#include "models/cpu/native_core.h"
#include "models/cpu/spi_nor.h"
#include "models/cpu/sysctl.h"
#include "models/cpu/timer.h"
#include "models/cpu/uart.h"
#include "models/dram/dram.h"
#include "models/flash/flash_controller.h"
#include "models/flash/rtl_channel.h"
#include "models/flash/tlm_channel.h"
#include "models/host/host_driver.h"
#include "models/host/host_interface.h"
#include "models/nand/die.h"
#include "models/nand/nand_image.h"

extern "C" {
#include "ftl-sw/core/ftl.h"
}

namespace ssdvp {

namespace {
constexpr uint32_t kConfigAddr = SSD_DRAM_BASE;
constexpr uint32_t kGeometryAddr = SSD_DRAM_BASE + 0x1000;

uint32_t gc_policy_code(const std::string& p) {
  if (p == "greedy") return SSD_GC_GREEDY;
  if (p == "fifo") return SSD_GC_FIFO;
  if (p == "cost-benefit") return SSD_GC_COST_BENEFIT;
  throw ConfigError("ftl.gc_policy = \"" + p + "\" has no firmware code (platforms/ssd_platform.cpp)");
}
uint32_t placement_code(const std::string& p) {
  if (p == "none") return SSD_PLACE_NONE;
  if (p == "lapt") return SSD_PLACE_LAPT;
  if (p == "slc-only") return SSD_PLACE_SLC_ONLY;
  if (p == "combo") return SSD_PLACE_COMBO;
  if (p == "slc-direct") return SSD_PLACE_SLC_DIRECT;
  throw ConfigError("ftl.placement = \"" + p + "\" has no firmware code (platforms/ssd_platform.cpp)");
}
uint32_t defect_code(const std::string& d) {
  const char* names[] = {"none", "flush-before-program", "recovery-skips-open-superblock", "trim-log-not-replayed"};
  for (uint32_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
    if (d == names[i]) return i;   // SSD_DEFECT_* in that order
  throw ConfigError("ftl.test_defect = \"" + d + "\" has no firmware code (platforms/ssd_platform.cpp)");
}
uint32_t readahead_code(const std::string& r) {
  const char* names[] = {"none", "lru", "dtree", "dtree-lru", "seq"};
  for (uint32_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
    if (r == names[i]) return i;
  throw ConfigError("ftl.readahead = \"" + r + "\" has no firmware code (platforms/ssd_platform.cpp)");
}
uint32_t mapping_code(const std::string& m) {
  const char* names[] = {"opt", "dftl", "part", "part-sched", "writeopt", "adaptive"};
  for (uint32_t i = 0; i < 6; i++)
    if (m == names[i]) return i;
  throw ConfigError("ftl.mapping = \"" + m + "\" has no firmware code (platforms/ssd_platform.cpp)");
}
uint32_t sched_code(const std::string& s) {
  if (s == "bypass") return SSD_SCHED_BYPASS;
  if (s == "fifo") return SSD_SCHED_FIFO;
  if (s == "write-stop") return SSD_SCHED_WRITE_STOP;
  if (s == "adaptive") return SSD_SCHED_ADAPTIVE;
  throw ConfigError("ftl.sched = \"" + s + "\" has no firmware code (platforms/ssd_platform.cpp)");
}
}  // namespace

SsdPlatform::SsdPlatform(const Config& cfg, const RunOptions& opt)
    : cfg_(cfg), p_(PlatformParams::from(cfg)), opt_(opt) {
  // Busy-time counters read sc_time::value() as picoseconds.
  if (sc_core::sc_get_time_resolution() != sc_core::sc_time(1, sc_core::SC_PS))
    throw std::logic_error("ssdvp needs the SystemC time resolution of 1 ps");
  const NandParams& n = p_.nand;
  // A bad workload is named now, before anything is built: its spec, or its file and line.
  // The namespace is not known until the firmware boots; the raw capacity bounds it.
  workload_spec_ = opt.workload_spec.empty() ? cfg.get_string("workload.spec") : opt.workload_spec;
  {
    workload::WorkloadContext ctx;
    ctx.capacity_bytes = n.physical_bytes();
    ctx.seed = uint64_t(cfg.get_int("sim.seed"));
    workload::check_workload(workload_spec_, ctx);
  }
  events_ = std::make_unique<EventQueue>("events");
  dram_ = std::make_unique<Dram>(p_.dram);
  for (uint32_t d = 0; d < n.dies(); d++)
    dies_.push_back(std::make_unique<nand::Die>(d, n.cell_of(d), n, p_.payload));

  // What the firmware finds in DRAM at boot.
  auto* fc = dram_->as<ssd_fw_config>(kConfigAddr);
  *fc = ssd_fw_config{};
  fc->magic = SSD_FW_CONFIG_MAGIC;
  fc->version = 1;
  fc->op_permille = uint32_t(p_.ftl.op * 1000 + 0.5);
  fc->gc_low_blocks = p_.ftl.gc_low_blocks;
  fc->gc_high_blocks = p_.ftl.gc_high_blocks;
  fc->wbuf_sectors = p_.ftl.wbuf_sectors;
  fc->wbuf_kind = p_.ftl.write_buffer == "ring" ? SSD_WBUF_RING : SSD_WBUF_SLOTS;
  fc->ring_timeout_us = p_.ftl.ring_timeout_us;
  fc->write_through = p_.device.volatile_write_cache ? 0u : 1u;
  fc->bad_block_reserve = p_.ftl.bad_block_reserve;
  fc->wear_spread = p_.ftl.wear_spread;
  fc->wear_record_step = p_.ftl.wear_record_step;
  fc->die_prog_limit = p_.ftl.die_program_queue;
  fc->dram_heap_addr = uint32_t(SSD_DRAM_BASE + p_.dram.reserved_bytes);
  fc->dram_heap_bytes = uint32_t(p_.dram.size_bytes - p_.dram.reserved_bytes);
  fc->mapping = mapping_code(p_.ftl.mapping);
  fc->cmt_permille = uint32_t(p_.ftl.cmt_ratio * 1000 + 0.5);
  fc->cmt_clean_permille = uint32_t(p_.ftl.cmt_clean_ratio * 1000 + 0.5);
  fc->sched = sched_code(p_.ftl.sched);
  fc->adapt_window = p_.ftl.adapt_window;
  {
    const auto& t = n.timing(n.cell);
    fc->map_write_cost = uint32_t(t.t_prog[0].to_seconds() / t.t_read[0].to_seconds() * 1000 + 0.5);
  }
  fc->gc_policy = gc_policy_code(p_.ftl.gc_policy);
  fc->gc_check_victims = p_.ftl.gc_check_victims ? 1u : 0u;
  fc->gc_pacing = p_.ftl.gc_pacing ? 1u : 0u;
  fc->test_defect = defect_code(p_.ftl.test_defect);
  fc->slc_dynamic_blocks = p_.ftl.slc_dynamic_blocks;
  fc->placement = placement_code(p_.ftl.placement);
  fc->combo_hot_sectors = p_.ftl.combo_hot_sectors;
  fc->combo_survivals = p_.ftl.combo_survivals;
  fc->combo_unit_blocks = p_.ftl.combo_unit_blocks;
  fc->combo_unit_extra = p_.ftl.combo_unit_extra;
  fc->idle_migration_us = uint32_t(std::min(p_.ftl.idle_migration_us, 4.0e9) + 0.5);
  fc->idle_free_permille = uint32_t(p_.ftl.idle_migration_free_ratio * 1000 + 0.5);
  fc->readahead = readahead_code(p_.ftl.readahead);
  fc->rc_sectors = p_.ftl.read_cache_sectors;
  fc->item_sectors = p_.ftl.readahead_item_sectors;
  fc->pt_branches = p_.ftl.pattern_branches;
  fc->pt_depth = p_.ftl.pattern_depth;
  fc->pt_seq_run = p_.ftl.pattern_sequential_run;
  fc->pt_min_repeats = p_.ftl.pattern_min_repeats;
  fc->pt_bytes = p_.ftl.pattern_bytes;
  fc->seq_window_sectors = p_.ftl.seq_window_sectors;
  fc->seq_trigger = p_.ftl.seq_trigger;
  auto* geo = dram_->as<ssd_geometry>(kGeometryAddr);
  *geo = ssd_geometry{};
  geo->channels = n.channels;
  geo->ways = n.ways;
  geo->planes = n.planes;
  geo->blocks_per_plane = n.blocks_per_plane;
  geo->pages_per_block = n.timing(n.cell).pages_per_block;
  geo->sectors_per_page = n.sectors_per_page;
  geo->slc_pages_per_block = n.slc.pages_per_block;
  geo->slc_blocks_per_plane = n.slc_blocks_per_plane;
  geo->pslc_blocks_per_plane = n.pslc_blocks_per_plane;
  geo->pslc_pages_per_block = n.pslc_pages_per_block();
  for (uint32_t d = 0; d < std::min<uint32_t>(n.slc_dies, 64); d++) {
    if (d < 32) geo->slc_dies_mask_lo |= 1u << d;
    else geo->slc_dies_mask_hi |= 1u << (d - 32);
  }

  sysctl_ = std::make_unique<SysCtl>("sysctl", p_.firmware.cores, p_.dram.size_bytes, kConfigAddr);
  sysctl_->on_power_dumped = [this] {
    if (!power_failing_ || power_dumped_at_ != sc_core::SC_ZERO_TIME) return;
    power_dumped_at_ = sc_core::sc_time_stamp();
    power_dumped_.notify(sc_core::SC_ZERO_TIME);
  };
  timer_ = std::make_unique<Timer>("timer", *sysctl_);
  uart_ = std::make_unique<Uart>("uart");
  sysctl_->last_message = [this] {
    const auto& lines = uart_->lines();
    for (auto it = lines.rbegin(); it != lines.rend(); ++it)
      if (it->rfind("fw: ", 0) == 0) return *it;
    return std::string();
  };
  sysctl_->explain_halt = [](uint32_t code) -> std::string {
    // The configuration keys behind each reason the firmware refuses a configuration.
    if ((code & 0xFFFFFF00u) != SSD_HALT_BAD_CONFIG) return "";
    switch (code & 0xFFu) {
      case SSD_BADCFG_DEVICE_TOO_SMALL: return "configuration: nand.blocks_per_plane, ftl.gc_high_blocks, ftl.op";
      case SSD_BADCFG_DRAM: return "configuration: dram.size_mib (too small for the firmware's tables)";
      case SSD_BADCFG_WBUF_SIZE: return "configuration: ftl.write_buffer_mib";
      case SSD_BADCFG_DIE_QUEUE: return "configuration: ftl.die_program_queue";
      case SSD_BADCFG_SCHEME: return "configuration: ftl.mapping, ftl.sched";
      case SSD_BADCFG_MAP_CACHE: return "configuration: ftl.cmt_ratio, ftl.cmt_clean_ratio, ftl.adapt_window";
      case SSD_BADCFG_PSLC: return "configuration: nand.pslc.blocks_per_plane";
      case SSD_BADCFG_WBUF_KIND: return "configuration: ftl.write_buffer";
      case SSD_BADCFG_RING_STRIPE: return "configuration: ftl.write_buffer_mib, ftl.ring.stripes, firmware.cores";
      case SSD_BADCFG_CORES: return "configuration: firmware.cores";
      case SSD_BADCFG_MAP_CACHE_SMALL: return "configuration: ftl.cmt_ratio (raise it), ftl.cmt_clean_ratio";
      case SSD_BADCFG_MAP_CACHE_LARGE: return "configuration: ftl.cmt_ratio (lower it)";
      case SSD_BADCFG_DIRTY_ENTRIES: return "configuration: ftl.cmt_ratio, ftl.cmt_clean_ratio (the dirty share)";
      case SSD_BADCFG_PLACEMENT: return "configuration: ftl.placement, ftl.mapping";
      case SSD_BADCFG_PLACEMENT_REGIONS: return "configuration: ftl.placement needs nand.slc_dies or nand.pslc.blocks_per_plane";
      case SSD_BADCFG_UNIT_QUOTA: return "configuration: ftl.combo.unit_blocks, ftl.combo.unit_extra_blocks";
      case SSD_BADCFG_COMBO_CAPACITY:
        return "configuration: precondition.fill, ftl.placement = \"combo\", nand.slc_dies, "
               "nand.slc.blocks_per_plane, ftl.op (combo keeps sequential data in MLC, and the fill is more than "
               "the MLC dies hold with GC's spare, as the logical space counts the SLC dies: a smaller "
               "precondition.fill, fewer SLC dies or blocks, or a larger ftl.op)";
      case SSD_BADCFG_RECOVERY: return "configuration: ftl.mapping, ftl.placement (--power-cut / --load-nand)";
      case SSD_BADCFG_FORMAT: return "configuration: nand.*, ftl.op (the NAND image's drive was another)";
      case SSD_BADCFG_BBT:
        return "configuration: device.nor_kib (the SPI NOR cannot hold the bad-block table and erase-count log "
               "of nand.channels x nand.ways x nand.blocks_per_plane superblocks)";
      default: return "a configuration the firmware refuses";
    }
  };
  router_ = std::make_unique<Router>("bus");
  std::vector<nand::Die*> die_ptrs;
  for (auto& d : dies_) die_ptrs.push_back(d.get());
  fctl_ = std::make_unique<FlashController>("fctl", p_.fctl, n, *dram_, *sysctl_, die_ptrs, kGeometryAddr, p_.payload,
                                           *events_);
  for (uint32_t c = 0; c < n.channels; c++) {
    std::vector<nand::Die*> on_channel;
    for (uint32_t w = 0; w < n.ways; w++) on_channel.push_back(die_ptrs[w * n.channels + c]);
    const std::string cname = sc_core::sc_gen_unique_name("channel");
    if (p_.channel.model == "rtl") {
      std::string trace = p_.channel.rtl_trace;
      if (!trace.empty() && c > 0) {
        const auto dot = trace.rfind(".fst");
        trace = (dot == std::string::npos ? trace : trace.substr(0, dot)) + "." + std::to_string(c) + ".fst";
      }
      auto ch = std::make_unique<RtlChannel>(cname.c_str(), p_.channel, on_channel, *fctl_, *events_,
                                             std::min(p_.fctl.desc, p_.fctl.cpl), trace);
      channels_.push_back(ch.get());
      channel_modules_.push_back(std::move(ch));
    } else {
      auto ch = std::make_unique<TlmChannel>(cname.c_str(), p_.channel, on_channel, *fctl_, *events_);
      channels_.push_back(ch.get());
      channel_modules_.push_back(std::move(ch));
    }
    fctl_->attach_channel(c, channels_.back());
  }
  hif_ = std::make_unique<HostInterface>("hif", p_.host, *dram_, *sysctl_, p_.payload, *events_);

  // Peripheral windows, in the order of the register map.
  int port = 0;
  auto map = [&](uint32_t base, MmioDevice& dev) {
    router_->initiator.bind(dev.socket);
    router_->map((base - SSD_PERIPH_BASE) / SSD_PERIPH_SIZE, port++);
  };
  map(SSD_HIF_BASE, *hif_);
  map(SSD_FCTL_BASE, *fctl_);
  map(SSD_TIMER_BASE, *timer_);
  mailbox_ = std::make_unique<Mailbox>("mailbox", *sysctl_);
  map(SSD_MBOX_BASE, *mailbox_);
  map(SSD_UART_BASE, *uart_);
  map(SSD_SYSCTL_BASE, *sysctl_);
  nor_ = std::make_unique<SpiNor>("nor", p_.device.nor_bytes);
  map(SSD_NOR_BASE, *nor_);

  if (p_.firmware.mode == "iss") {
    const std::string path = p_.firmware.image.empty() ? std::string(SSDVP_DEFAULT_FIRMWARE) : p_.firmware.image;
    IssParams ip;
    ip.clock_mhz = p_.firmware.clock_mhz;
    ip.cpi = p_.firmware.cpi;
    ip.quantum_instructions = p_.firmware.quantum_instructions;
    ip.exact_quanta = p_.firmware.exact_quanta;
    ip.skip_idle_syncs = p_.firmware.skip_idle_syncs;
    ip.profile = p_.firmware.profile;
    for (uint32_t c = 0; c < p_.firmware.cores; c++) {
      const ElfImage image = ElfImage::load(path, IssCore::loadable_regions(c));
      auto core = std::make_unique<IssCore>(("core" + std::to_string(c)).c_str(), c, ip, *dram_, *sysctl_, image);
      core->socket.bind(router_->target);
      cores_.push_back(core.get());
      core_modules_.push_back(std::move(core));
    }
  } else {
    for (uint32_t c = 0; c < p_.firmware.cores; c++) {
      auto core = std::make_unique<NativeCore>(("core" + std::to_string(c)).c_str(), c, p_.firmware, *dram_,
                                               *sysctl_, c == 0 ? &fw_main : &secondary_main);
      core->socket.bind(router_->target);
      cores_.push_back(core.get());
      core_modules_.push_back(std::move(core));
    }
  }
  core_ = cores_[0];
  if (opt.gdb_port) {
    if (p_.firmware.mode != "iss") throw ConfigError("--gdb needs firmware.mode = \"iss\"");
    if (opt.gdb_core >= cores_.size())
      throw ConfigError("--gdb-core " + std::to_string(opt.gdb_core) + ": the platform has " +
                        std::to_string(cores_.size()) + " core(s)");
    gdb_ = std::make_unique<GdbServer>(opt.gdb_port);
    static_cast<IssCore*>(cores_[opt.gdb_core])->attach_debugger(gdb_.get());
  }

  DriverOptions o;
  o.precondition = opt.precondition;
  o.precond = p_.precondition;
  o.fold = cfg.get_string("workload.address") == "fold";
  o.max_requests = uint64_t(cfg.get_int("workload.max_requests"));
  const double max_ms = cfg.get_double("sim.max_sim_ms");
  o.max_sim_time = max_ms > 0 ? sc_core::sc_time(max_ms, sc_core::SC_MS) : sc_core::SC_ZERO_TIME;
  o.flush_at_end = cfg.get_bool("workload.flush_at_end");
  const bool terminal = ::isatty(STDERR_FILENO) != 0;
  o.progress = cfg.get_bool("sim.progress") && opt.progress != RunOptions::Progress::Never &&
               (terminal || opt.progress == RunOptions::Progress::Always);
  o.progress_in_place = terminal;
  o.payload = p_.payload;
  o.write_cache = p_.device.volatile_write_cache;
  o.series_interval_ns = uint64_t(cfg.get_double("sim.series_interval_ms") * 1e6 + 0.5);
  for (const auto& [io, cpu] : p_.host.cpu_types) o.cpu.types.push_back({io, cpu});
  o.cpu.cycle = sc_core::sc_time(p_.host.cpu_cycle_ms, sc_core::SC_MS);
  o.cpu.io_cost = sc_core::sc_time(p_.host.cpu_io_us, sc_core::SC_US);
  o.cpu.balance = sc_core::sc_time(p_.host.cpu_balance_ms, sc_core::SC_MS);
  o.cpu.migration = p_.host.migration;
  o.cpu.migration_period = sc_core::sc_time(p_.host.migration_ms, sc_core::SC_MS);
  const std::string spec = workload_spec_;
  const uint64_t seed = uint64_t(cfg.get_int("sim.seed"));
  driver_ = std::make_unique<HostDriver>("host", p_.host, *hif_,
                                         [spec, seed](uint64_t capacity) {
                                           workload::WorkloadContext ctx;
                                           ctx.capacity_bytes = capacity;
                                           ctx.seed = seed;
                                           return workload::make_workload(spec, ctx);
                                         },
                                         o);
  device_series_ = std::make_unique<DeviceSeries>(o.series_interval_ns, [this] { return firmware_stats(); });
  if (!opt.timeline.path.empty())
    timeline_ = std::make_unique<RunTimeline>(opt.timeline, p_.nand.channels, p_.nand.ways, p_.host.queues, *fctl_,
                                              channels_, cores_, *driver_, [this] { return firmware_stats(); });
  driver_->on_measure_start = [this] {
    if (auto* iss = dynamic_cast<IssCore*>(core_)) iss->reset_profile();   // profile the measured phase
    start_ = snapshot();
    started_ = true;
    device_series_->start();
    if (timeline_) timeline_->start();
    ops_before_start_ = ops_since_power_on_;
    if (opt_.power_cut_ns && !opt_.cut_from_power_on) spawn_timed_cut(" into the workload");
  };
  driver_->on_measure_end = [this] {
    end_ = snapshot();
    ended_ = true;
    device_series_->stop();
    if (timeline_) timeline_->stop();
  };
  driver_->on_finished = [] { sc_core::sc_stop(); };
  if (!opt.power_on_dir.empty()) {
    nand::load_nand_image(opt.power_on_dir + "/nand.img", dies_, sysctl_->nvram(), nor_->contents());
    driver_->check_against(DurableState::load(opt.power_on_dir + "/durable.bin"));
  }
  if (!opt.save_state_dir.empty() || !opt.load_state_dir.empty()) {
    const std::string flag = opt.load_state_dir.empty() ? "--save-state" : "--load-state";
    check_snapshot_supported(p_, flag);
    if (!opt.save_state_dir.empty() && !opt.load_state_dir.empty())
      throw ConfigError("--save-state and --load-state together: a loaded drive is already saved");
    if (!opt.power_on_dir.empty())
      throw ConfigError(flag + " with --after-recovery: a drive powers on over a NAND image or resumes a snapshot, not both");
    const DriveStateKey key = drive_state_key(cfg_, p_, opt.precondition);
    state_key_hex_ = key.hex;
    state_key_made_of_ = key.made_of;
    if (!opt.load_state_dir.empty()) load_state(opt.load_state_dir);
  }
  if (opt.power_on_dir.empty()) {
    // Every run starts its workload at the quiet point after preconditioning (or boot), the
    // point a snapshot is saved at: a run with --save-state, --load-state or --state-cache
    // gives the figures of the same run without them.
    const std::string dir = opt.save_state_dir;
    driver_->after_precondition = [this, dir] {
      const bool quiet = wait_until_quiet();
      if (dir.empty()) return;
      if (!quiet) {
        report_fatal("--save-state: the drive did not come to rest within " + std::to_string(int(kQuietLimitMs)) + " ms" +
                     " of simulated time after preconditioning (a firmware core kept running or a flash "
                     "operation stayed in flight); nothing saved");
        return;
      }
      try {
        save_state(dir);
      } catch (const std::exception& e) {
        report_fatal(std::string("--save-state: ") + e.what());
      }
    };
  }
  {
    // Flash operations of the workload (run.json flash_operations, what --power-cut ops:N counts).
    auto chained = fctl_->observer;
    fctl_->observer = [this, chained](const FlashOp& op) {
      if (chained) chained(op);
      ops_since_power_on_++;
      if (started_ && !ended_) ops_since_start_++;
      if (!opt_.power_cut_ops || !power_cut_.is_null() || power_failing_) return;
      if (opt_.cut_from_power_on ? ops_since_power_on_ == opt_.power_cut_ops
                                 : started_ && ops_since_start_ == opt_.power_cut_ops)
        power_fails("after " + std::to_string(opt_.power_cut_ops) + " flash operations" +
                    (opt_.cut_from_power_on ? " from power-on" : " of the workload"));
    };
  }
  if (opt.power_cut_ns && opt.cut_from_power_on) spawn_timed_cut(" after power-on");
  if (p_.check_flush_durability)
    driver_->flash_versions = [this](std::vector<uint32_t>& newest) {
      // Every host sector's tag in the array, of programs that have completed.
      const sc_core::sc_time now = sc_core::sc_time_stamp();
      std::vector<nand::Sector> page;
      for (const auto& d : dies_) {
        page.resize(d->sectors_per_page());
        for (uint32_t pl = 0; pl < d->planes(); pl++)
          for (uint32_t b = 0; b < d->blocks_per_plane(); b++) {
            const uint32_t pages = d->next_page(pl, b);
            for (uint32_t pg = 0; pg < pages; pg++) {
              if (!d->stored(pl, b, pg, page.data()) || d->programming(pl, b, pg, now)) continue;
              const nand::Sector* s = page.data();
              for (uint32_t k = 0; k < d->sectors_per_page(); k++) {
                const ssd_sector_tag& t = s[k].tag;
                // host data only: its OOB names the same LBA (translation pages, padding do not)
                if (t.lba == 0xFFFFFFFFu || t.seq == 0xFFFFFFFFu || s[k].oob.lpa != t.lba) continue;
                if (t.lba >= newest.size()) newest.resize(t.lba + 1, 0);
                newest[t.lba] = std::max(newest[t.lba], t.seq);
              }
            }
          }
      }
    };
}

SsdPlatform::~SsdPlatform() = default;

const ssd_fw_stats* SsdPlatform::firmware_stats() {
  const uint32_t a = sysctl_->debug_addr();
  if (!a) return nullptr;
  const auto* s = dram_->as<ssd_fw_stats>(a);
  return s->magic == SSD_FW_STATS_MAGIC ? s : nullptr;
}

std::vector<uint32_t> SsdPlatform::firmware_map() {
  const ssd_fw_stats* s = firmware_stats();
  if (!s) return {};
  if (s->l2p_addr == 0)
    throw std::runtime_error("--dump-map: ftl.mapping = \"" + p_.ftl.mapping +
                             "\" keeps the map in translation pages on flash, not in DRAM (use opt)");
  const uint32_t* l2p = reinterpret_cast<const uint32_t*>(dram_->at(s->l2p_addr, 4ull * s->logical_sectors));
  return std::vector<uint32_t>(l2p, l2p + s->logical_sectors);
}

SsdPlatform::Snapshot SsdPlatform::snapshot() {
  Snapshot s;
  if (const ssd_fw_stats* f = firmware_stats()) s.fw = *f;
  for (auto& d : dies_) {
    s.die_busy_ps.push_back(d->array_busy_ps());
    s.die_erases.push_back(d->total_erases());
    s.die_programmed.push_back(d->programmed_sectors());
  }
  for (auto& c : channels_) s.channel_busy_ps.push_back(c->bus_busy_ps());
  s.link_busy_ps[0] = hif_->link().busy_ps(PcieLink::HostToDevice);
  s.link_busy_ps[1] = hif_->link().busy_ps(PcieLink::DeviceToHost);
  s.dram_busy_ps = dram_->busy_ps();
  s.queue_commands = hif_->commands_per_queue();
  s.kernel_deltas = sc_core::sc_delta_count();
  s.uncorrectable_sectors = fctl_->uncorrectable_sectors();
  for (const FirmwareCore* c : cores_)
    s.cores.push_back({c->busy_time().value(), c->idle_time().value(), c->host_seconds_executing(),
                       c->wakeups(), c->mmio_accesses(), c->instructions(), c->quanta(),
                       c->syncs_skipped()});
  return s;
}

// Spawns the cut power_cut_ns from now (`when` says from what, for the cause).
void SsdPlatform::spawn_timed_cut(const std::string& when) {
  sc_core::sc_spawn([this, when] {
    sc_core::wait(sc_core::sc_time(double(opt_.power_cut_ns), sc_core::SC_NS));
    if (power_cut_.is_null() && !power_failing_ && !driver_->finished())
      power_fails(std::to_string(opt_.power_cut_ns) + " ns" + when);
  });
}

// Power-loss protection (docs/reliability.md): the firmware finds the platform's word in its
// configuration block set (and core 0 woken), stops taking host commands and puts what it
// acknowledged on flash; when it says it is done, or the capacitors' energy runs out, power
// goes.  A finished dump is a flush the host sent at the failure: every write acknowledged
// before it is durable.  (A cut during recovery does not wait: the host has only read since.)
void SsdPlatform::power_fails(const std::string& cause) {
  const sc_core::sc_time holdup = p_.device.plp_holdup;
  if (holdup == sc_core::SC_ZERO_TIME || !opt_.power_on_dir.empty()) {
    cut_power(cause);
    return;
  }
  power_failing_ = true;
  power_failed_at_ = sc_core::sc_time_stamp();
  dram_->as<ssd_fw_config>(kConfigAddr)->power_failing = 1;
  sysctl_->raise(SSD_IRQ_IPI, 0);
  sc_core::sc_spawn([this, cause, holdup] {
    sc_core::wait(holdup, power_dumped_);
    const bool dumped = power_dumped_at_ != sc_core::SC_ZERO_TIME;
    if (dumped) driver_->flush_acknowledged_before(power_failed_at_);
    const auto* fw = firmware_stats();
    cut_power(cause);
    power_cut_["power_loss_protection"] = {
        {"holdup_us", holdup.to_seconds() * 1e6},
        {"dumped", dumped},
        {"dump_us", dumped ? (power_dumped_at_ - power_failed_at_).to_seconds() * 1e6 : 0.0},
        {"buffered_sectors", fw ? fw->power_dump_sectors : 0u},
        {"failed_at_s", power_failed_at_.to_seconds()}};
  });
}

// Power goes now: what the dies were doing is left as power loss leaves it, the NAND image and
// the host's durability record are saved, and the simulation stops (DRAM, SRAM, the models'
// state are lost with the process).
void SsdPlatform::cut_power(const std::string& cause) {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  nlohmann::json interrupted = nlohmann::json::array();
  uint64_t paired_lost = 0;
  for (auto& d : dies_) {
    const std::string what = d->power_cut(now, p_.nand.paired_page_loss, &paired_lost);
    if (!what.empty()) interrupted.push_back(what);
  }
  std::filesystem::create_directories(opt_.power_cut_dir);
  nand::save_nand_image(opt_.power_cut_dir + "/nand.img", dies_, sysctl_->nvram(), nor_->contents());
  if (opt_.power_on_dir.empty())
    driver_->durable_state().save(opt_.power_cut_dir + "/durable.bin");
  else   // powered on over an earlier cut: the host has only read since, its record stands
    std::filesystem::copy_file(opt_.power_on_dir + "/durable.bin", opt_.power_cut_dir + "/durable.bin",
                               std::filesystem::copy_options::overwrite_existing);
  power_cut_ = {{"cause", cause},
                {"at_s", now.to_seconds()},
                {"during_recovery", !opt_.power_on_dir.empty() && !started_},
                {"flash_ops_from_power_on", ops_since_power_on_},
                {"into_workload_s", started_ ? (now - driver_->measure_start()).to_seconds() : 0.0},
                {"flash_ops_into_workload", ops_since_start_},
                {"interrupted", interrupted},
                {"paired_pages_lost", paired_lost},
                {"host_requests_done", driver_->requests_done()},
                {"image", opt_.power_cut_dir + "/nand.img"}};
  sc_core::sc_stop();
}

nlohmann::json SsdPlatform::run() {
  const auto wall0 = std::chrono::steady_clock::now();
  sc_core::sc_start();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  nlohmann::json r = results(wall);
  if (timeline_) r["timeline"] = timeline_report();
  return r;
}

nlohmann::json SsdPlatform::timeline_report() {
  if (ended_ == false) timeline_->stop();   // the run stopped early (a fatal error, sim.max_sim_ms)
  const nlohmann::json run = {{"measured_run_us", {driver_->measure_start().to_seconds() * 1e6,
                                                   (ended_ ? driver_->measure_end() : sc_core::sc_time_stamp()).to_seconds() * 1e6}},
                              {"host_requests", driver_->requests_done()},
                              {"flash_operations", ops_since_start_},
                              {"channels", p_.nand.channels},
                              {"ways", p_.nand.ways}};
  const auto w0 = std::chrono::steady_clock::now();
  const uint64_t kept = timeline_->write(run.dump());
  const double write_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(opt_.timeline.path, ec);
  return {{"file", opt_.timeline.path},
          {"events_kept", kept},
          {"events_dropped", timeline_->timeline().dropped()},
          {"max_events", opt_.timeline.max_events},
          {"bytes", ec ? 0 : uint64_t(bytes)},
          {"write_wall_s", write_s}};
}

// Bad blocks since the drive was formatted (preconditioning included): the firmware's table
// and failures beside the NAND's own counts (P/E cycles are run.json's "wear").
nlohmann::json SsdPlatform::media_report(const ssd_fw_stats& b) const {
  uint64_t factory = 0, grown = 0, failed_programs = 0, failed_erases = 0, bad_programs = 0, bad_erases = 0;
  for (const auto& d : dies_) {
    failed_programs += d->failed_programs();
    failed_erases += d->failed_erases();
    bad_programs += d->bad_block_programs();
    bad_erases += d->bad_block_erases();
    for (uint32_t pl = 0; pl < d->planes(); pl++)
      for (uint32_t blk = 0; blk < d->blocks_per_plane(); blk++) {
        const uint8_t bad = d->bad(pl, blk);
        if (bad == nand::Die::kFactoryBad) factory++;
        else if (bad == nand::Die::kGrownBad) grown++;
      }
  }
  return {{"factory_bad_superblocks", b.factory_bad_superblocks},
          {"grown_bad_superblocks", b.grown_bad_superblocks},
          {"retiring_superblocks", b.retiring_superblocks},
          {"program_failures", b.program_failures},
          {"erase_failures", b.erase_failures},
          {"program_retry_sectors", b.program_retry_sectors},
          {"read_only", b.read_only != 0},
          {"writes_refused", b.writes_refused},
          {"nand", {{"factory_bad_blocks", factory},
                    {"grown_bad_blocks", grown},
                    {"failed_programs", failed_programs},
                    {"failed_erases", failed_erases},
                    {"programs_on_blocks_bad_at_power_on", bad_programs},
                    {"erases_on_blocks_bad_at_power_on", bad_erases},
                    {"read_retries", fctl_->corrected_reads()}}}};
}

// Wear levelling (ftl-sw/wear/): the firmware's erase counts of its good superblocks at the
// end (the NAND's own per-block counts are run.json's "wear"), the levelling moves of the
// measured window and the NOR log's totals.
nlohmann::json SsdPlatform::wear_report(const ssd_fw_stats& a, const ssd_fw_stats& b) {
  uint64_t lo = UINT64_MAX, hi = 0, sum = 0, n = 0;
  if (const ssd_fw_stats* s = firmware_stats(); s && s->sb_erases_addr && s->superblocks) {
    const auto* erases = reinterpret_cast<const uint32_t*>(dram_->at(s->sb_erases_addr, 4ull * s->superblocks));
    const auto* state = reinterpret_cast<const uint8_t*>(dram_->at(s->sb_state_addr, s->superblocks));
    const uint32_t per_die = s->superblocks / p_.nand.dies();
    for (uint32_t sb = 0; sb < s->superblocks; sb++) {
      if (sb % per_die >= p_.nand.blocks_of(sb / per_die) || state[sb] == 4 /* SB_BAD */) continue;
      lo = std::min<uint64_t>(lo, erases[sb]);
      hi = std::max<uint64_t>(hi, erases[sb]);
      sum += erases[sb];
      n++;
    }
  }
  return {{"spread_limit", p_.ftl.wear_spread},
          {"runs", b.wear_level_runs - a.wear_level_runs},
          {"sectors_moved", b.wear_level_sectors - a.wear_level_sectors},
          {"superblock_erases", {{"min", n ? lo : 0}, {"mean", n ? double(sum) / double(n) : 0.0}, {"max", hi}}},
          {"nor_log", {{"records", b.erase_log_records}, {"compactions", b.erase_log_compactions},
                       {"record_step", p_.ftl.wear_record_step}}}};
}

nlohmann::json SsdPlatform::results(double wall_s) {
  using nlohmann::json;
  json r;
  r["ssdvp_results_version"] = 1;
  r["platform"] = p_.name;
  json cfg = json::object();
  for (const auto& [k, v] : cfg_.echo()) cfg[k] = v;
  r["config"] = cfg;
  r["errors"] = fatal_errors();
  if (!driver_->finished() && power_cut_.is_null() && fatal_errors().empty())   // nothing left to happen
    r["errors"].push_back("the simulation ran out of events at " + std::to_string(sc_core::sc_time_stamp().to_seconds()) +
                          " s with the workload unfinished (" + std::to_string(driver_->requests_done()) +
                          " host requests done): the firmware is stuck (firmware.cores[].pc_at_end)");
  r["completed"] = (driver_->finished() || !power_cut_.is_null()) && r["errors"].empty();
  r["flash_operations"] = ops_since_start_;   // completed during the workload (what --power-cut ops:N counts)
  if (!power_cut_.is_null()) r["power_cut"] = power_cut_;
  if (const ssd_fw_stats* fs = firmware_stats(); fs && fs->recovered) {
    const auto& rc = driver_->recovery_check();
    r["recovery"] = {{"boot_to_ready_s", driver_->ready_at().to_seconds()},
                     {"plane_reads", fs->recovery_reads},
                     {"flash_operations", ops_before_start_},
                     {"used_superblocks", fs->recovery_used_blocks},
                     {"partly_written_superblocks", fs->recovery_open_blocks},
                     {"unreadable_superpages", fs->recovery_unreadable_pages},
                     {"translation_pages_found", fs->recovery_tp_found},
                     {"translation_pages_written", fs->recovery_tp_writes},
                     {"trim_records_found", fs->recovery_trim_records}};
    if (!opt_.power_on_dir.empty())
      r["recovery"]["check"] = {{"sectors_checked", rc.sectors},
                                {"lost", rc.lost},
                                {"newer_than_durable", rc.newer},
                                {"zeros", rc.zeros},
                                {"first_lost", rc.first_lost}};
  }
  const auto* wl = driver_->workload();
  r["workload"] = wl ? wl->describe() : std::string();
  if (wl) r["workload_skipped_lines"] = wl->skipped_lines();

  const Snapshot end = ended_ ? end_ : snapshot();
  const Snapshot& st = start_;
  const double t0 = driver_->measure_start().to_seconds();
  const double t1 = started_ ? (driver_->finished() ? driver_->measure_end() : sc_core::sc_time_stamp()).to_seconds() : t0;
  const double sim = t1 - t0;
  r["sim_time_s"] = sim;
  r["sim_time_total_s"] = sc_core::sc_time_stamp().to_seconds();
  if (driver_->series().on()) {
    const HostSeries& hs = driver_->series();
    r["throughput_series"] = {{"file", "throughput.csv"},
                              {"interval_ms", double(hs.interval_ns()) / 1e6},
                              {"intervals", hs.intervals()}};
    std::vector<double> t_ms;
    for (size_t i = 0; i < hs.intervals(); i++) t_ms.push_back(double((i + 1) * hs.interval_ns()) / 1e6);
    r["series"] = {{"interval_ms", double(hs.interval_ns()) / 1e6},
                   {"start_ms", t0 * 1e3},
                   {"t_ms", t_ms},
                   {"ops", hs.ops_json()},
                   {"device", device_series_->json(hs.intervals())}};
  }
  r["wall_time_s"] = wall_s;
  r["host_requests"] = driver_->requests_done();
  const double run_wall = driver_->measured_wall_seconds();
  r["run_wall_time_s"] = run_wall;
  r["precondition_wall_time_s"] = driver_->precondition_wall_seconds();
  {   // the simulator's own peak memory (this process: platform, NAND contents, firmware DRAM)
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    r["host_peak_rss_mib"] = double(u.ru_maxrss) / 1024.0;   // Linux: KiB
  }
  // Simulation speed of the measured phase (preconditioning excluded).
  r["host_requests_per_wall_s"] = run_wall > 0 ? double(driver_->requests_done()) / run_wall : 0.0;
  {   // the SystemC kernel's work in the measured phase: one delta cycle per evaluation round
    const uint64_t deltas = end.kernel_deltas - st.kernel_deltas;
    r["sim_kernel"] = {{"delta_cycles", deltas},
                       {"delta_cycles_per_request",
                        driver_->requests_done() ? double(deltas) / double(driver_->requests_done()) : 0.0}};
  }

  json ops = json::object();
  uint64_t total_req = 0, total_bytes = 0;
  for (auto op : {workload::Op::Read, workload::Op::Write, workload::Op::Flush, workload::Op::Trim}) {
    const OpStats& s = driver_->stats(op);
    if (!s.requests) continue;
    total_req += s.requests;
    total_bytes += s.bytes;
    const auto& h = s.latency;
    ops[workload::op_name(op)] = {
        {"requests", s.requests},
        {"bytes", s.bytes},
        {"errors", s.errors},
        {"iops", sim > 0 ? double(s.requests) / sim : 0.0},
        {"mbps", sim > 0 ? double(s.bytes) / sim / 1e6 : 0.0},
        {"latency_us",
         {{"mean", h.mean() / 1e3},
          {"p50", double(h.percentile(50)) / 1e3},
          {"p90", double(h.percentile(90)) / 1e3},
          {"p99", double(h.percentile(99)) / 1e3},
          {"p99.9", double(h.percentile(99.9)) / 1e3},
          {"p99.99", double(h.percentile(99.99)) / 1e3},
          {"max", double(h.max()) / 1e3}}}};
    if (op == workload::Op::Read && driver_->read_wait_stats(0).requests < s.requests) {
      // Reads by the extra device work they waited for (firmware completion info).
      json waits = json::object();
      for (size_t k = 0; k < HostDriver::kReadWaitClasses; k++) {
        const OpStats& w = driver_->read_wait_stats(k);
        const auto& wh = w.latency;
        waits[HostDriver::read_wait_name(k)] = {
            {"requests", w.requests},
            {"latency_us",
             {{"mean", wh.mean() / 1e3}, {"p50", double(wh.percentile(50)) / 1e3},
              {"p99", double(wh.percentile(99)) / 1e3}, {"max", double(wh.max()) / 1e3}}}};
      }
      ops["read"]["waited_for"] = waits;
    }
  }
  r["ops"] = ops;
  r["total"] = {{"requests", total_req},
                {"iops", sim > 0 ? double(total_req) / sim : 0.0},
                {"mbps", sim > 0 ? double(total_bytes) / sim / 1e6 : 0.0}};

  {
    // Host threads and the queues their CPUs submitted on.
    auto op_json = [sim](const OpStats& o) {
      const auto& h = o.latency;
      return json{{"requests", o.requests},
                  {"mbps", sim > 0 ? double(o.bytes) / sim / 1e6 : 0.0},
                  {"errors", o.errors},
                  {"latency_us",
                   {{"mean", h.mean() / 1e3}, {"p50", double(h.percentile(50)) / 1e3},
                    {"p99", double(h.percentile(99)) / 1e3}, {"max", double(h.max()) / 1e3}}}};
    };
    json threads = json::array();
    for (unsigned t = 0; t < driver_->threads(); t++) {
      const HostDriver::ThreadInfo info = driver_->thread_info(t);
      json th = {{"thread", t}, {"cpu", info.cpu}, {"queue", info.queue},
                 {"requests", info.read->requests + info.write->requests}};
      if (info.read->requests) th["read"] = op_json(*info.read);
      if (info.write->requests) th["write"] = op_json(*info.write);
      threads.push_back(th);
    }
    r["threads"] = threads;
    // Commands fetched per queue in the measured window (the end snapshot is taken before the
    // final flush).
    std::vector<uint64_t> per_queue(p_.host.queues, 0);
    for (size_t q = 0; q < per_queue.size() && q < end.queue_commands.size() && q < st.queue_commands.size(); q++)
      per_queue[q] = end.queue_commands[q] - st.queue_commands[q];
    r["host"] = {{"cpus", p_.host.cpus}, {"queues", p_.host.queues}, {"commands_per_queue", per_queue}};
    if (const CpuScheduler* sched = driver_->cpu_scheduler()) r["host_cpu"] = sched->results();
  }

  const ssd_fw_stats& a = st.fw;
  const ssd_fw_stats& b = end.fw;
  const uint64_t host_w = b.host_write_sectors - a.host_write_sectors;
  const uint64_t prog = b.flash_prog_sectors - a.flash_prog_sectors;
  r["waf"] = host_w ? double(prog) / double(host_w) : 0.0;
  r["program_unit_sectors"] = uint64_t(p_.nand.planes) * p_.nand.sectors_per_page;
  if (p_.ftl.mapping != "opt") {
    const ssd_fw_stats& a = st.fw;
    const ssd_fw_stats& b = end.fw;
    auto d = [](uint64_t x, uint64_t y) { return x - y; };
    r["mapping"] = {
        {"scheme", p_.ftl.mapping},
        {"sched", p_.ftl.sched},
        {"translation_pages", b.translation_pages},
        {"cmt_slots", b.cmt_slots},
        {"cmt_clean_slots", b.cmt_clean_slots},
        {"dirty_entry_capacity", b.dirty_entry_capacity},
        {"dram_bytes", {{"cmt", b.cmt_bytes}, {"gtd", b.gtd_bytes}, {"dirty_entries", b.dirty_entry_bytes},
                        {"budget", uint64_t(double(b.logical_sectors) * 4 * p_.ftl.cmt_ratio)},
                        {"metadata", b.map_meta_bytes}}},
        {"read_lookups", {{"hits", d(b.cmt_read_hits, a.cmt_read_hits)},
                          {"misses", d(b.cmt_read_misses, a.cmt_read_misses)},
                          {"clean_hits", d(b.cmt_clean_hits, a.cmt_clean_hits)},
                          {"dirty_hits", d(b.cmt_dirty_hits, a.cmt_dirty_hits)}}},
        {"updates", {{"hits", d(b.cmt_update_hits, a.cmt_update_hits)},
                     {"misses", d(b.cmt_update_misses, a.cmt_update_misses)}}},
        {"tp_reads", d(b.tp_reads, a.tp_reads)},
        {"tp_writes", d(b.tp_writes, a.tp_writes)},
        {"tp_dirty_evictions", d(b.tp_dirty_evictions, a.tp_dirty_evictions)},
        {"batch_updates", d(b.batch_updates, a.batch_updates)},
        {"batch_entries", d(b.batch_entries, a.batch_entries)},
        {"translation_gc_runs", d(b.map_gc_runs, a.map_gc_runs)},
        {"translation_gc_moves", d(b.map_gc_moves, a.map_gc_moves)},
        {"adapt_steps", d(b.adapt_steps, a.adapt_steps)},
        {"host_read_commands", d(b.host_read_cmds, a.host_read_cmds)},
        {"reads_waited_for", {{"map_read", d(b.reads_waited_map_read, a.reads_waited_map_read)},
                              {"map_write", d(b.reads_waited_map_write, a.reads_waited_map_write)},
                              {"gc", d(b.reads_waited_gc, a.reads_waited_gc)},
                              {"queued_behind_writes", d(b.reads_queued_behind_writes, a.reads_queued_behind_writes)}}}};
  }
  if (p_.ftl.placement != "none") {
    r["placement"] = {{"policy", p_.ftl.placement},
                      {"host_slc_sectors", b.host_slc_sectors - a.host_slc_sectors},
                      {"host_mlc_sectors", b.host_mlc_sectors - a.host_mlc_sectors},
                      {"slc_gc_runs", b.slc_gc_runs - a.slc_gc_runs},
                      {"mlc_gc_runs", b.mlc_gc_runs - a.mlc_gc_runs},
                      {"migrated_sectors", b.migrated_sectors - a.migrated_sectors},
                      {"idle_migrated_sectors", b.idle_migrated_sectors - a.idle_migrated_sectors},
                      {"slc_kept_sectors", b.slc_kept_sectors - a.slc_kept_sectors},
                      {"idle_migration_runs", b.idle_migration_runs - a.idle_migration_runs},
                      {"idle_migration_stops", b.idle_migration_stops - a.idle_migration_stops},
                      {"idle_ops_while_stopped", b.idle_ops_while_stopped - a.idle_ops_while_stopped},
                      {"lapt_bytes", b.lapt_bytes},
                      {"map_bytes", b.map_bytes},
                      {"units", b.units},
                      {"unit_gc_runs", b.unit_gc_runs - a.unit_gc_runs},
                      {"unit_map_bytes", b.unit_map_bytes}};
    if (p_.ftl.slc_dynamic_blocks)
      r["placement"]["slc_cache"] = {{"dynamic_blocks_per_plane", p_.ftl.slc_dynamic_blocks},
                                     {"borrowed_superblocks", b.slc_borrowed},
                                     {"borrows", b.slc_borrows - a.slc_borrows},
                                     {"returns", b.slc_returns - a.slc_returns},
                                     {"recovery_erases", b.slc_recovery_erases}};
  }
  {
    // The write buffer: what host writes and reads saw of it (measured window).
    const uint64_t inserts = b.wbuf_inserts - a.wbuf_inserts;
    const uint64_t read_sectors = b.host_read_sectors - a.host_read_sectors;
    const uint64_t hits = b.wbuf_read_hits - a.wbuf_read_hits;
    json wb = {{"kind", p_.ftl.write_buffer},
               {"sectors", p_.ftl.wbuf_sectors},
               {"mib", double(p_.ftl.wbuf_sectors) / 256.0},
               {"inserted_sectors", inserts},
               {"read_hit_sectors", hits},
               {"read_hit_ratio", read_sectors ? double(hits) / double(read_sectors) : 0.0},
               {"part_sectors", b.wbuf_part_sectors},   // each firmware core's part
               {"fill_at_insert", inserts && b.wbuf_part_sectors
                                      ? double(b.wbuf_used_at_insert - a.wbuf_used_at_insert) / double(inserts) /
                                            double(b.wbuf_part_sectors)
                                      : 0.0},
               {"write_stalls", b.write_stalls - a.write_stalls}};
    if (p_.ftl.write_buffer == "ring")
      wb["ring"] = {{"stripe_sectors", b.ring_stripe_sectors},
                    {"timeout_drains", b.ring_timeout_drains - a.ring_timeout_drains},
                    {"limiter_holds", b.ring_limiter_holds - a.ring_limiter_holds},
                    {"l2p_updates", b.ring_l2p_updates - a.ring_l2p_updates},
                    {"user_limit_min", b.ring_user_limit_min},
                    {"superseded_written_sectors", b.wbuf_superseded_written - a.wbuf_superseded_written},
                    {"mem", b.ring_mem},
                    {"sync", b.ring_sync},
                    {"used", b.ring_used},
                    {"used_max", b.ring_used_max}};
    r["write_buffer"] = wb;
  }
  if (p_.ftl.readahead != "none") {
    auto d = [](uint64_t x, uint64_t y) { return x - y; };
    const uint64_t hits = d(b.ra_hit_sectors, a.ra_hit_sectors), misses = d(b.ra_miss_sectors, a.ra_miss_sectors);
    const uint64_t behind = d(b.ra_reads_behind_prefetch, a.ra_reads_behind_prefetch);
    r["readahead"] = {
        {"policy", p_.ftl.readahead},
        {"hit_sectors", hits},
        {"late_hit_sectors", d(b.ra_late_hit_sectors, a.ra_late_hit_sectors)},
        {"miss_sectors", misses},
        {"hit_ratio", hits + misses ? double(hits) / double(hits + misses) : 0.0},
        {"predicted_sectors", d(b.ra_predicted_sectors, a.ra_predicted_sectors)},
        {"not_read_ahead_sectors",   // of the predicted sectors, and why (docs/readahead.md)
         {{"beyond_half_the_cache", d(b.ra_dropped_half_cache_sectors, a.ra_dropped_half_cache_sectors)},
          {"no_cache_entry_free", d(b.ra_dropped_no_room_sectors, a.ra_dropped_no_room_sectors)},
          {"past_the_namespace", d(b.ra_dropped_beyond_end_sectors, a.ra_dropped_beyond_end_sectors)},
          {"map_not_cached", d(b.ra_pred_map_miss_sectors, a.ra_pred_map_miss_sectors)},
          {"already_in_the_cache", d(b.ra_pred_cached_sectors, a.ra_pred_cached_sectors)},
          {"in_the_write_buffer", d(b.ra_pred_buffered_sectors, a.ra_pred_buffered_sectors)}}},
        {"queued_sectors", d(b.ra_pred_queued_sectors, a.ra_pred_queued_sectors)},   // the rest: given an entry
        {"waiting_for_room_sectors", b.ra_pending_sectors},   // at the end of the run
        {"predictions_waited_for_room", d(b.ra_waited_for_room, a.ra_waited_for_room)},
        {"prefetch_sectors", d(b.ra_prefetch_sectors, a.ra_prefetch_sectors)},
        {"prefetch_useful", d(b.ra_prefetch_useful, a.ra_prefetch_useful)},
        {"prefetch_wasted", d(b.ra_prefetch_wasted, a.ra_prefetch_wasted)},
        {"prefetch_cancelled", d(b.ra_prefetch_cancelled, a.ra_prefetch_cancelled)},
        {"skipped_map_miss", d(b.ra_skipped_map_miss, a.ra_skipped_map_miss)},
        {"predictions_tree", d(b.ra_predictions_tree, a.ra_predictions_tree)},
        {"predictions_sequential", d(b.ra_predictions_seq, a.ra_predictions_seq)},
        {"invalidated_sectors", d(b.ra_invalidated_sectors, a.ra_invalidated_sectors)},
        {"invalidated_busy", b.ra_invalidated_busy - a.ra_invalidated_busy},
        {"reads_behind_prefetch", behind},
        {"prefetch_delay_us",
         {{"mean", behind ? double(d(b.ra_prefetch_delay_sum_ns, a.ra_prefetch_delay_sum_ns)) / double(behind) / 1e3 : 0.0},
          {"max", double(b.ra_prefetch_delay_max_ns) / 1e3}}},
        {"cache_sectors", b.ra_cache_sectors},
        {"tree_drops", d(b.ra_tree_drops, a.ra_tree_drops)},
        {"tree_nodes", b.ra_tree_nodes},
        {"tree_nodes_max", b.ra_tree_nodes_max},
        {"tree_node_capacity", b.ra_tree_node_capacity},
        {"dram_bytes", {{"cache", b.ra_cache_bytes}, {"analyser", b.ra_tree_bytes},
                        {"analyser_budget", uint64_t(p_.ftl.pattern_bytes)}}}};
  }
  r["ftl"] = {{"host_write_sectors", host_w},
              {"host_read_sectors", b.host_read_sectors - a.host_read_sectors},
              {"flash_program_sectors", prog},
              {"gc_copied_sectors", b.gc_prog_sectors - a.gc_prog_sectors},
              {"padding_sectors", b.pad_sectors - a.pad_sectors},
              {"gc_runs", b.gc_runs - a.gc_runs},
              {"gc_index_picks", b.gc_index_picks - a.gc_index_picks},
              {"gc_index_checks", b.gc_index_checks - a.gc_index_checks},
              {"gc_pace_holds", b.gc_pace_holds - a.gc_pace_holds},
              {"gc_pace_host_waits", b.gc_pace_host_waits - a.gc_pace_host_waits},
              {"erases", b.erases - a.erases},
              {"flash_reads", b.flash_reads - a.flash_reads},
              {"write_buffer_read_hits", b.wbuf_read_hits - a.wbuf_read_hits},
              {"unmapped_reads", b.unmapped_reads - a.unmapped_reads},
              {"media_errors", b.media_errors - a.media_errors},
              {"write_stalls", b.write_stalls - a.write_stalls},
              {"durable_writes", b.durable_writes - a.durable_writes},
              {"trim_log", {{"sectors_written", b.trim_log_sectors - a.trim_log_sectors},
                            {"generations", b.trim_log_generations - a.trim_log_generations},
                            {"records_peak", b.trim_log_peak},
                            {"trims_ignored", b.trims_ignored - a.trims_ignored}}},
              {"bad_blocks", media_report(firmware_stats() ? *firmware_stats() : b)},   // at the end, not the measured window
              {"wear_levelling", wear_report(a, b)},
              {"logical_sectors", b.logical_sectors},
              {"physical_sectors", p_.nand.physical_bytes() / 4096},
              {"firmware_dram_bytes", b.dram_bytes_used}};

  auto util = [&](uint64_t busy_end, uint64_t busy_start) {
    return sim > 0 ? double(busy_end - busy_start) * 1e-12 / sim : 0.0;
  };
  json dies = json::array(), chans = json::array();
  for (size_t i = 0; i < dies_.size(); i++) dies.push_back(util(end.die_busy_ps[i], st.die_busy_ps.empty() ? 0 : st.die_busy_ps[i]));
  for (size_t i = 0; i < channels_.size(); i++)
    chans.push_back(util(end.channel_busy_ps[i], st.channel_busy_ps.empty() ? 0 : st.channel_busy_ps[i]));
  r["utilisation"] = {{"dies", dies},
                      {"channels", chans},
                      {"pcie_host_to_device", util(end.link_busy_ps[0], st.link_busy_ps[0])},
                      {"pcie_device_to_host", util(end.link_busy_ps[1], st.link_busy_ps[1])},
                      {"dram", util(end.dram_busy_ps, st.dram_busy_ps)}};
  if (p_.channel.model == "rtl") {
    uint64_t clocked = 0, late = 0;
    for (ChannelIf* ch : channels_)
      if (auto* rtl = dynamic_cast<RtlChannel*>(ch)) clocked += rtl->cycles_clocked(), late += rtl->late_starts();
    const double cycles = sim / p_.channel.cycle.to_seconds() * double(channels_.size());
    r["rtl"] = {{"bus_cycles_simulated", cycles},
                {"cycles_clocked", clocked},
                {"late_starts", late},
                {"bus_cycles_per_wall_s", run_wall > 0 ? cycles / run_wall : 0.0}};
  }
  json cores = json::array();
  for (size_t i = 0; i < end.cores.size(); i++) {
    const auto& b = end.cores[i];
    const Snapshot::Core a = i < st.cores.size() ? st.cores[i] : Snapshot::Core{};
    const double host = b.host_s - a.host_s;
    const ssd_core_stats& fa = st.fw.core[i % SSD_MAX_CORES];
    const ssd_core_stats& fb = end.fw.core[i % SSD_MAX_CORES];
    const double busy = double(b.busy_ps - a.busy_ps) * 1e-12, idle = double(b.idle_ps - a.idle_ps) * 1e-12;
    cores.push_back({{"busy_s", busy},
                     {"idle_s", idle},
                     {"busy_share", busy + idle > 0 ? busy / (busy + idle) : 0.0},
                     {"host_commands", fb.host_cmds - fa.host_cmds},
                     {"buffer_inserted_sectors", fb.wbuf_inserts - fa.wbuf_inserts},
                     {"flushes", fb.flushes - fa.flushes},
                     {"programs", fb.programs - fa.programs},
                     {"passes", fb.passes - fa.passes},
                     {"lock_waits", fb.lock_waits - fa.lock_waits},
                     {"lock_spins", fb.lock_spins - fa.lock_spins},
                     {"ipis_sent", fb.ipis_sent - fa.ipis_sent},
                     {"wakeups", b.wakeups - a.wakeups},
                     {"mmio_accesses", b.mmio - a.mmio},
                     {"instructions", b.instructions - a.instructions},
                     {"quanta", b.quanta - a.quanta},
                     {"syncs_skipped", b.syncs_skipped - a.syncs_skipped},
                     {"host_seconds_executing", host},
                     {"mips_while_executing", host > 0 ? double(b.instructions - a.instructions) / host / 1e6 : 0.0}});
  }
  r["firmware"] = {{"mode", p_.firmware.mode}, {"cores", cores}, {"uart", uart_->lines()},
                   {"mailbox_messages", mailbox_->messages_sent()}};
  if (auto* iss = dynamic_cast<IssCore*>(core_)) {
    r["firmware"]["iss_engine"] = iss->engine();
    r["firmware"]["exact_quanta"] = iss->exact_quanta();
    r["firmware"]["skip_idle_syncs"] = p_.firmware.skip_idle_syncs;
    uint64_t unlocated = 0;
    for (size_t i = 0; i < cores_.size(); i++) {
      const auto* c = static_cast<const IssCore*>(cores_[i]);
      unlocated += c->unlocated_accesses();
      r["firmware"]["cores"][i]["pc_at_end"] = c->pc();   // where a stuck core is
    }
    r["firmware"]["mmio_accesses_unlocated"] = unlocated;
  }
  if (auto* iss = dynamic_cast<IssCore*>(core_); iss && p_.firmware.profile) {
    json prof = json::array();
    for (const auto& [fn, n] : iss->profile()) prof.push_back({{"function", fn}, {"instructions", n}});
    r["firmware"]["profile"] = prof;
  }
  // Wear: erase counts of every block (preconditioning included), and timed erases per die.
  uint64_t wear_min = UINT64_MAX, wear_max = 0, wear_sum = 0, blocks = 0;
  json erases_per_die = json::array();
  uint64_t die_programmed = 0;
  for (size_t d = 0; d < dies_.size(); d++) {
    for (uint32_t pl = 0; pl < p_.nand.planes; pl++)
      for (uint32_t b = 0; b < p_.nand.blocks_of(uint32_t(d)); b++) {
        const uint64_t e = dies_[d]->erase_count(pl, b);
        wear_min = std::min(wear_min, e);
        wear_max = std::max(wear_max, e);
        wear_sum += e;
        blocks++;
      }
    erases_per_die.push_back(end.die_erases[d] - (st.die_erases.empty() ? 0 : st.die_erases[d]));
    die_programmed += end.die_programmed[d] - (st.die_programmed.empty() ? 0 : st.die_programmed[d]);
  }
  // The dies' own count of programmed sectors, next to the firmware's (ftl.flash_program_sectors).
  uint64_t compact_blocks = 0, wide_blocks = 0;
  uint64_t slc_mode_blocks = 0;
  for (const auto& d : dies_) {
    d->count_stored_blocks(compact_blocks, wide_blocks);
    for (uint32_t pl = 0; pl < d->planes(); pl++)
      for (uint32_t b = 0; b < d->blocks_per_plane(); b++) slc_mode_blocks += d->slc_mode(pl, b);
  }
  r["nand"] = {{"programmed_sectors", die_programmed},
               {"waf", host_w ? double(die_programmed) / double(host_w) : 0.0},
               {"compact_blocks", compact_blocks},
               {"wide_blocks", wide_blocks},
               {"slc_mode_blocks", slc_mode_blocks}};
  uint64_t retried = 0, steps = 0, rber_lost = 0;
  for (const auto& d : dies_) {
    retried += d->retried_reads();
    steps += d->retry_steps();
    rber_lost += d->rber_uncorrectable();
  }
  r["wear"] = {{"block_erases_min", blocks ? wear_min : 0},
               {"block_erases_mean", blocks ? double(wear_sum) / double(blocks) : 0.0},
               {"block_erases_max", wear_max},
               {"erases_per_die", erases_per_die},
               {"read_retry", {{"reads", retried}, {"steps", steps}, {"uncorrectable_plane_reads", rber_lost}}}};
  if (const IntegrityChecker* ic = driver_->integrity()) {
    // The error contract: every read verified or failed with a media error, no more media
    // errors than the dies injected, no status nothing explains (HostDriver::Outcomes).
    const Outcomes& o = driver_->outcomes();
    // Host reads happen only in the measured phase; GC reads there count too (an upper bound).
    const uint64_t injected = fctl_->uncorrectable_sectors() - start_.uncorrectable_sectors;
    uint64_t unexplained = o.unexplained;
    std::vector<std::string> why = o.first_unexplained;
    if (o.refused_write_protected && !(firmware_stats() && firmware_stats()->read_only)) {
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
                      {"flushes_checked", driver_->flushes_checked()},
                      {"durable_writes_checked", driver_->durable_writes_checked()},
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
  }
  json statuses = json::object();
  for (const auto& [s, n] : driver_->error_statuses()) statuses[std::to_string(s)] = n;
  r["host"]["unaligned_requests"] = driver_->unaligned_requests();
  r["host"]["folded_requests"] = driver_->folded_requests();
  r["host"]["error_statuses"] = statuses;
  if (!drive_state_.is_null()) r["drive_state"] = drive_state_;
  return r;
}

}  // namespace ssdvp
