// Helpers of the power-cut tests (test_power_cut.cpp, test_power_cut_defects.cpp): run
// `ssdvp run --power-cut AT` on the small platform in a child process (two platforms per cut:
// the run that is cut and the one that powers on) and read what both wrote.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ssdvp::test {

// Random writes of mixed sizes with FUA, flushes and trims: what most cuts interrupt.
constexpr const char* kPowerCutMix =
    "fio:rw=randwrite,bsrange=4k-32k,iodepth=16,io=40000,fua_percent=10,fsync=64,trim_percent=5";

// `--after-recovery` with a mix of this power cycle's own (every sector read back twice).
std::string after_recovery(unsigned requests);

struct Cut {
  int status = -1;
  nlohmann::json before, after;   // before-cut/run.json and the powered-on run's run.json
  std::string err;
  bool after_recovery = false;    // the command asked for an --after-recovery workload
};

// Cuts the power at `at` (with `extra` settings and `workload`); output in
// TempDir()/power-cut-NAME.  A case whose failure is a drive that stops making progress bounds
// it in simulated time (sim.stall_limit_ms), not by a wall-clock limit.
Cut cut_run(const std::string& name, const std::string& at, std::vector<std::string> extra = {},
            const std::string& workload = kPowerCutMix);

// The cut happened part-way, something was interrupted, recovery read the whole namespace back
// and nothing durable was lost.  Where the command asked for an --after-recovery workload, it
// must have run: written, and read back more than the check did, without a mismatch.
void expect_recovered(const Cut& c);

}  // namespace ssdvp::test
