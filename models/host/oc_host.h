// The host's side of the Open-Channel SSD 2.0 command set (device.interface = ocssd;
// docs/ocssd.md): what a host FTL calls to reach an Open-Channel device over the NVMe queues
// and PCIe link of the host interface.  Reads the geometry and the chunk information log,
// sends vector chunk reset, write and read with their LBA lists, and hands back each
// command's status and the bitmap of the LBAs that failed.  Each call blocks the calling
// SystemC thread (a host thread) until the command completes; several threads may have
// commands in flight at once (one submission queue each, or shared).
// Leaves out: the host FTL itself (models/host grows one), the spec's vector copy, the LBA
// metadata area, chunk notifications.
#pragma once

#include <systemc>

#include <cstdint>
#include <functional>
#include <vector>

#include "models/host/host_command_port.h"
#include "models/host/host_interface.h"

extern "C" {
#include "ftl-sw/hal/oc_formats.h"
}

namespace ssdvp {

class OcHost {
 public:
  // Takes the interface's completion callback: nothing else may submit on it.
  explicit OcHost(HostInterface& hif);

  struct Result {
    uint16_t status = 0;
    uint64_t failed = 0;          // bit i: LBA i of the list failed (with a media status)
    bool failed_listed = false;   // the device named the LBAs (else the whole command failed)
    sc_core::sc_time submitted, completed;
  };

  // Admin (here on I/O queue `queue`, as the host interface has no admin queue).
  ssd_oc_geometry geometry(uint16_t queue = 0);
  // Chunk descriptors [first, first + count) of the chunk information log.
  std::vector<ssd_oc_chunk> chunk_log(uint32_t first, uint32_t count, uint16_t queue = 0);
  // The LBA of (group, unit, chunk, sector) in the geometry's LBA format.
  static uint64_t lba(const ssd_oc_geometry& g, uint32_t grp, uint32_t pu, uint32_t chk, uint32_t sec);

  // Vector commands (1 .. SSD_OC_MAX_LBAS LBAs; more are sent as the device would see them,
  // for its answer).  write: tags[i] goes to lbas[i] (with meta[i], the LBA's metadata, if
  // given); read fills tags (and meta, if given).
  Result reset(const std::vector<uint64_t>& lbas, uint16_t queue = 0);
  Result write(const std::vector<uint64_t>& lbas, const std::vector<ssd_sector_tag>& tags, uint16_t queue = 0,
               const std::vector<ssd_oob>* meta = nullptr);
  Result read(const std::vector<uint64_t>& lbas, std::vector<ssd_sector_tag>& tags, uint16_t queue = 0,
              std::vector<ssd_oob>* meta = nullptr);
  // A command as built (its status), for the statuses of commands a well-behaved host never sends.
  Result raw(uint8_t opcode, uint64_t lba, uint32_t nsect, uint16_t queue = 0);

  uint64_t commands() const { return port_.commands(); }

  // Without blocking (a host FTL's flash side, models/host/oc_flash_backend.h): `cmd` (built
  // by the caller, its LBA list, tags and metadata alive until `done`) goes on its queue at
  // now + delay; `done` runs when its completion is seen.
  void submit(HostCommand* cmd, sc_core::sc_time delay, std::function<void(HostCommand*, const Result&)> done);
  static Result result_of(const HostCommand& c);

 private:
  Result send(HostCommand& c);
  static void address(HostCommand& c, uint8_t opcode, const std::vector<uint64_t>& lbas, uint16_t queue);
  HostCommandPort port_;
};

}  // namespace ssdvp
