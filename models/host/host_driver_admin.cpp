// The host driver's own commands besides the workload's, one at a time on queue 0:
//   - a zoned device's zones read at the start (DriverOptions::zone_report; docs/zns.md), before
//     the workload is made, so that a zoned generator starts from the device's write pointers
//     (a drive powered on over a power cut holds data), as fio reads the zone report first;
//   - FDP's logs at the end (DriverOptions::fdp_logs; docs/fdp.md): after the final flush the
//     drive is let come to rest, then the four FDP log pages (configurations, reclaim unit
//     handle usage, statistics, events) and the Reclaim Unit Handle Status, as a host's
//     `nvme fdp` tools read them.
// Leaves out: the endurance group identifier (one), FDP log offsets past the first 4 KiB (every
// log here fits it).
#include "models/host/host_driver.h"

#include <cstring>

#include "models/common/fatal.h"

#include "ftl-sw/hal/fdp_formats.h"
#include "ftl-sw/hal/zns_formats.h"

namespace ssdvp {

// One command returning a 4 KiB structure as bytes into `out`; false if it failed.
bool HostDriver::admin_read(uint8_t opcode, uint32_t cdw0, std::vector<uint8_t>& out, uint64_t lba, uint32_t sectors) {
  out.assign(size_t(sectors) * 4096, 0);
  admin_ = HostCommand{};
  admin_.opcode = opcode;
  admin_.nsect = uint32_t(out.size() / 4096);
  admin_.cdw[0] = cdw0;
  admin_.payload = out.data();
  admin_.lba = lba;
  admin_.user = uint64_t(UINT32_MAX) << 16;   // an end-of-run command
  hif_.submit(&admin_);
  hif_.ring_doorbell(0, sc_core::SC_ZERO_TIME, 0);
  wait(admin_done_);
  if (admin_.status != SSD_ST_OK && !fdp_logs_.status) fdp_logs_.status = admin_.status;
  return admin_.status == SSD_ST_OK;
}

bool HostDriver::read_zone_report() {
  constexpr uint32_t kSectors = 16;   // 1,023 descriptors a command
  const uint32_t per = kSectors * 4096 / sizeof(ssd_zns_zone_desc) - 1;
  zone_report_.clear();
  for (uint64_t lba = 0;;) {
    std::vector<uint8_t> bytes;
    if (!admin_read(SSD_HOP_ZNS_MGMT_RECV, SSD_ZNS_ZRA_REPORT | uint32_t(SSD_ZNS_ZRAS_ALL) << 8, bytes, lba, kSectors)) {
      report_fatal("the host's Report Zones failed (status " + std::to_string(admin_.status) + ")");
      return false;
    }
    ssd_zns_report_header h;
    std::memcpy(&h, bytes.data(), sizeof h);
    const uint64_t n = std::min<uint64_t>(h.nr_zones, per);
    for (uint64_t k = 0; k < n; k++) {
      ssd_zns_zone_desc d;
      std::memcpy(&d, bytes.data() + sizeof h + k * sizeof d, sizeof d);
      zone_report_.push_back(d);
    }
    if (h.nr_zones <= per) return true;
    lba = zone_report_.back().zslba + (zone_report_.size() > 1 ? zone_report_[1].zslba - zone_report_[0].zslba : 1);
  }
}

void HostDriver::read_fdp_logs() {
  if (wait_quiet) wait_quiet();
  admin_read(SSD_HOP_FDP_LOG, SSD_LID_FDP_CONFIGS, fdp_logs_.configs);
  admin_read(SSD_HOP_FDP_LOG, SSD_LID_FDP_RUH_USAGE, fdp_logs_.usage);
  admin_read(SSD_HOP_FDP_LOG, SSD_LID_FDP_STATS, fdp_logs_.stats);
  admin_read(SSD_HOP_FDP_LOG, SSD_LID_FDP_EVENTS, fdp_logs_.events);
  admin_read(SSD_HOP_IO_MGMT_RECV, SSD_IOMR_MO_RUH_STATUS, fdp_logs_.ruh_status);
  fdp_logs_.read = true;
  if (on_fdp_logs_read) on_fdp_logs_read();
}

}  // namespace ssdvp
