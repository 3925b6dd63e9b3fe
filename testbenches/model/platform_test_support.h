// Helpers for tests that build a whole platform (one per process).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "platforms/ssd_platform.h"

namespace ssdvp::test {

// A small platform that preconditions and runs in well under a second per 10k requests; every
// GC victim its greedy index picks is checked against a scan (ftl.gc_check_victims), so every
// test on it checks that each change of a superblock reached the index.
std::vector<std::string> small_platform();

struct Run {
  std::unique_ptr<SsdPlatform> platform;
  nlohmann::json results;
};

// Builds the platform from defaults + `sets`, runs `workload`, returns both.
Run run_platform(std::vector<std::string> sets, const std::string& workload, bool precondition = true);

// Runs the ssdvp command in a child process (a second platform in one test: SystemC elaborates
// once per process) with `sets` and `workload` on `platform_file` (empty: the default
// platform), output in TempDir()/name; expects exit status 0 and returns its run.json.
nlohmann::json run_child(const std::vector<std::string>& sets, const std::string& workload, const std::string& name,
                         const std::string& platform_file = "");

// Drops from a run.json what depends on the host machine or names the run's directories (wall
// times, RSS, host seconds, MIPS, drive_state, output_dir), so two runs can be compared whole.
void drop_machine_figures(nlohmann::json& j);

// platforms/lapt-slc-mlc.toml (the LAPT paper's mixed device) with `sets`, ready to run.
std::unique_ptr<SsdPlatform> lapt_platform(const std::vector<std::string>& sets, const std::string& workload,
                                           bool precondition = true);

// Writes a DiskSim/MQSim ASCII trace (time_ns device lba_512 size_512 type, 1 = read) of
// bursts of 4 KiB random writes over the first `span_pages` 4 KiB pages: `bursts` of
// `writes` each, `spacing_ns` apart, `gap_ns` between bursts; returns its path.
std::string write_burst_trace(const std::string& name, unsigned bursts, unsigned writes, uint64_t spacing_ns,
                              uint64_t gap_ns, uint32_t span_pages);

// Errors a test provokes on purpose; every other error status fails expect_clean.
struct ExpectedErrors {
  bool media_errors = false;   // injected uncorrectable sectors: reads may fail with a media error
  bool rejections = false;     // requests past the end of the namespace (workload.address = strict)
  bool write_protected = false;   // the drive went read-only: writes and trims refused
};

// Checks every run must pass: completed, no fatal errors, exit status 0, integrity without
// mismatches, and the error contract: every read verified or (when expected) failed with a
// media error, no error status beyond the expected ones, per-operation error counts that add
// up to those outcomes.
void expect_clean(const nlohmann::json& r, const ExpectedErrors& expected = {});

double ns(const sc_core::sc_time& t);

}  // namespace ssdvp::test
