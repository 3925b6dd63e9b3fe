// A host request in flight inside the host driver (models/host/host_driver.h): the workload's
// request, its commands, the data it wrote or read (tags, payload) and the integrity checker's
// snapshots; private to the driver's files (host_driver.cpp, host_durability.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "models/common/sim_time.h"
#include "models/host/host_driver.h"

namespace ssdvp {

struct HostDriver::Request {
  workload::Request req;
  unsigned stream = 0;
  uint64_t lba = 0;
  uint32_t nsect = 0;
  uint32_t parts_left = 0;
  uint32_t seq = 0;                         // writes: integrity sequence number
  sc_core::sc_time t_start;                          // latency measured from here
  uint64_t t_issue_ns = 0;                  // when issue() submitted it (integrity records)
  std::vector<HostCommand> cmds;
  std::vector<ssd_sector_tag> data;
  std::vector<uint8_t> payload;
  std::vector<IntegrityChecker::ReadSnapshot> snap;
  uint32_t index = 0;                       // in pool_
  uint64_t id = 0;                          // issue order (issued_ when it was made)
};

// Simulated time in whole nanoseconds (the integrity checker's clock).
inline uint64_t ns_of(const sc_core::sc_time& t) { return uint64_t(seconds_of(t) * 1e9 + 0.5); }

}  // namespace ssdvp
