// The SSD platform: assembles host, host interface, controller DRAM, flash controller,
// channels, NAND dies and the firmware core(s) from a PlatformParams, runs one workload, and
// collects the run's results.  One platform per process (SystemC elaborates once).
#pragma once

#include <systemc>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/common/config.h"
#include "models/common/params.h"
#include "platforms/run_sections.h"
#include "platforms/sections/fdp_section.h"
#include "platforms/run_timeline.h"
#include "traces/workload.h"

extern "C" {
#include "ftl-sw/hal/regs.h"
}

namespace ssdvp {

class Dram;
class EventQueue;
class SysCtl;
class SpiNor;
class Timer;
class Uart;
class Router;
class FlashController;
class ChannelIf;
class HostInterface;
class HostDriver;
class HostCpus;
class OcHost;
class ZnsHost;
class HostFtl;
class HostIoStack;
class FirmwareCore;
class DeviceSeries;
namespace nand { class Die; }

struct RunOptions {
  std::string workload_spec;     // empty: workload.spec from the config
  bool precondition = true;
  uint16_t gdb_port = 0;         // > 0: a GDB server on 127.0.0.1:port for core gdb_core (iss)
  uint32_t gdb_core = 0;
  // Power loss (docs/reliability.md): power goes `power_cut_ns` of simulated time after the
  // workload starts, or at the completion of its `power_cut_ops`-th flash operation (0: never);
  // the NAND image (nand.img) and the host's durability record (durable.bin) go to
  // power_cut_dir.  power_on_dir: power on over such a directory's image and check every read
  // against its record.  cut_from_power_on: the cut's time and operations count from power-on
  // instead (a cut during recovery; the record saved is the one powered on with: the reading
  // host writes nothing).
  uint64_t power_cut_ns = 0, power_cut_ops = 0;
  bool cut_from_power_on = false;
  std::string power_cut_dir, power_on_dir;
  // Drive-state snapshots (platforms/drive_snapshot.h): save one after preconditioning /
  // build the drive from one (preconditioning skipped).
  std::string save_state_dir, load_state_dir;
  // A timeline of the measured phase (platforms/run_timeline.h; path empty: none).
  TimelineOptions timeline;
  // Progress lines on stderr (with sim.progress = true): Auto, only when stderr is a terminal
  // (rewritten in place); Always, also to a file or pipe (a line each); Never (ssdvp run -q).
  enum class Progress { Auto, Always, Never };
  Progress progress = Progress::Auto;
  // No host driver: the caller drives host_interface() from its own SystemC threads, starts the
  // simulation itself (sc_start) and reads what it needs (tests of a device no host model
  // drives yet: the Open-Channel device's command set).  run() is refused; power_on_dir
  // loads the NAND image only, cut_power_now() saves one to power_cut_dir.
  bool external_host = false;
  // With payloads: a folder for a sparse file per die holding them (empty: memory).
  std::string payload_dir;
  // The workload, made once the firmware has told the host the capacity (empty: from
  // workload_spec).  ssdvp serve's clients come through one (platforms/serve/).
  std::function<std::unique_ptr<workload::Workload>(uint64_t capacity_bytes)> make_workload;
  // The run opts in to test aids (KeyRole::TestAid: a deliberately broken drive, checks of the
  // firmware's internals; `ssdvp run --test-aids`).  Without it a test aid not at its default
  // is refused; with it each one on is named on stderr and in run.json's test_aids.
  bool test_aids = false;
  // Whether the user stopped the run (ssdvp run's Ctrl-C: platforms/run_interrupt.h): the
  // results then say "interrupted" and cover the run until then, with no "stuck" error.
  std::function<bool()> interrupted;
};

class SsdPlatform {
 public:
  SsdPlatform(const Config& cfg, const RunOptions& opt);
  ~SsdPlatform();

  // Runs the simulation to the end of the workload; returns the results document.
  nlohmann::json run();
  // The supply fails now (as --power-cut does: with power-loss protection the firmware is told
  // first), the NAND image goes to RunOptions::power_cut_dir and the simulation stops.
  void cut_power_now(const std::string& cause) { power_fails(cause); }
  // After run() ended normally (the final flush done): the drive powers off and its NAND image
  // and the host's durability record go to `dir`, for a later power_on_dir (ssdvp serve:
  // export the same drive again; a drive powered on over an earlier image carries that
  // image's record forward, this cycle's writes on top).  Returns what it saved, for run.json.
  nlohmann::json save_power_off(const std::string& dir);

