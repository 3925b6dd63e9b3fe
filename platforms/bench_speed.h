// `ssdvp bench`: the simulator's speed.  Three 4 KiB cases on the platform (random reads of a
// filled drive, random writes of a filled one, random writes of an aged one at the GC steady
// state), each the best of `repeat` runs in a child process (SystemC elaborates once per
// process): host requests and flash operations per wall second, then the SystemC kernel's own
// ceiling for them; with iss the firmware on the ISS (instructions per request, MIPS), with
// cores the same by firmware core count, with rtl the RTL channel against the TLM one.
// Leaves out: the machine's noise beyond taking the best run; --serve and --capacity
// (platforms/bench_serve.h, bench_capacity.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ssdvp {

int bench_speed(const std::string& self, const std::string& platform, const std::vector<std::string>& sets,
                uint64_t requests, unsigned repeat, bool iss, bool rtl, const std::vector<unsigned>& cores_list);

// The fastest of `repeat` runs of a case, each `self run` in a child process (the machine's noise
// only ever slows a run down); throws naming the command when one fails.
nlohmann::json best_case(const std::string& self, unsigned repeat, const std::string& platform,
                         const std::string& workload, const std::vector<std::string>& sets);

}  // namespace ssdvp
