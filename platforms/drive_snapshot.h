// Drive-state snapshots (issue 16): `ssdvp run --save-state DIR` saves the drive once
// preconditioning is done, `--load-state DIR` builds the platform over such a snapshot and
// skips preconditioning; `--state-cache DIR` does either, keyed by the drive-state key below
// (the sweeps pass it, so runs that share a drive precondition it once).
//
// A snapshot is a directory: snapshot.json (format version, the key and what it was made
// of, the simulated time and the host's view at the save), nand.img (every die's array, the
// NVRAM words and the SPI NOR: models/nand/nand_image.h), dies.state (each die's data ages,
// fault generators, counters: Die::save_runtime) and dram.img (controller DRAM, a sparse
// file: the firmware's whole state, its tables and `struct ftl`).
//
// When: after preconditioning, once every firmware core sleeps with no interrupt pending and
// no flash operation is in flight (the saving run waits for that point, a few microseconds of
// simulated time, and starts its workload there: so a run from the snapshot gives the same
// results as the run that saved it).  The restored firmware resumes its state from DRAM
// (ftl-sw/snapshot/resume.h) and the workload starts at the saved time.
//
// Refused, with a message naming the difference: another snapshot format, another build
// (the ssdvp executable's bytes, and the firmware ELF on the ISS, are part of the key),
// another configuration of anything that shapes the drive (every key but workload.*, sim.seed
// (the workload generators' seed), sim.output_dir, sim.progress, sim.series_interval_ms,
// sim.max_sim_ms, sim.stall_limit_ms), DRAM that could not
// be placed at the host address the native firmware's pointers assume.
// Leaves out: snapshots at any other moment (mid-workload), the RTL channel (its Verilated
// state is not saved: refused), compression.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "models/common/config.h"
#include "models/common/params.h"

namespace ssdvp {

constexpr int kSnapshotFormat = 1;

struct DriveStateKey {
  std::string hex;          // 16 hex digits
  nlohmann::json made_of;   // build, firmware image, the configuration that went into it
};

// The key of the drive state `cfg` produces with this build (preconditioned: not --no-precondition).
DriveStateKey drive_state_key(const Config& cfg, const PlatformParams& p, bool preconditioned);

// --state-cache DIR: the snapshot of this drive state if DIR has it (opt.load_state_dir),
// else where this run saves it (opt.save_state_dir).
struct RunOptions;
void use_state_cache(const std::string& cache_dir, const Config& cfg, RunOptions& opt);

// Throws ConfigError when the platform cannot save or load drive state (the RTL channel; a
// zoned or Open-Channel device), naming `flag` and the key.  Called before anything is built:
// a save refused only after preconditioning would have spent it.
void check_snapshot_supported(const Config& cfg, const PlatformParams& p, const std::string& flag);

}  // namespace ssdvp