  // Access for tests.
  const PlatformParams& params() const { return p_; }
  HostDriver& driver() { return *driver_; }
  HostInterface& host_interface() { return *hif_; }
  FlashController& flash_controller() { return *fctl_; }
  nand::Die& die(uint32_t i) { return *dies_.at(i); }
  Dram& dram() { return *dram_; }
  // The FTL's statistics block (valid after boot): the device firmware's, or the host FTL's.
  const ssd_fw_stats* firmware_stats();
  // The firmware's logical-to-physical map (valid after boot).
  std::vector<uint32_t> firmware_map();

 private:
  PlatformSnapshot snapshot();
  nlohmann::json results(double wall_s);
  // run.json's sections, one or more per block, registered as the blocks are built.
  RunSections sections_;
  void register_sections();
  // The assembly list's steps (the constructor calls them in order).
  void build_controller();
  void build_cores(const RunOptions& opt);
  void build_host(const Config& cfg, const RunOptions& opt);
  void wire_power_and_state(const RunOptions& opt);

  Config cfg_;
  PlatformParams p_;
  std::string workload_spec_;      // checked before elaboration
  std::vector<std::string> job_file_left_out_;   // a fio job file's options with no effect here
  workload::WorkloadExtent workload_extent_;     // what it will issue (progress lines)
  std::unique_ptr<EventQueue> events_;
  std::unique_ptr<Dram> dram_;
  std::vector<std::unique_ptr<nand::Die>> dies_;
  std::unique_ptr<SysCtl> sysctl_;
  std::unique_ptr<SpiNor> nor_;
  std::unique_ptr<Timer> timer_;
  std::unique_ptr<Uart> uart_;
  std::unique_ptr<Router> router_;
  std::unique_ptr<FlashController> fctl_;
  std::vector<std::unique_ptr<sc_core::sc_module>> channel_modules_;
  std::vector<ChannelIf*> channels_;
  std::unique_ptr<HostInterface> hif_;
  std::unique_ptr<class Mailbox> mailbox_;
  std::unique_ptr<class GdbServer> gdb_;
  std::vector<std::unique_ptr<sc_core::sc_module>> core_modules_;
  std::vector<FirmwareCore*> cores_;
  FirmwareCore* core_ = nullptr;   // core 0
  std::unique_ptr<HostDriver> driver_;
  std::shared_ptr<NandCountsAtFdpLogs> fdp_nand_;   // FDP: the NAND's counts at the logs' reading
  void wire_fdp_logs();
  // The FTL on the host (host.ftl), over the Open-Channel device: its CPUs, the device's command
  // set as the host sees it, the FTL.  None of them with a device FTL.
  std::unique_ptr<HostCpus> host_cpus_;
  std::unique_ptr<OcHost> oc_host_;       // a host FTL's device: Open-Channel ...
  std::unique_ptr<ZnsHost> zns_host_;     // ... or zoned
  std::unique_ptr<HostFtl> host_ftl_;
  std::unique_ptr<HostIoStack> host_stack_;
  std::unique_ptr<DeviceSeries> device_series_;
  std::unique_ptr<RunTimeline> timeline_;
  nlohmann::json timeline_report();   // writes the timeline's file; run.json's timeline
  PlatformSnapshot start_, end_;
  bool started_ = false, ended_ = false;
  // Power loss
  RunOptions opt_;
  void cut_power(const std::string& cause);
  // The supply fails: with power-loss protection (device.plp_energy_mj) the firmware is told
  // and the cut follows when it has dumped or the hold-up time is over; without, at once.
  void power_fails(const std::string& cause);
  void spawn_timed_cut(const std::string& when);
  nlohmann::json power_cut_;          // what the cut did (empty: no cut)
  bool power_failing_ = false;
  sc_core::sc_time power_failed_at_, power_dumped_at_;
  sc_core::sc_event power_dumped_;
  uint64_t ops_since_start_ = 0;      // flash operations completed since the workload started
  uint64_t ops_since_power_on_ = 0, ops_before_start_ = 0;
  sc_core::sc_time boot_ready_;       // when the firmware let the host in
  // Drive-state snapshots (platforms/drive_snapshot.cpp).
  static constexpr double kQuietLimitMs = 100;   // simulated; past it a save is refused
  bool wait_until_quiet(double limit_ms = kQuietLimitMs);
  // FDP's logs are read once the drive is at rest: background GC after the workload may take
  // seconds of simulated time (chosen bound; past it the counts are reported as not at rest).
  static constexpr double kFdpQuietLimitMs = 60000;
  void save_state(const std::string& dir);
  void load_state(const std::string& dir);
  std::string state_key_hex_;
  nlohmann::json state_key_made_of_;
  nlohmann::json drive_state_;        // run.json drive_state (null: no snapshot)
};

}  // namespace ssdvp
