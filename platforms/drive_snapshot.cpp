// Drive-state snapshots: the key, saving and loading (platforms/drive_snapshot.h).
#include "platforms/drive_snapshot.h"

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "models/common/fatal.h"
#include "models/cpu/firmware_core.h"
#include "models/cpu/sysctl.h"
#include "models/cpu/spi_nor.h"
#include "models/dram/dram.h"
#include "models/flash/flash_controller.h"
#include "models/host/host_driver.h"
#include "models/host/host_interface.h"
#include "models/nand/die.h"
#include "models/nand/nand_image.h"
#include "platforms/build_identity.h"
#include "platforms/ssd_platform.h"

extern "C" void fw_main(void);

namespace ssdvp {

namespace {

using Fnv = Fnv64;

std::string hex(uint64_t v) { return fmt::format("{:016x}", v); }

// Where the host-compiled firmware's code sits in this process (its entry point).
std::string native_code_address() { return fmt::format("{:#x}", reinterpret_cast<uintptr_t>(&fw_main)); }

// Keys that do not shape the drive's state: what runs on it, and how the run reports.
bool shapes_the_drive(const std::string& key) {
  return key.rfind("workload.", 0) != 0 && key != "sim.seed" && key != "sim.output_dir" && key != "sim.progress" &&
         key != "sim.series_interval_ms" && key != "sim.max_sim_ms" &&
         key != "sim.stall_limit_ms";
}

// What the files of a folder take on disk (a sparse file counts the blocks it has).
uint64_t disk_bytes(const std::filesystem::path& dir) {
  uint64_t sum = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    struct stat st {};
    if (::stat(e.path().c_str(), &st) == 0) sum += uint64_t(st.st_blocks) * 512u;
  }
  return sum;
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ConfigError(path + ": no drive-state snapshot here (snapshot.json is missing)");
  try {
    return nlohmann::json::parse(in);
  } catch (const std::exception& e) {
    throw ConfigError(path + ": not a drive-state snapshot's description: " + e.what());
  }
}

}  // namespace

DriveStateKey drive_state_key(const Config& cfg, const PlatformParams& p, bool preconditioned) {
  DriveStateKey k;
  nlohmann::json config = nlohmann::json::object();
  Fnv f;
  f.add(fmt::format("ssdvp drive state {}\n", kSnapshotFormat));
  f.add(preconditioned ? "preconditioned\n" : "not preconditioned\n");
  k.made_of["preconditioned"] = preconditioned;
  f.add("build " + executable_fingerprint() + "\n");
  k.made_of["build"] = executable_fingerprint();
  if (p.firmware.mode == "iss") {
    const std::string image = p.firmware.image.empty() ? std::string(SSDVP_DEFAULT_FIRMWARE) : p.firmware.image;
    const std::string fp = file_fingerprint(image);
    f.add("firmware " + fp + "\n");
    k.made_of["firmware_image"] = fp;
  }
  for (const auto& [key, value] : cfg.echo())
    if (shapes_the_drive(key)) {
      f.add(key + "=" + value + "\n");
      config[key] = value;
    }
  k.made_of["config"] = config;
  k.hex = hex(f.h);
  return k;
}

void use_state_cache(const std::string& cache_dir, const Config& cfg, RunOptions& opt) {
  const PlatformParams p = PlatformParams::from(cfg);
  check_snapshot_supported(cfg, p, "--state-cache");
  const std::string dir = cache_dir + "/" + drive_state_key(cfg, p, opt.precondition).hex;
  if (std::filesystem::exists(dir + "/snapshot.json"))
    opt.load_state_dir = dir;
  else
    opt.save_state_dir = dir;
}

void check_snapshot_supported(const Config& cfg, const PlatformParams& p, const std::string& flag) {
  if (p.channel.model == "rtl")
    throw ConfigError(flag + ": drive-state snapshots need channel.model = \"tlm\" (the Verilated channel's state is not "
                      "saved)");
  if (p.device.interface != DeviceInterface::Conventional)
    throw ConfigError(flag + ": " + cfg.origin("device.interface") +
                      (p.device.interface == DeviceInterface::Zoned
                           ? ": a zoned device's state is not saved in a drive-state snapshot yet (docs/zns.md)"
                           : ": an Open-Channel device's state (and its host FTL's) is not saved in a drive-state "
                             "snapshot yet (docs/host-ftl.md)") +
                      ": no --save-state, --load-state or --state-cache");
}

// The quiet point after preconditioning: every core asleep with nothing pending, no flash
// operation in flight.  Runs in the host driver's thread; false if it did not come within
// limit_ms of simulated time (the run goes on; a snapshot is not saved).
bool SsdPlatform::wait_until_quiet(double limit_ms) {
  const sc_core::sc_time until = sc_core::sc_time_stamp() + sc_core::sc_time(limit_ms, sc_core::SC_MS);
  for (;;) {
    bool quiet = fctl_->ops_in_flight() == 0;
    for (uint32_t k = 0; quiet && k < cores_.size(); k++) quiet = cores_[k]->asleep() && !sysctl_->irq_ready(k);
    if (quiet) return true;
    if (sc_core::sc_time_stamp() >= until) return false;
    sc_core::wait(sc_core::sc_time(100, sc_core::SC_NS));
  }
}

