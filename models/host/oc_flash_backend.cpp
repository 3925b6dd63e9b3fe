// The host FTL's flash side over an Open-Channel device: see oc_flash_backend.h.
#include "models/host/oc_flash_backend.h"

#include "models/flash/fctl_ring_registers.h"

#include <cstring>
#include <sstream>

#include "models/common/fatal.h"
#include "models/cpu/sysctl.h"
#include "models/dram/dram.h"

namespace ssdvp {

namespace {
// A completion posted while the FTL's section runs (answered on the host, no device command):
// the section's own look finds it, no interrupt.
constexpr uint32_t kNoInterrupt = UINT32_MAX;
}  // namespace

OcFlashBackEnd::OcFlashBackEnd(sc_core::sc_module_name name, uint32_t cores, Dram& mem, SysCtl& irq, OcHost& oc,
                               uint32_t geometry_addr, bool payload)
    : MmioDevice(name), mem_(mem), irq_(irq), oc_(oc), geometry_addr_(geometry_addr), payload_(payload), banks_(cores) {}

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

// A read of a unit the device cannot read yet: from the host's copy, at once.
bool OcFlashBackEnd::from_host_copy(Op* op) {
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
    free_ops_.push_back(op);
    return true;
  }
  return false;
}

uint64_t OcFlashBackEnd::lba(uint32_t grp, uint32_t pu, uint32_t chk, uint32_t sec) const {
  return OcHost::lba(geo_, grp, pu, chk, sec);
}

OcFlashBackEnd::Op* OcFlashBackEnd::new_op() {
  if (free_ops_.empty()) {
    ops_.push_back(std::make_unique<Op>());
    return ops_.back().get();
  }
  Op* op = free_ops_.back();
  free_ops_.pop_back();
  return op;
}

uint32_t OcFlashBackEnd::read32(uint32_t offset, sc_core::sc_time&) {
  if (offset == FCTL_FUNCTIONAL) return functional_;
  if (offset == FCTL_GEOMETRY_ADDR) return geometry_addr_;
  const uint32_t bank = offset / FCTL_BANK_STRIDE, reg = offset % FCTL_BANK_STRIDE;
  if (bank >= banks_.size()) return 0;
  switch (reg) {
    case FCTL_SUB_HEAD: return banks_[bank].sub_head;
    case FCTL_SUB_TAIL: return banks_[bank].sub_tail;
    case FCTL_CPL_HEAD: return banks_[bank].cpl_head;
    default: return 0;
  }
}

void OcFlashBackEnd::write32(uint32_t offset, uint32_t value, sc_core::sc_time&) {
  if (offset == FCTL_FUNCTIONAL) {
    functional_ = value & 1u;
    return;
  }
  const uint32_t bank = offset / FCTL_BANK_STRIDE, reg = offset % FCTL_BANK_STRIDE;
  if (bank >= banks_.size()) return;
  Bank& k = banks_[bank];
  if (set_fctl_ring_register(k, reg, value)) return;
  switch (reg) {
    case FCTL_SUB_TAIL:
      k.sub_tail = value;
      take(bank);
      break;
    default: break;
  }
}

