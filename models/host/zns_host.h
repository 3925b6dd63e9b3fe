// The host's side of the NVMe Zoned Namespace command set (device.interface = zns; docs/zns.md):
// what a host (a test, a zoned workload, a host FTL over zones) calls to reach a zoned device
// over the NVMe queues and PCIe link of the host interface: Identify (the zoned namespace and
// controller structures), Read, Write, Zone Append (the LBA written comes back), Zone
// Management Send (an action on a zone or, with Select All, on every zone it applies to) and
// Receive (Report Zones), Flush.  Each call blocks the calling SystemC thread (a host thread)
// until the command completes; `submit` sends one without blocking (several in flight).
// Leaves out: the extended report, zone descriptor extensions, the zoned random write area.
#pragma once

#include <systemc>

#include <cstdint>
#include <functional>
#include <vector>

#include "models/host/host_command_port.h"
#include "models/host/host_interface.h"

extern "C" {
#include "ftl-sw/hal/zns_formats.h"
}

namespace ssdvp {

class ZnsHost {
 public:
  explicit ZnsHost(HostInterface& hif) : port_(hif) {}

  struct Result {
    uint16_t status = 0;
    uint64_t lba = 0;                  // Zone Append: where the data went
    sc_core::sc_time submitted, completed;
  };
  struct Report {
    uint16_t status = 0;
    uint64_t nr_zones = 0;             // the header's count
    std::vector<ssd_zns_zone_desc> zones;
  };

  ssd_zns_id_ns identify_namespace(uint16_t queue = 0);
  ssd_zns_id_ctrl identify_controller(uint16_t queue = 0);
  // The namespace's zone geometry from Identify (nr_zones, zone size and capacity, limits).
  struct Geometry {
    uint64_t nr_zones = 0, zsze = 0, zcap = 0;
    uint32_t max_open = 0, max_active = 0;   // 0: no limit
    uint32_t zasl_sectors = 0;
  };
  Geometry geometry(uint16_t queue = 0);

  // tags[i] goes to lba + i.
  Result write(uint64_t lba, const std::vector<ssd_sector_tag>& tags, uint16_t queue = 0);
  Result append(uint64_t zslba, const std::vector<ssd_sector_tag>& tags, uint16_t queue = 0);
  // `n` sectors from lba into tags.
  Result read(uint64_t lba, uint32_t n, std::vector<ssd_sector_tag>& tags, uint16_t queue = 0);
  Result manage(uint64_t zslba, uint8_t action, bool select_all = false, uint16_t queue = 0);
  // Report Zones from the zone of `slba`, of the zones `option` selects, into `sectors` 4 KiB of
  // report (the header and up to 64 x sectors - 1 descriptors).
  Report report(uint64_t slba, uint8_t option = SSD_ZNS_ZRAS_ALL, bool partial = false, uint32_t sectors = 1,
                uint16_t queue = 0);
  Result flush(uint16_t queue = 0);
  // A command as built (its status), for what a well-behaved host never sends.
  Result raw(uint8_t opcode, uint64_t lba, uint32_t nsect, uint32_t cdw0 = 0, uint16_t queue = 0);

  // Without blocking: `cmd` (its data alive until `done`) goes on its queue at now + delay.
  void submit(HostCommand* cmd, sc_core::sc_time delay, std::function<void(HostCommand*)> done) {
    port_.submit(cmd, delay, std::move(done));
  }
  uint64_t commands() const { return port_.commands(); }

 private:
  Result send(HostCommand& c);
  HostCommandPort port_;
};

}  // namespace ssdvp
