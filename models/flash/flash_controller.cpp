#include "models/flash/flash_controller.h"

#include "models/flash/fctl_ring_registers.h"

#include <algorithm>
#include <cstring>
#include <sstream>

#include "models/common/bit_count.h"
#include "models/common/fatal.h"
#include "models/common/sim_time.h"
#include "models/cpu/sysctl.h"
#include "models/dram/dram.h"
#include "models/nand/die.h"

namespace ssdvp {

using sc_core::sc_time;

FlashController::FlashController(sc_core::sc_module_name name, const FctlParams& p,
                                 const NandParams& nand, Dram& dram, SysCtl& irq,
                                 std::vector<nand::Die*> dies, uint32_t geometry_addr, bool payload,
                                 EventQueue& events)
    : MmioDevice(name),
      p_(p),
      nand_(nand),
      dram_(dram),
      irq_(irq),
      dies_(std::move(dies)),
      channels_(nand.channels, nullptr),
      payload_(payload),
      events_(events),
      banks_(irq.cores()),
      geometry_addr_(geometry_addr) {}

void FlashController::attach_channel(uint32_t channel, ChannelIf* ch) {
  channels_.at(channel) = ch;
  ch->on_done([this](FlashOp* op) { post(op); });
}

FlashOp* FlashController::alloc_op() {
  if (free_ops_.empty()) {
    pool_.push_back(std::make_unique<FlashOp>());
    return pool_.back().get();
  }
  FlashOp* op = free_ops_.back();
  free_ops_.pop_back();
  return op;
}

uint32_t FlashController::read32(uint32_t offset, sc_time&) {
  const uint32_t bank = offset / FCTL_BANK_STRIDE, reg = offset % FCTL_BANK_STRIDE;
  if (reg == FCTL_FUNCTIONAL) return functional_;
  if (reg == FCTL_GEOMETRY_ADDR) return geometry_addr_;
  if (bank >= banks_.size()) return 0;
  const Bank& k = banks_[bank];
  switch (reg) {
    case FCTL_SUB_RING_ADDR: return k.sub_addr;
    case FCTL_SUB_RING_SIZE: return k.sub_size;
    case FCTL_SUB_TAIL: return k.sub_tail;
    case FCTL_SUB_HEAD: return k.sub_head;
    case FCTL_CPL_RING_ADDR: return k.cpl_addr;
    case FCTL_CPL_RING_SIZE: return k.cpl_size;
    case FCTL_CPL_HEAD: return k.cpl_head;
    default: return 0;
  }
}

void FlashController::write32(uint32_t offset, uint32_t value, sc_time& delay) {
  const uint32_t bank = offset / FCTL_BANK_STRIDE, reg = offset % FCTL_BANK_STRIDE;
  if (reg == FCTL_FUNCTIONAL) {
    functional_ = value & 1u;
    return;
  }
  if (bank >= banks_.size()) return;
  Bank& k = banks_[bank];
  if (set_fctl_ring_register(k, reg, value)) return;
  switch (reg) {
    case FCTL_SUB_TAIL: {
      k.sub_tail = value;
      if (k.sub_size == 0 || (k.sub_size & (k.sub_size - 1u)) || k.cpl_size == 0 || (k.cpl_size & (k.cpl_size - 1u))) {
        report_fatal("flash controller: doorbell of core " + std::to_string(bank) +
                     " before its rings are set up (sizes must be powers of two)");
        return;
      }
      if (functional_) fetch(bank, sc_core::sc_time_stamp() + delay);
      else {
        const sc_time at = sc_core::sc_time_stamp() + delay;
        events_.at(at, [this, bank, at] { fetch(bank, at); });
      }
      break;
    }
    default: break;
  }
}

uint32_t FlashController::plane_index(const FlashOp& op, uint32_t plane) const {
  return bit_count(op.desc.plane_mask & ((1u << plane) - 1u));
}

bool FlashController::decode(const ssd_flash_desc& d, FlashOp& op) {
  op.desc = d;
  op.status = SSD_FST_OK;
  op.sector_addrs.clear();
  std::string err;
  const uint32_t planes = bit_count(d.plane_mask);
  auto num = [](uint64_t v) { return std::to_string(v); };
  if (d.opcode < SSD_FOP_READ || d.opcode > SSD_FOP_ERASE) err = "unknown opcode " + num(d.opcode);
  else if (d.channel >= nand_.channels) err = "channel " + num(d.channel) + " out of range";
  else if (d.way >= nand_.ways) err = "way " + num(d.way) + " out of range";
  else if (d.plane_mask == 0 || (d.plane_mask >> nand_.planes)) err = "plane mask " + num(d.plane_mask) + " out of range";
  else if (d.block >= nand_.blocks_of(d.way * nand_.channels + d.channel)) err = "block " + num(d.block) + " out of range";
  else if (d.opcode == SSD_FOP_READ && (d.nsect == 0 || d.sect_off + d.nsect > nand_.sectors_per_page))
    err = "read of sectors " + num(d.sect_off) + "+" + num(d.nsect) + " outside the page";
  else if (d.opcode == SSD_FOP_PROGRAM && d.nsect != nand_.sectors_per_page)
    err = "program of " + num(d.nsect) + " sectors (a page has " + num(nand_.sectors_per_page) + ")";
  if (err.empty() && d.opcode != SSD_FOP_ERASE) {
    const uint32_t n = planes * d.nsect;
    try {
      const bool sgl = d.flags & SSD_FDF_SGL;
      const uint32_t* list = sgl ? reinterpret_cast<const uint32_t*>(dram_.at(d.dram_addr, 4ull * n)) : nullptr;
      for (uint32_t i = 0; i < n; i++) {
        uint32_t a = sgl ? list[i] : d.dram_addr + i * 4096u;
        dram_.at(a, payload_ || (d.flags & SSD_FDF_PAYLOAD) ? 4096 : sizeof(ssd_sector_tag));
        op.sector_addrs.push_back(a);
      }
      if (d.oob_addr) dram_.at(d.oob_addr, sizeof(ssd_oob) * n);
    } catch (const std::out_of_range& e) {
      err = e.what();
    }
  }
  if (!err.empty()) {
    report_fatal("flash controller: bad descriptor (firmware bug), tag " + num(d.tag) + ": " + err);
    op.status = SSD_FST_BAD_DESC;
    return false;
  }
  return true;
}

void FlashController::fetch(uint32_t bank, sc_time at) {
  Bank& k = banks_[bank];
  bool completed = false;   // functional: the ring's interrupt, once for the whole batch
  while (k.sub_head != k.sub_tail) {
    const ssd_flash_desc d = *dram_.as<ssd_flash_desc>(k.sub_addr + (k.sub_head & (k.sub_size - 1u)) * sizeof(ssd_flash_desc));
    k.sub_head++;
    FlashOp* op = alloc_op();
    op->id = next_id_++;
    op->bank = bank;
    op->t_array = op->t_array_end = sc_core::SC_ZERO_TIME;
    const bool ok = decode(d, *op);
    if (functional_) {
      if (ok) execute_functional(*op);
      op->t_done = at;
      completed = write_completion(*op, false) || completed;
      free_op(op);
      continue;
    }
    decode_free_ = std::max(decode_free_, at) + p_.desc;
    op->t_submit = decode_free_;
    in_flight_[reason_of(op->desc)]++;
    if (!ok) {
      op->t_done = decode_free_;
      post(op);
      continue;
    }
    channels_[d.channel]->submit(op);
  }
  // No firmware runs between the batch's completions (they are written inside its doorbell
  // write), so one interrupt at the same moment is what the firmware sees of one per entry.
  if (completed) irq_.raise(SSD_IRQ_FCTL, bank);
}

void FlashController::execute_functional(FlashOp& op) {
  const ssd_flash_desc& d = op.desc;
  nand::Die& die = *dies_[d.way * nand_.channels + d.channel];
  const auto kind = d.opcode == SSD_FOP_READ ? nand::ArrayOp::Read
                    : d.opcode == SSD_FOP_PROGRAM ? nand::ArrayOp::Program
                                                  : nand::ArrayOp::Erase;
  try {
    die.functional(kind, d.plane_mask, d.block, d.page, [&](uint32_t plane) {
      if (kind == nand::ArrayOp::Program) to_die(op, die, plane, sc_core::SC_ZERO_TIME);
    }, [&](uint32_t plane) {
      if (kind == nand::ArrayOp::Read) from_die(op, die, plane, sc_core::SC_ZERO_TIME);
    }, d.flags & SSD_FDF_SLC_MODE);
    if (kind != nand::ArrayOp::Read && die.last_failed())
      op.status = kind == nand::ArrayOp::Program ? SSD_FST_PROGRAM_FAIL : SSD_FST_ERASE_FAIL;
  } catch (const nand::RuleViolation& e) {
    report_fatal(e.what());
    op.status = SSD_FST_BAD_DESC;
  }
}

bool FlashController::tag_in_data_bytes(uint32_t flags) const {
  return !dram_.tags_apart() || (flags & SSD_FDF_PAYLOAD) || functional_;
}

sc_time FlashController::to_die(FlashOp& op, nand::Die& die, uint32_t plane, sc_time start) {
  const uint32_t spp = die.sectors_per_page();
  const uint32_t k = plane_index(op, plane);
  nand::Sector* reg = die.page_register(plane);
  // Preconditioning with the host's own bytes: its sectors are zeros (no bytes move).
  const bool zeros = functional_ && dram_.tags_apart() && !(op.desc.flags & SSD_FDF_PAYLOAD);
  if (zeros) die.zero_payload_register(plane);
  uint8_t* payload = zeros ? nullptr : die.payload_register(plane, op.desc.flags & SSD_FDF_PAYLOAD);
  const bool tag_in_data = tag_in_data_bytes(op.desc.flags);
  for (uint32_t s = 0; s < spp; s++) {
    const uint32_t addr = op.sector_addrs[k * spp + s];
    std::memcpy(&reg[s].tag, tag_in_data ? static_cast<const void*>(dram_.at(addr, sizeof(ssd_sector_tag)))
                            : static_cast<const void*>(dram_.tag(addr)),
                sizeof(ssd_sector_tag));
    if (op.desc.oob_addr)
      reg[s].oob = *dram_.as<ssd_oob>(op.desc.oob_addr + (k * spp + s) * uint32_t(sizeof(ssd_oob)));
    else
      reg[s].oob = ssd_oob{0xFFFFFFFFu, 0xFFFFFFFFu};
    if (payload) std::memcpy(payload + size_t(s) * 4096, dram_.at(addr, 4096), 4096);
  }
  if (start == sc_core::SC_ZERO_TIME && functional_) return start;
  return dram_.transfer(start, uint64_t(spp) * 4096);
}

sc_time FlashController::from_die(FlashOp& op, nand::Die& die, uint32_t plane, sc_time start) {
  const ssd_flash_desc& d = op.desc;
  const uint32_t k = plane_index(op, plane);
  const nand::Sector* reg = die.page_register(plane);
  // (Preconditioning with the host's own bytes moves no bytes: see to_die.)
  const bool zeros = functional_ && dram_.tags_apart() && !(d.flags & SSD_FDF_PAYLOAD);
  const uint8_t* payload = zeros ? nullptr : die.payload_register(plane, d.flags & SSD_FDF_PAYLOAD);
  for (uint32_t i = 0; i < d.nsect; i++) {
    const uint32_t s = d.sect_off + i;
    const uint32_t addr = op.sector_addrs[k * d.nsect + i];
    if (!dram_.tags_apart()) {   // the tag is the data's first 8 bytes (payloads, if any, hold it)
      std::memcpy(dram_.at(addr, sizeof(ssd_sector_tag)), &reg[s].tag, sizeof(ssd_sector_tag));
      if (payload) std::memcpy(dram_.at(addr, 4096), payload + size_t(s) * 4096, 4096);
    } else {                     // the host's bytes, the tag beside them (and in them for metadata)
      if (payload) std::memcpy(dram_.at(addr, 4096), payload + size_t(s) * 4096, 4096);
      std::memcpy(dram_.tag(addr), &reg[s].tag, sizeof(ssd_sector_tag));
      if (tag_in_data_bytes(d.flags)) std::memcpy(dram_.at(addr, sizeof(ssd_sector_tag)), &reg[s].tag, sizeof(ssd_sector_tag));
    }
    if (d.oob_addr) *dram_.as<ssd_oob>(d.oob_addr + (k * d.nsect + i) * uint32_t(sizeof(ssd_oob))) = reg[s].oob;
    const nand::SectorStatus& st = die.read_status(plane, s);
    if (st.uncorrectable) {
      op.status = SSD_FST_UNCORRECTABLE;
      uncorrectable_sectors_++;
    } else if (st.corrected && op.status == SSD_FST_OK) op.status = SSD_FST_ECC_CORRECTED;
  }
  if (start == sc_core::SC_ZERO_TIME && functional_) return start;
  return dram_.transfer(start, uint64_t(d.nsect) * 4096);
}

void FlashController::post(FlashOp* op) {
  // Completions due at the same time enter the ring in submission order, whichever channel
  // model reported them first.
  events_.at(op->t_done + p_.cpl, [this, op] {
    in_flight_[reason_of(op->desc)]--;
    write_completion(*op);
    if (observer) observer(*op);
    free_op(op);
  }, op->id + 1);
}

bool FlashController::write_completion(const FlashOp& op, bool raise) {
  Bank& k = banks_[op.bank];
  if (op.status == SSD_FST_ECC_CORRECTED) corrected_reads_++;
  if (k.cpl_tail - k.cpl_head >= k.cpl_size) {
    report_fatal("flash controller: completion ring of core " + std::to_string(op.bank) +
                 " overflows (firmware has more operations in flight than ring entries)");
    return false;
  }
  auto* c = dram_.as<ssd_flash_cpl>(k.cpl_addr + (k.cpl_tail & (k.cpl_size - 1u)) * sizeof(ssd_flash_cpl));
  const uint64_t t_ns = uint64_t(seconds_of(op.t_done) * 1e9 + 0.5);
  c->tag = op.desc.tag;
  c->status = op.status;
  c->t_done_lo = uint32_t(t_ns);
  c->t_done_hi = uint32_t(t_ns >> 32);
  c->phase = uint16_t(k.cpl_phase);  // written last: the firmware polls it
  if (++k.cpl_tail % k.cpl_size == 0) k.cpl_phase ^= 1u;
  if (raise) irq_.raise(SSD_IRQ_FCTL, op.bank);
  return true;
}

std::vector<uint32_t> FlashController::ring_state() const {
  std::vector<uint32_t> w;
  for (const Bank& k : banks_)
    w.insert(w.end(), {k.sub_addr, k.sub_size, k.sub_head, k.sub_tail, k.cpl_addr, k.cpl_size, k.cpl_tail, k.cpl_head,
                       k.cpl_phase});
  return w;
}

void FlashController::restore_ring_state(const std::vector<uint32_t>& w) {
  constexpr size_t kWords = 9;
  if (w.size() != banks_.size() * kWords)
    throw std::runtime_error("flash controller ring state: " + std::to_string(w.size()) + " words for " +
                             std::to_string(banks_.size()) + " core banks");
  for (size_t b = 0; b < banks_.size(); b++) {
    const uint32_t* v = &w[b * kWords];
    banks_[b] = Bank{v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]};
  }
}

}  // namespace ssdvp
