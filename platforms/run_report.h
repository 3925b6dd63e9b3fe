// What a run leaves behind: the summary table on stdout, run.json and the per-operation
// latency histograms (CSV) in the output folder.
#pragma once

#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

namespace ssdvp {

class HostDriver;

void print_summary(std::ostream& out, const nlohmann::json& r);
// Writes run.json and latency_<op>.csv into dir (created if missing).  Returns the paths.
std::string write_outputs(const std::string& dir, const nlohmann::json& r, const HostDriver& driver);

}  // namespace ssdvp