// Each new descriptor becomes a vector command (sent by launch), or is answered at once in
// functional mode.
void OcFlashBackEnd::take(uint32_t bank) {
  Bank& k = banks_[bank];
  while (k.sub_head != k.sub_tail) {
    const ssd_flash_desc d = *mem_.as<ssd_flash_desc>(k.sub_addr + (k.sub_head & (k.sub_size - 1u)) * sizeof(ssd_flash_desc));
    k.sub_head++;
    Op* op = new_op();
    op->d = d;
    op->bank = bank;
    op->cmd = HostCommand{};
    op->lbas.clear();
    op->sectors.clear();
    const uint32_t grp = d.channel, pu = d.way, chk = d.block;
    if (grp >= geo_.num_grp || pu >= geo_.num_pu || chk >= geo_.num_chk || d.plane_mask != 1u ||
        uint64_t(d.page + 1) * geo_.ws_min > geo_.clba) {
      std::ostringstream s;
      s << "host FTL: a flash descriptor outside the Open-Channel device (group " << grp << ", unit " << pu << ", chunk "
        << chk << ", unit of the chunk " << d.page << ", plane mask " << unsigned(d.plane_mask) << ")";
      report_fatal(s.str());
      post(bank, d.tag, SSD_FST_BAD_DESC, kNoInterrupt);
      free_ops_.push_back(op);
      continue;
    }
    const uint32_t first = d.page * geo_.ws_min;
    uint32_t n = 1;
    if (d.opcode == SSD_FOP_READ) {
      n = d.nsect;
      for (uint32_t i = 0; i < n; i++) op->lbas.push_back(lba(grp, pu, chk, first + d.sect_off + i));
      op->cmd.opcode = SSD_HOP_OC_READ;
    } else if (d.opcode == SSD_FOP_PROGRAM) {
      n = geo_.ws_min;
      for (uint32_t i = 0; i < n; i++) op->lbas.push_back(lba(grp, pu, chk, first + i));
      op->cmd.opcode = SSD_HOP_OC_WRITE;
    } else {
      op->lbas.push_back(lba(grp, pu, chk, 0));
      op->cmd.opcode = SSD_HOP_OC_RESET;
    }
    if (d.opcode != SSD_FOP_ERASE) {
      if ((d.flags & SSD_FDF_PAYLOAD) && !payload_) {
        report_fatal("host FTL: the FTL stores a metadata page (a demand-based map's) that needs whole payloads: "
                     "a host FTL runs with ftl.mapping = \"opt\" (its map in host memory)");
        post(bank, d.tag, SSD_FST_BAD_DESC, kNoInterrupt);
        free_ops_.push_back(op);
        continue;
      }
      for (uint32_t i = 0; i < n; i++)
        op->sectors.push_back((d.flags & SSD_FDF_SGL) ? mem_.as<uint32_t>(d.dram_addr + 4u * i)[0] : d.dram_addr + i * 4096u);
      op->tags.assign(n, ssd_sector_tag{0, 0});
      op->meta.assign(n, ssd_oob{0, 0});
      op->payload.assign(payload_ ? size_t(n) * 4096 : 0, 0);
      if (d.opcode == SSD_FOP_PROGRAM)
        for (uint32_t i = 0; i < n; i++) {
          std::memcpy(&op->tags[i], mem_.tag(op->sectors[i]), sizeof(ssd_sector_tag));
          op->meta[i] = mem_.as<ssd_oob>(d.oob_addr + i * uint32_t(sizeof(ssd_oob)))[0];
          if (payload_) std::memcpy(&op->payload[size_t(i) * 4096], mem_.at(op->sectors[i], 4096), 4096);
        }
      op->cmd.data = op->tags.data();
      op->cmd.meta = op->meta.data();
      op->cmd.payload = payload_ ? op->payload.data() : nullptr;
    }
    op->cmd.nsect = uint32_t(op->lbas.size());
    op->cmd.lba = op->lbas[0];
    op->cmd.lba_list = op->lbas.size() > 1 ? op->lbas.data() : nullptr;
    if (functional_) functional(op);
    else if (!(d.opcode == SSD_FOP_READ && from_host_copy(op))) send_later(op);
  }
}

// A command for launch(); a program's data is kept on the host until the device can read it,
// a reset forgets what was kept of the chunk.
void OcFlashBackEnd::send_later(Op* op) {
  const ssd_flash_desc& d = op->d;
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
  to_launch_.push_back(op);
}

// The format's factory scan: a chunk's first unit read as the chunk log says.
void OcFlashBackEnd::functional(Op* op) {
  if (op->d.opcode != SSD_FOP_READ) {
    report_fatal("host FTL: a program or erase in functional mode (a host FTL is not preconditioned)");
    post(op->bank, op->d.tag, SSD_FST_BAD_DESC, kNoInterrupt);
    free_ops_.push_back(op);
    return;
  }
  const uint32_t c = (uint32_t(op->d.channel) * geo_.num_pu + op->d.way) * geo_.num_chk + op->d.block;
  const bool bad = log_.at(c).cs == SSD_OC_CHUNK_OFFLINE;
  for (uint32_t i = 0; i < op->sectors.size(); i++) {
    const ssd_oob o = bad ? ssd_oob{0, 0} : ssd_oob{0xFFFFFFFFu, 0xFFFFFFFFu};
    if (op->d.oob_addr) *mem_.as<ssd_oob>(op->d.oob_addr + i * uint32_t(sizeof(ssd_oob))) = o;
    std::memset(mem_.tag(op->sectors[i]), bad ? 0 : 0xFF, sizeof(ssd_sector_tag));
  }
  post(op->bank, op->d.tag, SSD_FST_OK, kNoInterrupt);
  free_ops_.push_back(op);
}

OcFlashBackEnd::Built OcFlashBackEnd::take_built() {
  Built b;
  b.swap(to_launch_);
  return b;
}

