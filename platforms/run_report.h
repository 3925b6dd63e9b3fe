// What a run leaves behind: the summary table on stdout, run.json, the per-operation
// latency histograms and the throughput series (CSV) in the output folder.
#pragma once

#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

namespace ssdvp {

class HostDriver;

// The run's exit status from its results: 2 bad input found at run time (input_errors: a
// workload that does not fit the namespace), 3 the run did not complete, 4 integrity mismatches,
// 5 requests that failed without a cause (HostDriver::Outcomes: an error status nothing
// explains, or more media errors than the dies injected), else 0.
int exit_status(const nlohmann::json& r);

void print_summary(std::ostream& out, const nlohmann::json& r);

// DIR/run.json, parsed; throws "no results in DIR" when there is none.
nlohmann::json read_results(const std::string& dir);
// The output folder, made (or found) before anything is simulated, so that a path that cannot
// be one (a file is there, a parent cannot be made) is an error at once, not after the run:
// throws ConfigError naming `where` (the option or the key's origin) and the path.
void prepare_output_dir(const std::string& where, const std::string& dir);
// Writes run.json, latency_<op>.csv and (sim.series_interval_ms) throughput.csv into dir
// (created if missing).  Returns run.json's path.
std::string write_outputs(const std::string& dir, const nlohmann::json& r, const HostDriver& driver);

}  // namespace ssdvp
