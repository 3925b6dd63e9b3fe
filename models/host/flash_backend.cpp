// The host FTL's flash side, what every device kind shares: see flash_backend.h.
#include "models/host/flash_backend.h"

#include <cstring>
#include <sstream>

#include "models/common/fatal.h"
#include "models/cpu/sysctl.h"
#include "models/dram/dram.h"
#include "models/flash/fctl_ring_registers.h"

namespace ssdvp {

FlashBackEnd::FlashBackEnd(sc_core::sc_module_name name, uint32_t cores, Dram& mem, SysCtl& irq, uint32_t geometry_addr,
                           bool payload)
    : MmioDevice(name), mem_(mem), geometry_addr_(geometry_addr), payload_(payload), irq_(irq), banks_(cores) {}

FlashBackEnd::~FlashBackEnd() = default;

FlashBackEnd::Op* FlashBackEnd::new_op() {
  if (free_ops_.empty()) {
    ops_.push_back(std::make_unique<Op>());
    return ops_.back().get();
  }
  Op* op = free_ops_.back();
  free_ops_.pop_back();
  return op;
}

uint32_t FlashBackEnd::read32(uint32_t offset, sc_core::sc_time&) {
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

void FlashBackEnd::write32(uint32_t offset, uint32_t value, sc_core::sc_time&) {
  if (offset == FCTL_FUNCTIONAL) {
    functional_ = value & 1u;
    return;
  }
  const uint32_t bank = offset / FCTL_BANK_STRIDE, reg = offset % FCTL_BANK_STRIDE;
  if (bank >= banks_.size()) return;
  Bank& k = banks_[bank];
  if (set_fctl_ring_register(k, reg, value)) return;
  if (reg == FCTL_SUB_TAIL) {
    k.sub_tail = value;
    take(bank);
  }
}

// Each new descriptor becomes a device command (sent by launch), or is answered at once.
void FlashBackEnd::take(uint32_t bank) {
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
    std::string why;
    if (!encode(op, why)) {
      report_fatal("host FTL: a flash descriptor outside the " + std::string(device_name()) + " device (" + why + ")");
      post(bank, d.tag, SSD_FST_BAD_DESC, kNoInterrupt);
      release(op);
      continue;
    }
    if (d.opcode != SSD_FOP_ERASE) {
      if ((d.flags & SSD_FDF_PAYLOAD) && !payload_) {
        report_fatal("host FTL: the FTL stores a metadata page (a demand-based map's) that needs whole payloads: "
                     "a host FTL runs with ftl.mapping = \"opt\" (its map in host memory)");
        post(bank, d.tag, SSD_FST_BAD_DESC, kNoInterrupt);
        release(op);
        continue;
      }
      const uint32_t n = uint32_t(op->lbas.size());
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
      op->cmd.payload = payload_ ? op->payload.data() : nullptr;
    }
    if (functional_) functional(op);
    else if (!(d.opcode == SSD_FOP_READ && answer_locally(op))) {
      sending(op);
      to_launch_.push_back(op);
    }
  }
}

// The format's factory scan: a block's first unit read as the device reported it at boot.
void FlashBackEnd::functional(Op* op) {
  if (op->d.opcode != SSD_FOP_READ) {
    report_fatal("host FTL: a program or erase in functional mode (a host FTL is not preconditioned)");
    post(op->bank, op->d.tag, SSD_FST_BAD_DESC, kNoInterrupt);
    release(op);
    return;
  }
  const bool bad = factory_bad(op->d);
  for (uint32_t i = 0; i < op->sectors.size(); i++) {
    const ssd_oob o = bad ? ssd_oob{0, 0} : ssd_oob{0xFFFFFFFFu, 0xFFFFFFFFu};
    if (op->d.oob_addr) *mem_.as<ssd_oob>(op->d.oob_addr + i * uint32_t(sizeof(ssd_oob))) = o;
    std::memset(mem_.tag(op->sectors[i]), bad ? 0 : 0xFF, sizeof(ssd_sector_tag));
  }
  post(op->bank, op->d.tag, SSD_FST_OK, kNoInterrupt);
  release(op);
}

FlashBackEnd::Built FlashBackEnd::take_built() {
  Built b;
  b.swap(to_launch_);
  return b;
}

void FlashBackEnd::launch(const Built& ops, uint16_t queue, sc_core::sc_time delay, uint32_t cpu) {
  for (Op* op : ops) {
    op->cmd.queue = queue;
    op->cpu = cpu;
    if (op->d.opcode == SSD_FOP_PROGRAM) {
      counts_.writes++;
      counts_.lbas_written += op->cmd.nsect;
    } else if (op->d.opcode == SSD_FOP_READ) {
      counts_.reads++;
      counts_.lbas_read += op->cmd.nsect;
    } else {
      counts_.resets++;
    }
    submit(op, delay, [this, op](uint16_t status) { done(op, status); });
  }
}

void FlashBackEnd::done(Op* op, uint16_t status) {
  const ssd_flash_desc& d = op->d;
  const uint16_t st = flash_status(op, status);
  if (st == 0xFFFF) {
    std::ostringstream s;
    s << "host FTL: the " << device_name() << " device answered a "
      << (d.opcode == SSD_FOP_READ ? "read" : d.opcode == SSD_FOP_PROGRAM ? "write" : "reset") << " of LBA 0x" << std::hex
      << (op->lbas.empty() ? 0 : op->lbas[0]) << " (channel " << std::dec << unsigned(d.channel) << ", way "
      << unsigned(d.way) << ", block " << d.block << ") with status 0x" << std::hex << status << " (an FTL bug)";
    report_fatal(s.str());
    post(op->bank, d.tag, SSD_FST_BAD_DESC, op->cpu);
    release(op);
    return;
  }
  if (d.opcode == SSD_FOP_READ && (st == SSD_FST_OK || st == SSD_FST_UNCORRECTABLE))
    for (uint32_t i = 0; i < op->sectors.size(); i++) {
      std::memcpy(mem_.tag(op->sectors[i]), &op->tags[i], sizeof(ssd_sector_tag));
      if (d.oob_addr) *mem_.as<ssd_oob>(d.oob_addr + i * uint32_t(sizeof(ssd_oob))) = op->meta[i];
      if (payload_) std::memcpy(mem_.at(op->sectors[i], 4096), &op->payload[size_t(i) * 4096], 4096);
    }
  post(op->bank, d.tag, st, op->cpu);
  release(op);
}

void FlashBackEnd::post(uint32_t bank, uint32_t tag, uint16_t status, uint32_t cpu) {
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
