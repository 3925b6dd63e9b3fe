// The host FTL's flash side over an Open-Channel device: see oc_flash_backend.h.
#include "models/host/oc_flash_backend.h"

#include <algorithm>
#include <cstring>
#include <sstream>

#include "models/common/params.h"
#include "models/dram/dram.h"

namespace ssdvp {

OcFlashBackEnd::OcFlashBackEnd(sc_core::sc_module_name name, uint32_t cores, Dram& mem, SysCtl& irq, OcHost& oc,
                               uint32_t geometry_addr, bool payload)
    : FlashBackEnd(name, cores, mem, irq, geometry_addr, payload), oc_(oc) {}

bool OcFlashBackEnd::attach_device(const PlatformParams& view, std::string& why) {
  const ssd_oc_geometry g = oc_.geometry();
  const uint32_t chunks = uint32_t(g.num_grp) * g.num_pu * g.num_chk;
  std::vector<ssd_oc_chunk> log = oc_.chunk_log(0, chunks);
  for (uint32_t c = 0; c < chunks; c++)
    if (log[c].cs == SSD_OC_CHUNK_OPEN || log[c].cs == SSD_OC_CHUNK_CLOSED) {
      why = "the Open-Channel device holds data (chunk " + std::to_string(c) +
            " is written): a host FTL starts on a new device (its recovery over a used one is not built)";
      return false;
    }
  if (g.num_grp != view.nand.channels || g.num_pu != view.nand.ways || g.num_chk != view.nand.blocks_per_plane ||
      g.ws_min != view.nand.sectors_per_page) {
    why = "the device's geometry is not the one its configuration describes";
    return false;
  }
  attach(g, std::move(log));
  return true;
}

void OcFlashBackEnd::attach(const ssd_oc_geometry& g, std::vector<ssd_oc_chunk> log) {
  geo_ = g;
  log_ = std::move(log);
  auto* fg = mem_.as<ssd_geometry>(geometry_addr_);
  std::memset(fg, 0, sizeof(*fg));
  fg->channels = g.num_grp;
  fg->ways = g.num_pu;
  fg->planes = 1;                             // a unit's planes are the device's business
  fg->blocks_per_plane = g.num_chk;
  fg->pages_per_block = g.clba / g.ws_min;    // a page is a write unit
  fg->sectors_per_page = g.ws_min;
  mw_units_ = g.ws_min ? g.mw_cunits / g.ws_min : 0;
  units_per_chunk_ = g.clba / g.ws_min;
  kept_.assign(log_.size(), Kept{});
}

uint64_t OcFlashBackEnd::lba(uint32_t grp, uint32_t pu, uint32_t chk, uint32_t sec) const {
  return OcHost::lba(geo_, grp, pu, chk, sec);
}

bool OcFlashBackEnd::encode(Op* op, std::string& why) {
  const ssd_flash_desc& d = op->d;
  const uint32_t grp = d.channel, pu = d.way, chk = d.block;
  if (grp >= geo_.num_grp || pu >= geo_.num_pu || chk >= geo_.num_chk || d.plane_mask != 1u ||
      uint64_t(d.page + 1) * geo_.ws_min > geo_.clba) {
    std::ostringstream s;
    s << "group " << grp << ", unit " << pu << ", chunk " << chk << ", unit of the chunk " << d.page << ", plane mask "
      << unsigned(d.plane_mask);
    why = s.str();
    return false;
  }
  const uint32_t first = d.page * geo_.ws_min;
  if (d.opcode == SSD_FOP_READ) {
    for (uint32_t i = 0; i < d.nsect; i++) op->lbas.push_back(lba(grp, pu, chk, first + d.sect_off + i));
    op->cmd.opcode = SSD_HOP_OC_READ;
  } else if (d.opcode == SSD_FOP_PROGRAM) {
    for (uint32_t i = 0; i < geo_.ws_min; i++) op->lbas.push_back(lba(grp, pu, chk, first + i));
    op->cmd.opcode = SSD_HOP_OC_WRITE;
  } else {
    op->lbas.push_back(lba(grp, pu, chk, 0));
    op->cmd.opcode = SSD_HOP_OC_RESET;
  }
  op->cmd.nsect = uint32_t(op->lbas.size());
  op->cmd.lba = op->lbas[0];
  op->cmd.lba_list = op->lbas.size() > 1 ? op->lbas.data() : nullptr;
  return true;
}

// A read of a unit the device cannot read yet: from the host's copy, at once.
bool OcFlashBackEnd::answer_locally(Op* op) {
  Kept& k = kept_.at(chunk_of(op->d));
  for (const KeptUnit& u : k.units) {
    if (u.unit != op->d.page) continue;
    for (uint32_t i = 0; i < op->sectors.size(); i++) {
      const uint32_t s = op->d.sect_off + i;
      std::memcpy(mem_.tag(op->sectors[i]), &u.tags[s], sizeof(ssd_sector_tag));
      if (op->d.oob_addr) *mem_.as<ssd_oob>(op->d.oob_addr + i * uint32_t(sizeof(ssd_oob))) = u.meta[s];
      if (payload_) std::memcpy(mem_.at(op->sectors[i], 4096), &u.payload[size_t(s) * 4096], 4096);
    }
    if (on_copy) on_copy(uint64_t(op->sectors.size()) * 4096);
    counts_.reads_from_host_copy++;
    post(op->bank, op->d.tag, SSD_FST_OK, kNoInterrupt);
    release(op);
    return true;
  }
  return false;
}

// A program's data is kept on the host until the device can read it; a reset forgets what was
// kept of the chunk.
void OcFlashBackEnd::sending(Op* op) {
  const ssd_flash_desc& d = op->d;
  if (d.opcode != SSD_FOP_ERASE) op->cmd.meta = op->meta.data();
  if (d.opcode == SSD_FOP_PROGRAM && mw_units_) {
    KeptUnit u;
    u.unit = d.page;
    u.tags = op->tags;
    u.meta = op->meta;
    u.payload = op->payload;
    kept_.at(chunk_of(d)).units.push_back(std::move(u));
  } else if (d.opcode == SSD_FOP_ERASE) {
    kept_.at(chunk_of(d)) = Kept{};
  }
}

bool OcFlashBackEnd::factory_bad(const ssd_flash_desc& d) const {
  return log_.at(chunk_of(d)).cs == SSD_OC_CHUNK_OFFLINE;
}

uint16_t OcFlashBackEnd::flash_status(Op* op, uint16_t status) {
  const ssd_flash_desc& d = op->d;
  if (d.opcode == SSD_FOP_READ && (status == SSD_ST_OK || status == SSD_ST_MEDIA_ERROR))
    return status == SSD_ST_OK ? SSD_FST_OK : SSD_FST_UNCORRECTABLE;
  if (d.opcode == SSD_FOP_PROGRAM && (status == SSD_ST_OK || status == SSD_OC_ST_EARLY_CLOSE)) {
    if (mw_units_) {   // a unit mw_cunits behind, or every unit of a full chunk, reads from the device now
      Kept& k = kept_.at(chunk_of(d));
      k.completed = std::max<uint32_t>(k.completed, d.page + 1u);
      while (!k.units.empty() && (k.completed >= units_per_chunk_ || k.units.front().unit + mw_units_ < k.completed))
        k.units.pop_front();
    }
    return status == SSD_ST_OK ? SSD_FST_OK : SSD_FST_PROGRAM_FAIL;
  }
  if (d.opcode == SSD_FOP_ERASE && (status == SSD_ST_OK || status == SSD_OC_ST_OFFLINE_CHUNK))
    return status == SSD_ST_OK ? SSD_FST_OK : SSD_FST_ERASE_FAIL;
  return 0xFFFF;
}

void OcFlashBackEnd::submit(Op* op, sc_core::sc_time delay, std::function<void(uint16_t)> done) {
  oc_.submit(&op->cmd, delay, [done = std::move(done)](HostCommand*, const OcHost::Result& r) { done(r.status); });
}

}  // namespace ssdvp
