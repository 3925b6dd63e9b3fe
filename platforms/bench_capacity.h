// `ssdvp bench --capacity GIB...`: how the simulator scales with the drive's size.  For each
// capacity the platform's drive is grown by nand.blocks_per_plane (every other key as given),
// preconditioned to the GC steady state (a sequential fill, then random overwrites of the whole
// logical space) and read at random for a short while.  Reported per capacity: the
// preconditioning's wall time (and per GiB), the process's peak RSS (and per GiB), the read
// rate; then the drive-state snapshot (platforms/drive_snapshot.h): the save's wall time and
// size on disk, and a second process that loads it and runs the same reads (the load's wall
// time, and the whole process's).  A capacity the platform refuses (superblock count, firmware
// DRAM) is a row with the reason.  Each case runs in its own processes (SystemC elaborates
// once), once: they are long.
#pragma once

#include <string>
#include <vector>

namespace ssdvp {

int bench_capacity(const std::string& self, const std::string& platform, const std::vector<std::string>& sets,
                   const std::vector<unsigned>& gib, unsigned long requests);

}  // namespace ssdvp