void SsdPlatform::save_state(const std::string& dir) {
  namespace fs = std::filesystem;
  const auto wall0 = std::chrono::steady_clock::now();
  // Written beside, then renamed: a reader (another run of a sweep) sees all of it or none.
  const fs::path target(dir);
  const fs::path tmp = target.string() + ".partial-" + std::to_string(::getpid());
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  nand::save_nand_image((tmp / "nand.img").string(), dies_, sysctl_->nvram(), nor_->contents());
  {
    std::ofstream out(tmp / "dies.state", std::ios::binary);
    for (const auto& d : dies_) d->save_runtime(out);
    if (!out.flush()) throw std::runtime_error((tmp / "dies.state").string() + ": cannot write it");
  }
  dram_->save((tmp / "dram.img").string());
  nlohmann::json j;
  j["format"] = kSnapshotFormat;
  j["key"] = state_key_hex_;
  j["made_of"] = state_key_made_of_;
  j["saved_at_ps"] = sc_core::sc_time_stamp().value();
  j["preconditioned_below"] = driver_->preconditioned_below();
  j["dram_host_address"] = fmt::format("{:#x}", reinterpret_cast<uintptr_t>(dram_->base()));
  j["firmware_mode"] = p_.firmware.mode;
  j["native_code_address"] = native_code_address();
  j["host_interface_rings"] = hif_->ring_state();
  j["flash_controller_rings"] = fctl_->ring_state();
  {
    std::ofstream out(tmp / "snapshot.json");
    out << j.dump(2) << "\n";
    if (!out.flush()) throw std::runtime_error((tmp / "snapshot.json").string() + ": cannot write it");
  }
  std::error_code ec;
  if (fs::exists(target)) fs::remove_all(target, ec);
  fs::rename(tmp, target, ec);
  if (ec) {   // another run saved the same state first (--state-cache): theirs stays
    fs::remove_all(tmp);
    if (!fs::exists(target / "snapshot.json"))
      throw std::runtime_error(target.string() + ": cannot save the drive state there: " + ec.message());
  }
  drive_state_ = {{"saved", target.string()}, {"key", state_key_hex_}, {"at_s", sc_core::sc_time_stamp().to_seconds()},
                  {"wall_s", std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count()},
                  {"disk_mib", double(disk_bytes(target)) / double(1 << 20)}};
}

void SsdPlatform::load_state(const std::string& dir) {
  const auto wall0 = std::chrono::steady_clock::now();
  const std::string desc = dir + "/snapshot.json";
  const nlohmann::json j = read_json(desc);
  if (!j.contains("format") || j["format"] != kSnapshotFormat)
    throw ConfigError(desc + ": snapshot format " + (j.contains("format") ? j["format"].dump() : std::string("unknown")) +
                      ", this build reads format " + std::to_string(kSnapshotFormat));
  if (j.value("key", "") != state_key_hex_) {
    // Say what differs: the build, the firmware, or which configuration keys.
    const nlohmann::json& theirs = j.contains("made_of") ? j["made_of"] : nlohmann::json::object();
    std::string why;
    if (theirs.value("preconditioned", true) != state_key_made_of_.value("preconditioned", true))
      why = std::string("it was saved ") + (theirs.value("preconditioned", true) ? "after" : "without") +
            " preconditioning (--no-precondition)";
    else if (theirs.value("build", "") != state_key_made_of_.value("build", ""))
      why = "it was saved by another build of ssdvp";
    else if (theirs.value("firmware_image", "") != state_key_made_of_.value("firmware_image", ""))
      why = "it was saved with another firmware image (firmware.image)";
    else {
      std::vector<std::string> keys;
      const nlohmann::json& a = theirs.contains("config") ? theirs["config"] : nlohmann::json::object();
      const nlohmann::json& b = state_key_made_of_["config"];
      for (auto it = b.begin(); it != b.end(); ++it)
        if (!a.contains(it.key()) || a[it.key()] != it.value())
          keys.push_back(it.key() + " = " + it.value().get<std::string>() +
                         (a.contains(it.key()) ? " (the snapshot's: " + a[it.key()].get<std::string>() + ")" : ""));
      why = "its configuration differs";
      for (size_t i = 0; i < keys.size() && i < 6; i++) why += (i ? "; " : ": ") + keys[i];
    }
    throw ConfigError(dir + ": the drive-state snapshot does not fit this run: " + why);
  }
  const std::string want = j.value("dram_host_address", "");
  const std::string have = fmt::format("{:#x}", reinterpret_cast<uintptr_t>(dram_->base()));
  if (p_.firmware.mode != "iss" && want != have)
    throw ConfigError(dir + ": the host-compiled firmware's state holds pointers into DRAM at " + want +
                      ", but this process's DRAM is at " + have + " (another Dram took the address)");
  if (p_.firmware.mode != "iss" && j.value("native_code_address", "") != native_code_address())
    throw ConfigError(dir + ": the host-compiled firmware's code is at " + native_code_address() + " in this process, at " +
                      j.value("native_code_address", "?") + " in the one that saved the snapshot (a position-independent "
                      "build: the firmware's function pointers in DRAM would not hold)");
  nand::load_nand_image(dir + "/nand.img", dies_, sysctl_->nvram(), nor_->contents());
  {
    const std::string path = dir + "/dies.state";
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ConfigError(path + ": cannot read it");
    for (const auto& d : dies_) d->load_runtime(in, path);
  }
  dram_->load(dir + "/dram.img");
  try {
    hif_->restore_ring_state(j.at("host_interface_rings").get<std::vector<uint32_t>>());
    fctl_->restore_ring_state(j.at("flash_controller_rings").get<std::vector<uint32_t>>());
  } catch (const std::exception& e) {
    throw ConfigError(desc + ": " + e.what());
  }
  dram_->as<ssd_fw_config>(SSD_DRAM_BASE)->resume = 1;
  const sc_core::sc_time at = sc_core::sc_time::from_value(j.at("saved_at_ps").get<uint64_t>());
  driver_->resume_from({at, j.at("preconditioned_below").get<uint64_t>()});
  drive_state_ = {{"loaded", dir}, {"key", state_key_hex_}, {"at_s", at.to_seconds()},
                  {"wall_s", std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count()}};
}

}  // namespace ssdvp
