#include "platforms/ssd_platform.h"

#include "platforms/device_series.h"
#include "platforms/drive_snapshot.h"
#include "platforms/firmware_boot_config.h"
#include "platforms/sections/device_sections.h"
#include "platforms/sections/firmware_sections.h"
#include "platforms/sections/ftl_section.h"
#include "platforms/sections/host_sections.h"
#include "traces/fio_job_file.h"

#include <sys/resource.h>
#include <unistd.h>

#include <cmath>
#include <chrono>
#include <filesystem>
#include <cstring>
#include <iostream>

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
#include "models/host/host_cpus.h"
#include "models/host/host_ftl.h"
#include "models/host/host_io_stack.h"
#include "models/host/oc_flash_backend.h"
#include "models/host/oc_host.h"
#include "models/host/zns_flash_backend.h"
#include "models/host/host_interface.h"
#include "models/nand/die.h"
#include "models/nand/nand_image.h"

extern "C" {
#include "ftl-sw/core/ftl.h"
}

namespace ssdvp {

namespace {

// What the generators know of the namespace: a zoned device's zones (docs/zns.md), the FDP
// configuration (docs/fdp.md).
void add_namespace(const PlatformParams& p, workload::WorkloadContext& ctx) {
  ctx.fdp_handles = p.ftl.fdp_handles;
  ctx.fdp_groups = p.ftl.fdp_groups;
  if (p.host_ftl.on()) return;   // a host FTL's block device: the zones are its own business
  const auto zg = p.zone_geometry();
  if (!zg) return;
  ctx.zone_size_bytes = zg->zone_size * 4096;
  ctx.zone_capacity_bytes = zg->zone_capacity * 4096;
  ctx.zones = zg->zones;
  ctx.max_open_zones = zg->max_open;
  ctx.capacity_bytes = uint64_t(zg->zones) * ctx.zone_size_bytes;
}

// A test aid (KeyRole::TestAid) is refused unless the run opts in; one that is on is said on
// stderr, whatever the progress setting, so a broken drive's figures are never read as the drive's.
void check_test_aids(const Config& cfg, bool allowed) {
  const std::vector<std::string> on = cfg.test_aids_on();
  if (on.empty()) return;
  std::string list, where;
  for (const auto& a : on) {
    list += (list.empty() ? "" : ", ") + a;
    where += (where.empty() ? "" : "; ") + cfg.origin(a.substr(0, a.find(' '))) + ": " + a;
  }
  if (!allowed)
    throw ConfigError(where + (on.size() > 1 ? ": test aids (" : ": a test aid (") +
                      "a deliberately broken drive or a check of the firmware's internals, docs/config.md#test-aids) " +
                      (on.size() > 1 ? "are" : "is") + " refused unless the run opts in (ssdvp run --test-aids)");
  std::cerr << "ssdvp: warning: test aids on, not the drive as built: " << list << "\n";
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
  check_test_aids(cfg, opt.test_aids);
  if (p_.device.interface == DeviceInterface::OpenChannel && !opt.external_host && !p_.host_ftl.on())
    throw ConfigError(cfg.origin("device.interface") +
                      ": device.interface = \"ocssd\": an Open-Channel device needs a host FTL to drive it: host.ftl = "
                      "\"pblk\" or \"mtftl\" (docs/host-ftl.md)");
  if (!opt.save_state_dir.empty() || !opt.load_state_dir.empty())
    check_snapshot_supported(cfg, p_, opt.load_state_dir.empty() ? "--save-state" : "--load-state");
  if (p_.device.interface == DeviceInterface::Zoned &&
      (opt.power_cut_ns || opt.power_cut_ops || !opt.power_cut_dir.empty() || !opt.power_on_dir.empty())) {
    // Its windows are in DRAM: a power cut needs the hold-up energy to dump them, and two spare
    // stripes to dump to in turn (ftl-sw/zns/zns_power.c).
    if (p_.device.plp_holdup == sc_core::SC_ZERO_TIME)
      throw ConfigError(cfg.origin("device.plp_energy_mj") +
                        ": a zoned device acknowledges a write in its window in DRAM: a power cut needs power-loss "
                        "protection to dump it (device.plp_energy_mj > 0)");
    if (p_.device.zns.spare_stripes < 2)
      throw ConfigError(cfg.origin("device.zns.spare_stripes") + ": device.zns.spare_stripes = " +
                        std::to_string(p_.device.zns.spare_stripes) +
                        ": a zoned device's power-loss dump takes two spare stripes in turn (at least 2)");
  }
  if (p_.ftl.fdp_handles && (opt.power_cut_ns || opt.power_cut_ops || !opt.power_cut_dir.empty() || !opt.power_on_dir.empty()))
    throw ConfigError(cfg.origin("ftl.fdp.handles") +
                      ": FDP's handles are not yet found again after a power cut (which handle a superblock holds is not "
                      "on flash; docs/fdp.md): no --power-cut or --power-on with ftl.fdp.handles > 0");
  if (!opt.external_host && !opt.make_workload) {
    workload::WorkloadContext ctx;
    ctx.capacity_bytes = n.physical_bytes();
    ctx.capacity_is_upper_bound = true;
    ctx.seed = uint64_t(cfg.get_int("sim.seed"));
    add_namespace(p_, ctx);
    workload_extent_ = workload::check_workload(workload_spec_, ctx);
    if (workload::is_fio_job_file(workload_spec_))
      job_file_left_out_ = workload::read_fio_job_file(workload_spec_, ctx).ignored;
  }

  // The assembly list: the blocks built from the configuration and bound together, each
  // registering its run.json section(s) (register_sections).  The device's kind is chosen here,
  // at this one seam: today every platform is a conventional drive (the FTL in the device's
  // firmware behind the NVMe host interface).
  events_ = std::make_unique<EventQueue>("events");
  dram_ = std::make_unique<Dram>(p_.dram);
  if (p_.host_data) dram_->keep_tags_apart();   // the host's 4,096 bytes, each sector's tag beside them
  for (uint32_t d = 0; d < n.dies(); d++)
    dies_.push_back(std::make_unique<nand::Die>(d, n.cell_of(d), n, p_.payload));
  if (p_.payload && !opt.payload_dir.empty()) {   // payloads on the host's disk, not in memory
    std::filesystem::create_directories(opt.payload_dir);
    for (auto& die : dies_) die->keep_payloads_in(opt.payload_dir + "/die-" + std::to_string(die->index()) + ".payload");
  }
  write_firmware_boot_config(*dram_, p_, SSD_BOOT_CONFIG_ADDR, SSD_BOOT_GEOMETRY_ADDR);   // what the firmware finds at boot
  build_controller();          // system control, timer, UART, flash controller and channels, host interface, bus
  build_cores(opt);            // the firmware's cores: RV32 on the ISS, or host-compiled
  if (opt.external_host) {     // the caller is the host (RunOptions::external_host)
    if (!opt.power_on_dir.empty())
      nand::load_nand_image(opt.power_on_dir + "/nand.img", dies_, sysctl_->nvram(), nor_->contents());
    return;
  }
  build_host(cfg, opt);        // the host driver with its workload, series and timeline
  wire_power_and_state(opt);   // power cuts and recovery, drive-state snapshots, durability checks
  register_sections();
}

// The controller's blocks and the bus between them and the cores.
void SsdPlatform::build_controller() {
  const NandParams& n = p_.nand;
  sysctl_ = std::make_unique<SysCtl>("sysctl", p_.firmware.cores, p_.dram.size_bytes, SSD_BOOT_CONFIG_ADDR);
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
  sysctl_->explain_halt = explain_firmware_halt;
  router_ = std::make_unique<Router>("bus");
  std::vector<nand::Die*> die_ptrs;
  for (auto& d : dies_) die_ptrs.push_back(d.get());
  fctl_ = std::make_unique<FlashController>("fctl", p_.fctl, n, *dram_, *sysctl_, die_ptrs, SSD_BOOT_GEOMETRY_ADDR, p_.payload,
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

  router_->attach(SSD_HIF_BASE, *hif_);
  router_->attach(SSD_FCTL_BASE, *fctl_);
  router_->attach(SSD_TIMER_BASE, *timer_);
  mailbox_ = std::make_unique<Mailbox>("mailbox", *sysctl_);
  router_->attach(SSD_MBOX_BASE, *mailbox_);
  router_->attach(SSD_UART_BASE, *uart_);
  router_->attach(SSD_SYSCTL_BASE, *sysctl_);
  nor_ = std::make_unique<SpiNor>("nor", p_.device.nor_bytes);
  router_->attach(SSD_NOR_BASE, *nor_);
}

// The firmware's cores (firmware.mode, firmware.cores) on the bus, and gdb if asked for.
void SsdPlatform::build_cores(const RunOptions& opt) {
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
}

// The host: its driver (workload, queues, CPUs), the device's series and the timeline.
void SsdPlatform::build_host(const Config& cfg, const RunOptions& opt) {
  DriverOptions o;
  o.precondition = opt.precondition;
  o.precond = p_.precondition;
  o.fold = cfg.get_string("workload.address") == "fold";
  o.max_requests = uint64_t(cfg.get_int("workload.max_requests"));
  o.extent = workload_extent_;
  const double max_ms = cfg.get_double("sim.max_sim_ms");
  o.max_sim_time = max_ms > 0 ? sc_core::sc_time(max_ms, sc_core::SC_MS) : sc_core::SC_ZERO_TIME;
  const double stall_ms = cfg.get_double("sim.stall_limit_ms");
  o.stall_limit = stall_ms > 0 ? sc_core::sc_time(stall_ms, sc_core::SC_MS) : sc_core::SC_ZERO_TIME;
  o.flush_at_end = cfg.get_bool("workload.flush_at_end");
  const bool terminal = ::isatty(STDERR_FILENO) != 0;
  o.progress = cfg.get_bool("sim.progress") && opt.progress != RunOptions::Progress::Never &&
               (terminal || opt.progress == RunOptions::Progress::Always);
  o.progress_in_place = terminal;
  o.payload = p_.payload;
  o.write_cache = p_.device.volatile_write_cache;
  o.fdp_logs = p_.ftl.fdp_handles > 0;
  o.series_interval_ns = uint64_t(cfg.get_double("sim.series_interval_ms") * 1e6 + 0.5);
  for (const auto& [io, cpu] : p_.host.cpu_types) o.cpu.types.push_back({io, cpu});
  o.cpu.cycle = sc_core::sc_time(p_.host.cpu_cycle_ms, sc_core::SC_MS);
  const bool stack = p_.host.stack != HostParams::Stack::None;
  // A modelled stack's submission is the request's CPU time; host.cpu.io_us stands in for it without one.
  o.cpu.io_cost = stack ? sc_core::SC_ZERO_TIME : sc_core::sc_time(p_.host.cpu_io_us, sc_core::SC_US);
  o.cpu.balance = sc_core::sc_time(p_.host.cpu_balance_ms, sc_core::SC_MS);
  o.cpu.migration = p_.host.migration;
  o.cpu.migration_rounds = p_.host.migration_rounds;
  o.cpu.select_cost = sc_core::sc_time(p_.host.migration_select_instructions * 1e3 /
                                           (p_.host_ftl.clock_mhz * p_.host_ftl.ipc), sc_core::SC_NS);
  const std::string spec = workload_spec_;
  const uint64_t seed = uint64_t(cfg.get_int("sim.seed"));
  BlockTarget* target = hif_.get();
  if (stack || p_.host_ftl.on() || !p_.host.cpu_types.empty()) {   // the host CPUs: the stack's, the FTL's, the threads' work
    std::vector<std::string> cpu_work = HostIoStack::categories();
    for (const std::string& k : HostFtl::categories()) cpu_work.push_back(k);
    for (const std::string& k : CpuScheduler::categories()) cpu_work.push_back(k);
    host_cpus_ = std::make_unique<HostCpus>(p_.host.cpus, p_.host_ftl.sockets, cpu_work);
    o.host_cpus = host_cpus_.get();
  }
  if (p_.host_ftl.on()) {   // the FTL on the host's CPUs, the device's Open-Channel or zoned commands below it
    HostFtl::MakeBackEnd back;
    if (p_.device.interface == DeviceInterface::Zoned) {
      zns_host_ = std::make_unique<ZnsHost>(*hif_);
      back = [this](Dram& mem, SysCtl& irq, uint32_t cores, uint32_t geometry, bool payload) -> std::unique_ptr<FlashBackEnd> {
        return std::make_unique<ZnsFlashBackEnd>("ftl_back", cores, mem, irq, *zns_host_, geometry, payload);
      };
    } else {
      oc_host_ = std::make_unique<OcHost>(*hif_);
      back = [this](Dram& mem, SysCtl& irq, uint32_t cores, uint32_t geometry, bool payload) -> std::unique_ptr<FlashBackEnd> {
        return std::make_unique<OcFlashBackEnd>("ftl_back", cores, mem, irq, *oc_host_, geometry, payload);
      };
    }
    host_ftl_ = std::make_unique<HostFtl>("host_ftl", p_, *host_cpus_, back, p_.host.queues,
                                          [](Dram& mem, const PlatformParams& view, uint32_t config_addr, uint32_t geometry_addr) {
                                            write_firmware_boot_config(mem, view, config_addr, geometry_addr);
                                          });
    target = host_ftl_.get();
  }
  if (stack) {   // the modelled host I/O stack between the threads and the target
    HostStackParams sp;
    sp.submit = p_.host.stack_submit;
    sp.interrupt = p_.host.stack_irq;
    sp.poll = p_.host.stack_poll;
    sp.polled = p_.host.stack == HostParams::Stack::Poll;
    host_stack_ = std::make_unique<HostIoStack>("host_stack", sp, *host_cpus_, *target);
    target = host_stack_.get();
  }
  HostDriver::WorkloadFactory make = opt.make_workload;
  if (!make)
    make = [this, spec, seed, params = p_](uint64_t capacity) {
      workload::WorkloadContext ctx;
      ctx.capacity_bytes = capacity;
      ctx.seed = seed;
      ctx.now_ns = [this] { return uint64_t(std::llround((sc_core::sc_time_stamp() - driver_->measure_start()).to_seconds() * 1e9)); };
      add_namespace(params, ctx);
      if (ctx.zones && !driver_->zone_report().empty()) {   // the zones as the device has them (a power-on's)
        // A zone partly written (closed after a power cut) is the generator's open zone: it holds an
        // active resource of the device, and fio's job would go on writing it.
        ctx.zone_view = std::make_shared<workload::ZoneView>();
        for (const ssd_zns_zone_desc& d : driver_->zone_report()) {
          const uint8_t state = d.zs >> 4;
          const uint64_t written = state == SSD_ZNS_ZS_FULL ? ctx.zone_capacity_bytes : (d.wp - d.zslba) * 4096;
          ctx.zone_view->written.push_back(written);
          ctx.zone_view->open.push_back(written > 0 && written < ctx.zone_capacity_bytes ? 1 : 0);
        }
      }
      return workload::make_workload(spec, ctx);
    };
  o.zone_report = p_.device.interface == DeviceInterface::Zoned && !p_.host_ftl.on();
  driver_ = std::make_unique<HostDriver>("host", p_.host, *target, make, o);
  device_series_ = std::make_unique<DeviceSeries>(o.series_interval_ns, [this] { return firmware_stats(); });
  if (!opt.timeline.path.empty())
    timeline_ = std::make_unique<RunTimeline>(opt.timeline, p_.nand.channels, p_.nand.ways, p_.host.queues, *fctl_,
                                              channels_, cores_, *driver_, [this] { return firmware_stats(); });
  driver_->on_measure_start = [this] {
    if (auto* iss = dynamic_cast<IssCore*>(core_)) iss->reset_profile();   // profile the measured phase
    start_ = snapshot();
    started_ = true;
    if (host_stack_) host_stack_->start_measuring();
    if (host_ftl_) host_ftl_->start_measuring();          // (its CPUs' figures too)
    else if (host_cpus_) host_cpus_->start_measuring();
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
  if (o.fdp_logs) wire_fdp_logs();
}

SsdPlatform::~SsdPlatform() = default;

// run.json's sections, each from the block that owns it (platforms/sections/).
void SsdPlatform::register_sections() {
  auto fw_now = [this] { return firmware_stats(); };
  sections_.add("host: operations", host_ops_section(*driver_));
  sections_.add("host: threads and queues", host_threads_section(*driver_, p_.host.cpus, p_.host.queues));
  sections_.add("host: integrity", integrity_section(*driver_, *fctl_, [this] {
                  const ssd_fw_stats* s = firmware_stats();
                  return s && s->read_only;
                }));
  sections_.add("firmware: recovery", recovery_section(*driver_, fw_now, ops_before_start_, !opt_.power_on_dir.empty()));
  sections_.add("firmware: mapping", mapping_section(p_.ftl));
  sections_.add("firmware: placement", placement_section(p_.ftl));
  sections_.add("firmware: write buffer", write_buffer_section(p_.ftl));
  sections_.add("firmware: read-ahead", readahead_section(p_.ftl));
  sections_.add("firmware: FTL totals", ftl_section(p_, dies_, *fctl_, host_ftl_ ? host_ftl_->memory() : *dram_, fw_now));
  if (host_stack_) sections_.add("host: the I/O stack", [this](nlohmann::json& r, const MeasuredWindow&) {
    r["host_stack"] = host_stack_->results();
  });
  if (host_ftl_) sections_.add("host: the FTL on the host", [this](nlohmann::json& r, const MeasuredWindow&) {
      r["host_ftl"] = host_ftl_->results();
    });
  sections_.add("device: utilisation", utilisation_section());
  if (p_.channel.model == "rtl") sections_.add("device: RTL channels", rtl_channel_section(channels_, p_.channel));
  sections_.add("device: firmware cores", firmware_cores_section(cores_, p_.firmware, *uart_, *mailbox_));
  sections_.add("device: NAND array", nand_section(dies_, p_.nand));
  if (p_.ftl.fdp_handles) sections_.add("firmware: FDP", fdp_section(*driver_, p_.ftl, fdp_nand_));
}

// FDP: the drive comes to rest before the host reads its logs, and the NAND's own counts are
// taken then (sections/fdp_section.h).
void SsdPlatform::wire_fdp_logs() {
  fdp_nand_ = std::make_shared<NandCountsAtFdpLogs>();
  driver_->wait_quiet = [this] { fdp_nand_->at_rest = wait_until_quiet(kFdpQuietLimitMs); };
  driver_->on_fdp_logs_read = [this] {
    const NandParams& n = p_.nand;
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    NandCountsAtFdpLogs& c = *fdp_nand_;
    c.programmed_bytes = c.erased_bytes = 0;
    for (auto& d : dies_) {
      c.programmed_bytes += d->programmed_sectors_at(now) * 4096;
      for (uint32_t pl = 0; pl < n.planes; pl++)
        for (uint32_t b = 0; b < n.blocks_of(d->index()); b++)
          c.erased_bytes += d->erase_count(pl, b) * uint64_t(d->pages_in(pl, b)) * n.page_bytes;
    }
    c.taken = true;
  };
}

const ssd_fw_stats* SsdPlatform::firmware_stats() {
  if (host_ftl_) return host_ftl_->stats();
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

PlatformSnapshot SsdPlatform::snapshot() {
  PlatformSnapshot s;
  if (const ssd_fw_stats* f = firmware_stats()) s.fw = *f;
  // The dies as of now: an array a channel has started ahead of SystemC time counts from its
  // start (nand/die.h), so that the TLM and RTL channels agree on what a run's end interrupted.
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  for (auto& d : dies_) {
    s.die_busy_ps.push_back(d->array_busy_ps_at(now));
    s.die_erases.push_back(d->total_erases_at(now));
    s.die_programmed.push_back(d->programmed_sectors_at(now));
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
                       c->syncs_skipped(), c->cost_units()});
  return s;
}

nlohmann::json SsdPlatform::run() {
  if (!driver_) throw std::logic_error("SsdPlatform::run() with an external host: the caller runs the simulation");
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

nlohmann::json SsdPlatform::results(double wall_s) {
  using nlohmann::json;
  json r;
  r["ssdvp_results_version"] = 1;
  r["platform"] = p_.name;
  json cfg = json::object();
  for (const auto& [k, v] : cfg_.echo()) cfg[k] = v;
  r["config"] = cfg;
  if (!cfg_.implied().empty()) r["config_implied"] = cfg_.implied();
  r["test_aids"] = cfg_.test_aids_on();
  r["errors"] = fatal_errors();
  if (!input_errors().empty()) r["input_errors"] = input_errors();   // (exit 2: bad input)
  const bool interrupted = opt_.interrupted && opt_.interrupted() && !driver_->finished();
  if (interrupted)
    r["interrupted"] = {{"signal", "SIGINT"}, {"at_s", sc_core::sc_time_stamp().to_seconds()},
                        {"host_requests_done", driver_->requests_done()}};
  if (!driver_->finished() && power_cut_.is_null() && fatal_errors().empty() && !interrupted)   // nothing left to happen
    r["errors"].push_back("the simulation ran out of events at " + std::to_string(sc_core::sc_time_stamp().to_seconds()) +
                          " s with the workload unfinished (" + std::to_string(driver_->requests_done()) +
                          " host requests done): the firmware is stuck (firmware.cores[].pc_at_end)");
  r["completed"] = (driver_->finished() || !power_cut_.is_null()) && r["errors"].empty();
  r["flash_operations"] = ops_since_start_;   // completed during the workload (what --power-cut ops:N counts)
  if (!power_cut_.is_null()) r["power_cut"] = power_cut_;
  const auto* wl = driver_->workload();
  r["workload"] = wl ? wl->describe() : std::string();
  if (wl) r["workload_skipped_lines"] = wl->skipped_lines();
  if (!job_file_left_out_.empty()) r["workload_job_file_left_out"] = job_file_left_out_;

  const PlatformSnapshot end = ended_ ? end_ : snapshot();
  const PlatformSnapshot& st = start_;
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

  // Every block's own section(s), in the order they were registered (run_sections.h).
  sections_.report(r, MeasuredWindow{st, end, sim, run_wall});
  if (!drive_state_.is_null()) r["drive_state"] = drive_state_;
  return r;
}

}  // namespace ssdvp