void OcFlashBackEnd::launch(const Built& ops, uint16_t queue, sc_core::sc_time delay, uint32_t cpu) {
  for (Op* op : ops) {
    op->cmd.queue = queue;
    op->cpu = cpu;
    if (op->cmd.opcode == SSD_HOP_OC_WRITE) {
      counts_.writes++;
      counts_.lbas_written += op->cmd.nsect;
    } else if (op->cmd.opcode == SSD_HOP_OC_READ) {
      counts_.reads++;
      counts_.lbas_read += op->cmd.nsect;
    } else {
      counts_.resets++;
    }
    oc_.submit(&op->cmd, delay, [this, op](HostCommand*, const OcHost::Result& r) { done(op, r.status); });
  }
}

void OcFlashBackEnd::done(Op* op, uint16_t oc_status) {
  const ssd_flash_desc& d = op->d;
  uint16_t st = SSD_FST_BAD_DESC;
  if (d.opcode == SSD_FOP_READ && (oc_status == SSD_ST_OK || oc_status == SSD_ST_MEDIA_ERROR)) {
    for (uint32_t i = 0; i < op->sectors.size(); i++) {
      std::memcpy(mem_.tag(op->sectors[i]), &op->tags[i], sizeof(ssd_sector_tag));
      if (d.oob_addr) *mem_.as<ssd_oob>(d.oob_addr + i * uint32_t(sizeof(ssd_oob))) = op->meta[i];   // (none: not asked for)
      if (payload_) std::memcpy(mem_.at(op->sectors[i], 4096), &op->payload[size_t(i) * 4096], 4096);
    }
    st = oc_status == SSD_ST_OK ? SSD_FST_OK : SSD_FST_UNCORRECTABLE;
  } else if (d.opcode == SSD_FOP_PROGRAM && (oc_status == SSD_ST_OK || oc_status == SSD_OC_ST_EARLY_CLOSE)) {
    st = oc_status == SSD_ST_OK ? SSD_FST_OK : SSD_FST_PROGRAM_FAIL;
    if (mw_units_) {   // a unit mw_cunits behind, or every unit of a full chunk, reads from the device now
      Kept& k = kept_.at(chunk_of(d));
      k.completed = std::max<uint32_t>(k.completed, d.page + 1u);
      while (!k.units.empty() && (k.completed >= units_per_chunk_ || k.units.front().unit + mw_units_ < k.completed))
        k.units.pop_front();
    }
  } else if (d.opcode == SSD_FOP_ERASE && (oc_status == SSD_ST_OK || oc_status == SSD_OC_ST_OFFLINE_CHUNK)) {
    st = oc_status == SSD_ST_OK ? SSD_FST_OK : SSD_FST_ERASE_FAIL;
  } else {
    std::ostringstream s;
    s << "host FTL: the Open-Channel device answered a " << (d.opcode == SSD_FOP_READ ? "read" : d.opcode == SSD_FOP_PROGRAM ? "write" : "reset")
      << " of LBA 0x" << std::hex << op->lbas[0] << " (group " << std::dec << unsigned(d.channel) << ", unit " << unsigned(d.way)
      << ", chunk " << d.block << ") with status 0x" << std::hex << oc_status << " (an FTL bug)";
    report_fatal(s.str());
  }
  post(op->bank, d.tag, st, op->cpu);
  free_ops_.push_back(op);
}

void OcFlashBackEnd::post(uint32_t bank, uint32_t tag, uint16_t status, uint32_t cpu) {
  Bank& k = banks_[bank];
  if (k.cpl_tail - k.cpl_head >= k.cpl_size) {
    report_fatal("host FTL: the flash completion ring of FTL core " + std::to_string(bank) + " overflows");
    return;
  }
  auto* e = mem_.as<ssd_flash_cpl>(k.cpl_addr + (k.cpl_tail & (k.cpl_size - 1u)) * sizeof(ssd_flash_cpl));
  const uint64_t now = uint64_t(sc_core::sc_time_stamp().to_seconds() * 1e9 + 0.5);
  e->tag = tag;
  e->status = status;
  e->t_done_lo = uint32_t(now);
  e->t_done_hi = uint32_t(now >> 32);
  e->phase = uint16_t(k.cpl_phase);
  if (++k.cpl_tail % k.cpl_size == 0) k.cpl_phase ^= 1u;
  irq_.raise(SSD_IRQ_FCTL, bank);
  if (on_interrupt && cpu != kNoInterrupt) on_interrupt(cpu, bank);
}

}  // namespace ssdvp
