// The host FTL's flash side over a zoned device (models/host/flash_backend.h): a log-structured
// host FTL on NVMe Zoned Namespaces (docs/zns.md, docs/host-ftl.md).  The same FTL sources that
// run as device firmware or over Open-Channel (ftl-sw/) keep their own map and do their own GC
// between zones; this binds their flash to zones.
//
// Models: a zone is one of the FTL's blocks: the device lays each zone on one die
// (device.zns.dies_per_zone = 1, one stripe, no spares, checked at boot against Identify), so
// die d's block b is zone b x dies + d (the device's numbering), and the FTL sees one plane per
// die whose page is the zone's write unit (planes x sectors per page).  A program is a Write at
// the zone's write pointer (the FTL fills a block's pages in order, one stream's programs from
// one thread on one queue, so they arrive in order), a read a Read of its sectors, an erase a
// Zone Management Send reset (the zone's capacity back; the device erases its blocks behind
// it).  Zone Append is not used: the FTL decides each sector's place before it writes it.  The
// FTL's spare-area words (its reverse map and versions, 8 bytes a sector) have no place in a
// zoned namespace without metadata: the host keeps them in its memory beside the zones
// (kept_bytes), set by a program, read back with the sectors, cleared by a reset.  A media
// error reads as uncorrectable; any zoned status (a write off the write pointer, a full zone,
// too many open zones) is an FTL bug and stops the run.
// Leaves out: a device that holds data at boot (its zones must be empty), offline and read-only
// zones (none without bad-block remapping), Zone Append, zone finish.
#pragma once

#include <vector>

#include "models/host/flash_backend.h"
#include "models/host/zns_host.h"

namespace ssdvp {

class ZnsFlashBackEnd : public FlashBackEnd {
 public:
  ZnsFlashBackEnd(sc_core::sc_module_name name, uint32_t cores, Dram& mem, SysCtl& irq, ZnsHost& zns,
                  uint32_t geometry_addr, bool payload);
  bool attach_device(const PlatformParams& view, std::string& why) override;
  uint64_t kept_bytes() const override { return spare_.size() * sizeof(ssd_oob); }

 protected:
  bool encode(Op* op, std::string& why) override;
  void sending(Op* op) override;
  bool factory_bad(const ssd_flash_desc& d) const override;
  uint16_t flash_status(Op* op, uint16_t status) override;
  void submit(Op* op, sc_core::sc_time delay, std::function<void(uint16_t)> done) override;
  const char* device_name() const override { return "zoned"; }

 private:
  uint64_t zone_of(const ssd_flash_desc& d) const {
    return uint64_t(d.block) * dies_ + uint64_t(d.way) * channels_ + d.channel;
  }

  ZnsHost& zns_;
  ZnsHost::Geometry geo_{};
  uint32_t channels_ = 0, dies_ = 0, unit_ = 0;
  std::vector<uint8_t> offline_;      // per zone, at boot
  std::vector<ssd_oob> spare_;        // per zone sector: the FTL's spare-area words
};

}  // namespace ssdvp
