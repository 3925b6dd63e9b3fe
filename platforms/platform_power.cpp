// The platform's power: a power cut (timed, at an operation, or from a signal), power-loss
// protection's hold-up and dump, the cut itself (the NAND image and the host's durability record
// saved), power-on over an image, drive-state snapshots and the flush-durability check: the parts
// of SsdPlatform (platforms/ssd_platform.h) that wire and carry out power loss and recovery.
// Leaves out: the energy each operation draws (the hold-up is a time at constant power).
#include "platforms/ssd_platform.h"

#include <filesystem>

#include "models/common/fatal.h"
#include "models/cpu/spi_nor.h"
#include "models/cpu/sysctl.h"
#include "models/dram/dram.h"
#include "models/flash/flash_controller.h"
#include "models/host/host_driver.h"
#include "models/nand/die.h"
#include "models/nand/nand_image.h"
#include "platforms/drive_snapshot.h"

namespace ssdvp {

// Power loss, recovery over a NAND image, drive-state snapshots, and the flush-durability check.
void SsdPlatform::wire_power_and_state(const RunOptions& opt) {
  if (!opt.power_on_dir.empty()) {
    nand::load_nand_image(opt.power_on_dir + "/nand.img", dies_, sysctl_->nvram(), nor_->contents());
    driver_->check_against(DurableState::load(opt.power_on_dir + "/durable.bin"));
  }
  if (!opt.save_state_dir.empty() || !opt.load_state_dir.empty()) {
    const std::string flag = opt.load_state_dir.empty() ? "--save-state" : "--load-state";   // (supported: the constructor checked)
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
  dram_->as<ssd_fw_config>(SSD_BOOT_CONFIG_ADDR)->power_failing = 1;
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
  if (!driver_) {   // an external host keeps its own record
    power_cut_ = {{"cause", cause}, {"at_s", now.to_seconds()}, {"interrupted", interrupted}};
    sc_core::sc_stop();
    return;
  }
  const IntegrityChecker* checker = driver_->integrity();   // (none yet: a cut during recovery)
  // What the cut caught: writes submitted and not acknowledged, and writes acknowledged whose
  // data was not yet durable (no flush or FUA covered it, and no newer durable write of its
  // sectors): a cut that caught neither tested nothing of the drive's durability.
  uint64_t writes_in_flight = 0, writes_acknowledged_not_durable = 0;
  if (opt_.power_on_dir.empty() || (checker && checker->wrote_since_cut())) {
    const DurableState st = driver_->durable_state();
    st.save(opt_.power_cut_dir + "/durable.bin");   // (over an earlier cut: that record, this cycle's writes on top)
    for (size_t i = 0; i < st.writes.size(); i++) {
      const DurableState::Write& w = st.writes[i];
      if (w.complete_ns == UINT64_MAX) {
        writes_in_flight += w.submit_ns <= st.cut_ns;   // (one issued with a delay past the cut was not yet sent)
        continue;
      }
      for (uint32_t k = 0; k < w.nsect; k++)
        if (w.lba + k < st.durable.size() && st.durable[w.lba + k] < i + 1) {
          writes_acknowledged_not_durable++;
          break;
        }
    }
  } else   // powered on over an earlier cut: the host has only read since, its record stands
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
                {"writes_in_flight", writes_in_flight},
                {"writes_acknowledged_not_durable", writes_acknowledged_not_durable},
                {"image", opt_.power_cut_dir + "/nand.img"}};
  sc_core::sc_stop();
}

nlohmann::json SsdPlatform::save_power_off(const std::string& dir) {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  uint64_t paired_lost = 0;
  nlohmann::json interrupted = nlohmann::json::array();
  for (auto& d : dies_) {   // (background work still in flight is interrupted, as at any power-off)
    const std::string what = d->power_cut(now, p_.nand.paired_page_loss, &paired_lost);
    if (!what.empty()) interrupted.push_back(what);
  }
  std::filesystem::create_directories(dir);
  nand::save_nand_image(dir + "/nand.img", dies_, sysctl_->nvram(), nor_->contents());
  driver_->durable_state().save(dir + "/durable.bin");   // (over an earlier cut: that record, this cycle's on top)
  return {{"at_s", now.to_seconds()}, {"image", dir + "/nand.img"}, {"interrupted", interrupted},
          {"paired_pages_lost", paired_lost}};
}

}  // namespace ssdvp
