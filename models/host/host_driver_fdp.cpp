// FDP's logs read by the host at the end of a run (DriverOptions::fdp_logs; docs/fdp.md): after
// the final flush the drive is let come to rest, then the four FDP log pages (configurations,
// reclaim unit handle usage, statistics, events) and the Reclaim Unit Handle Status are read,
// one command at a time on queue 0, as a host's `nvme fdp` tools read them.
// Leaves out: the endurance group identifier (one), offsets past the first 4 KiB (every log here
// fits it).
#include "models/host/host_driver.h"

#include "ftl-sw/hal/fdp_formats.h"

namespace ssdvp {

// One command returning a 4 KiB structure as bytes into `out`; false if it failed.
bool HostDriver::admin_read(uint8_t opcode, uint32_t cdw0, std::vector<uint8_t>& out) {
  out.assign(4096, 0);
  admin_ = HostCommand{};
  admin_.opcode = opcode;
  admin_.nsect = 1;
  admin_.cdw[0] = cdw0;
  admin_.payload = out.data();
  admin_.user = uint64_t(UINT32_MAX) << 16;   // an end-of-run command
  hif_.submit(&admin_);
  hif_.ring_doorbell(0, sc_core::SC_ZERO_TIME, 0);
  wait(admin_done_);
  if (admin_.status != SSD_ST_OK && !fdp_logs_.status) fdp_logs_.status = admin_.status;
  return admin_.status == SSD_ST_OK;
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
