// Simulated time on the hot path without the SystemC library's out-of-line calls.
//
// SystemC 2.3.4 builds an sc_time from a count of resolution units with sc_time::from_value
// and from a picosecond double with sc_time(double, SC_PS), and gives its seconds with
// to_seconds(), all out of line in the shared library and all on every request's path (the
// channel's clock grid, the event queue, DMA and PCIe durations, completion times, latency
// figures): about 3 % of a native random read's instructions.  These helpers give
// the same values inline.  What they assume: the kernel's time resolution is 1 ps (SystemC's
// default, which ssdvp never changes; SsdPlatform's constructor refuses any other) and is
// already fixed, as it is once any non-zero time has been built.
// Leaves out: every other unit and resolution (the library's constructors are the place).
#pragma once

#include <systemc>

#include <cstdint>
#include <cstring>

namespace ssdvp {

static_assert(sizeof(sc_core::sc_time) == sizeof(uint64_t), "sc_time is one count of resolution units");

// sc_time::from_value(ps), inline: the time whose value() is `ps` (1 ps resolution).
inline sc_core::sc_time time_ps(uint64_t ps) {
  sc_core::sc_time t;
  std::memcpy(static_cast<void*>(&t), &ps, sizeof ps);
  return t;
}

// sc_time(ps, SC_PS).value(), inline: SystemC rounds v * 1.0 + 0.5 down to an integer
// (v >= 0), exactly as here.
inline uint64_t round_ps(double ps) {
  if (ps == 0) return 0;
  volatile double tmp = ps + 0.5;   // the library's own step, kept volatile as it is there
  return uint64_t(int64_t(tmp));
}

// t.to_seconds(), inline: the library multiplies the value by the resolution in femtoseconds
// (1000) and by 1e-15, in that order, as here.
inline double seconds_of(sc_core::sc_time t) { return double(t.value()) * 1000.0 * 1e-15; }

}  // namespace ssdvp
