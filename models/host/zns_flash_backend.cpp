// The host FTL's flash side over a zoned device: see zns_flash_backend.h.
#include "models/host/zns_flash_backend.h"

#include <cstring>
#include <sstream>

#include "models/common/params.h"
#include "models/dram/dram.h"

namespace ssdvp {

ZnsFlashBackEnd::ZnsFlashBackEnd(sc_core::sc_module_name name, uint32_t cores, Dram& mem, SysCtl& irq, ZnsHost& zns,
                                 uint32_t geometry_addr, bool payload)
    : FlashBackEnd(name, cores, mem, irq, geometry_addr, payload), zns_(zns) {}

bool ZnsFlashBackEnd::attach_device(const PlatformParams& view, std::string& why) {
  geo_ = zns_.geometry();
  const ssd_zns_id_ns ns = zns_.identify_namespace();
  ssd_zns_vs vs;
  std::memcpy(&vs, ns.vs, sizeof(vs));
  channels_ = view.nand.channels;
  dies_ = view.nand.channels * view.nand.ways;
  unit_ = view.nand.sectors_per_page;   // the view's page: the device's write unit
  const uint64_t zcap = uint64_t(view.nand.max_pages_per_block()) * unit_;
  if (vs.dies_per_zone != 1 || geo_.zcap != zcap || geo_.nr_zones != uint64_t(dies_) * view.nand.blocks_per_plane) {
    std::ostringstream s;
    s << "the zoned device's zones (" << geo_.nr_zones << " of " << geo_.zcap << " sectors over " << vs.dies_per_zone
      << " dies) are not one block of one die each (" << uint64_t(dies_) * view.nand.blocks_per_plane << " of " << zcap
      << " sectors over 1 die: device.zns.dies_per_zone = 1, stripes_per_zone = 1, spare_stripes = 0)";
    why = s.str();
    return false;
  }
  offline_.assign(geo_.nr_zones, 0);
  for (uint64_t z = 0; z < geo_.nr_zones;) {   // every zone empty (a new device)
    const ZnsHost::Report r = zns_.report(z * geo_.zsze, SSD_ZNS_ZRAS_ALL, false, 16);
    if (r.status != SSD_ST_OK || r.zones.empty()) {
      why = "Report Zones failed (status " + std::to_string(r.status) + ")";
      return false;
    }
    for (const ssd_zns_zone_desc& d : r.zones) {
      const uint32_t state = d.zs >> 4;
      if (state == SSD_ZNS_ZS_OFFLINE) offline_[z] = 1;
      else if (state != SSD_ZNS_ZS_EMPTY) {
        why = "the zoned device holds data (zone " + std::to_string(z) +
              " is not empty): a host FTL starts on a new device (its recovery over a used one is not built)";
        return false;
      }
      if (++z == geo_.nr_zones) break;
    }
  }
  spare_.assign(geo_.nr_zones * geo_.zcap, ssd_oob{0xFFFFFFFFu, 0xFFFFFFFFu});
  auto* fg = mem_.as<ssd_geometry>(geometry_addr_);
  std::memset(fg, 0, sizeof(*fg));
  fg->channels = view.nand.channels;
  fg->ways = view.nand.ways;
  fg->planes = 1;                             // a write unit's planes are the device's business
  fg->blocks_per_plane = view.nand.blocks_per_plane;
  fg->pages_per_block = view.nand.max_pages_per_block();
  fg->sectors_per_page = unit_;
  return true;
}

bool ZnsFlashBackEnd::encode(Op* op, std::string& why) {
  const ssd_flash_desc& d = op->d;
  const uint64_t zone = zone_of(d);
  const uint64_t first = uint64_t(d.page) * unit_;
  if (d.channel >= channels_ || uint64_t(d.way) * channels_ + d.channel >= dies_ || zone >= geo_.nr_zones ||
      d.plane_mask != 1u || first + unit_ > geo_.zcap) {
    std::ostringstream s;
    s << "channel " << unsigned(d.channel) << ", way " << unsigned(d.way) << ", block " << d.block << ", page " << d.page
      << ", plane mask " << unsigned(d.plane_mask);
    why = s.str();
    return false;
  }
  const uint64_t zslba = zone * geo_.zsze;
  if (d.opcode == SSD_FOP_READ) {
    for (uint32_t i = 0; i < d.nsect; i++) op->lbas.push_back(zslba + first + d.sect_off + i);
    op->cmd.opcode = SSD_HOP_READ;
    op->cmd.nsect = d.nsect;
  } else if (d.opcode == SSD_FOP_PROGRAM) {
    for (uint32_t i = 0; i < unit_; i++) op->lbas.push_back(zslba + first + i);
    op->cmd.opcode = SSD_HOP_WRITE;
    op->cmd.nsect = unit_;
  } else {
    op->lbas.push_back(zslba);
    op->cmd.opcode = SSD_HOP_ZNS_MGMT_SEND;
    op->cmd.cdw[0] = SSD_ZNS_ZSA_RESET;
    op->cmd.nsect = 0;
  }
  op->cmd.lba = op->lbas[0];
  return true;
}

// The spare-area words the host keeps: a program's set, a reset's cleared.
void ZnsFlashBackEnd::sending(Op* op) {
  const ssd_flash_desc& d = op->d;
  const uint64_t base = zone_of(d) * geo_.zcap;
  if (d.opcode == SSD_FOP_PROGRAM)
    for (uint32_t i = 0; i < unit_; i++) spare_[base + uint64_t(d.page) * unit_ + i] = op->meta[i];
  else if (d.opcode == SSD_FOP_ERASE)
    for (uint64_t i = 0; i < geo_.zcap; i++) spare_[base + i] = ssd_oob{0xFFFFFFFFu, 0xFFFFFFFFu};
}

bool ZnsFlashBackEnd::factory_bad(const ssd_flash_desc& d) const { return offline_.at(zone_of(d)) != 0; }

uint16_t ZnsFlashBackEnd::flash_status(Op* op, uint16_t status) {
  const ssd_flash_desc& d = op->d;
  if (d.opcode == SSD_FOP_READ && (status == SSD_ST_OK || status == SSD_ST_MEDIA_ERROR)) {
    const uint64_t base = zone_of(d) * geo_.zcap + uint64_t(d.page) * unit_ + d.sect_off;
    for (uint32_t i = 0; i < op->meta.size(); i++) op->meta[i] = spare_[base + i];
    return status == SSD_ST_OK ? SSD_FST_OK : SSD_FST_UNCORRECTABLE;
  }
  if (status == SSD_ST_OK) return SSD_FST_OK;   // a write, a reset
  return 0xFFFF;
}

void ZnsFlashBackEnd::submit(Op* op, sc_core::sc_time delay, std::function<void(uint16_t)> done) {
  zns_.submit(&op->cmd, delay, [done = std::move(done)](HostCommand* c) { done(c->status); });
}

}  // namespace ssdvp
