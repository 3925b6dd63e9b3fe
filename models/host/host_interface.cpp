#include "models/host/host_interface.h"

#include <algorithm>
#include <cstring>

#include "models/common/fatal.h"
#include "models/cpu/sysctl.h"
#include "models/dram/dram.h"
#include "models/host/hif_dma_check.h"
#include "models/host/hif_ring_registers.h"

namespace ssdvp {

using sc_core::sc_time;

namespace {
constexpr uint32_t kSqeBytes = 64, kCqeBytes = 16, kDoorbellBytes = 4;
}

HostInterface::HostInterface(sc_core::sc_module_name name, const HostParams& p, Dram& dram,
                             SysCtl& irq, bool payload, EventQueue& events)
    : MmioDevice(name),
      p_(p),
      dram_(dram),
      irq_(irq),
      payload_(payload),
      link_(p),
      events_(events),
      sq_(p.queues),
      queue_commands_(p.queues, 0),
      slots_(SSD_HOST_SLOTS),
      banks_(irq.cores()) {
  for (uint32_t s = SSD_HOST_SLOTS; s-- > 0;) free_slots_.push_back(uint16_t(s));
}

void HostInterface::submit(HostCommand* cmd) { sq_.at(cmd->queue).push_back(cmd); }

void HostInterface::ring_doorbell(uint16_t queue, sc_time delay) {
  const sc_time arrive = link_.send(PcieLink::HostToDevice, sc_core::sc_time_stamp() + delay, kDoorbellBytes);
  // Everything on the queue at the time of the doorbell belongs to it.
  const uint32_t b = take_batch();
  batches_[b].assign(sq_[queue].begin(), sq_[queue].end());
  sq_[queue].clear();
  events_.at(arrive, [this, b] {
    fetch_queue_.insert(fetch_queue_.end(), batches_[b].begin(), batches_[b].end());
    free_batches_.push_back(b);
    fetch();
  });
}

uint32_t HostInterface::take_batch() {
  if (free_batches_.empty()) {
    batches_.emplace_back();
    return uint32_t(batches_.size() - 1);
  }
  const uint32_t b = free_batches_.back();
  free_batches_.pop_back();
  return b;
}

uint32_t HostInterface::take_job() {
  if (free_jobs_.empty()) {
    jobs_.emplace_back();
    return uint32_t(jobs_.size() - 1);
  }
  const uint32_t j = free_jobs_.back();
  free_jobs_.pop_back();
  return j;
}

// Fetches as many waiting commands as there are free slots, in one link transfer.
void HostInterface::fetch() {
  if (!enabled_) return;
  const uint32_t b = take_batch();
  std::vector<HostCommand*>& batch = batches_[b];
  batch.clear();
  // In doorbell order; a command whose core's ring is full holds back those behind it.
  while (!fetch_queue_.empty() && !free_slots_.empty()) {
    HostCommand* c = fetch_queue_.front();
    Bank& k = banks_[core_of_queue(c->queue)];
    if (k.cmd_tail + k.in_transit - k.cmd_head >= k.cmd_size) break;
    k.in_transit++;
    fetch_queue_.pop_front();
    const uint16_t slot = free_slots_.back();
    free_slots_.pop_back();
    slots_[slot] = Slot{c, false};
    c->user = (c->user & ~0xFFFFull) | slot;   // low 16 bits: the slot while in the controller
    batch.push_back(c);
  }
  if (batch.empty()) {
    free_batches_.push_back(b);
    return;
  }
  uint64_t bytes = uint64_t(batch.size()) * kSqeBytes;
  for (const HostCommand* c : batch)   // the vector commands' LBA lists come with them
    if (c->lba_list && lba_list_addr_) bytes += 8ull * std::min<uint32_t>(c->nsect, SSD_OC_MAX_LBAS);
  const sc_time arrive = link_.device_read(sc_core::sc_time_stamp(), bytes);
  events_.at(arrive, [this, b] {
    deliver(batches_[b]);
    free_batches_.push_back(b);
  });
}

void HostInterface::deliver(const std::vector<HostCommand*>& cmds) {
  uint32_t raised = 0;   // cores whose rings got commands
  for (HostCommand* c : cmds) {
    const uint32_t core = core_of_queue(c->queue);
    Bank& k = banks_[core];
    auto* e = dram_.as<ssd_host_cmd>(k.cmd_addr + (k.cmd_tail & (k.cmd_size - 1u)) * sizeof(ssd_host_cmd));
    e->slot = uint16_t(c->user & 0xFFFF);
    e->opcode = c->opcode;
    e->queue = uint8_t(c->queue);
    queue_commands_[c->queue]++;
    e->nsect = c->nsect;
    e->lba_lo = uint32_t(c->lba);
    e->lba_hi = uint32_t(c->lba >> 32);
    std::memcpy(e->cdw, c->cdw, sizeof(e->cdw));
    if (lba_list_addr_ && c->opcode >= SSD_HOP_OC_RESET && c->opcode <= SSD_HOP_OC_READ) copy_lba_list(c, e->slot);
    k.cmd_tail++;
    k.in_transit--;
    if (k.cmd_tail_shadow) *dram_.as<uint32_t>(k.cmd_tail_shadow) = k.cmd_tail;
    raised |= 1u << core;
  }
  for (uint32_t core = 0; raised; core++, raised >>= 1)
    if (raised & 1u) irq_.raise(SSD_IRQ_HIF, core);
}

// A vector command's LBAs into its slot's list (the one inline LBA, or the host's list).
void HostInterface::copy_lba_list(const HostCommand* c, uint16_t slot) {
  const uint32_t n = c->lba_list ? std::min<uint32_t>(c->nsect, SSD_OC_MAX_LBAS) : 1u;
  try {
    auto* list = reinterpret_cast<uint64_t*>(dram_.at(lba_list_addr_ + uint64_t(slot) * SSD_OC_MAX_LBAS * 8u, 8ull * n));
    if (c->lba_list) std::memcpy(list, c->lba_list, 8ull * n);
    else list[0] = c->lba;
  } catch (const std::out_of_range& e) {
    report_fatal(std::string("host interface: HIF_LBA_LIST_ADDR is not in DRAM (firmware bug): ") + e.what());
  }
}

uint32_t HostInterface::read32(uint32_t offset, sc_time&) {
  if (offset == HIF_LBA_LIST_ADDR) return lba_list_addr_;
  const uint32_t bank = offset / HIF_BANK_STRIDE, reg = offset % HIF_BANK_STRIDE;
  if (reg == HIF_ENABLE) return enabled_;
  if (reg == HIF_NSECTORS_LO) return uint32_t(nsectors_);
  if (reg == HIF_NSECTORS_HI) return uint32_t(nsectors_ >> 32);
  if (bank >= banks_.size()) return 0;
  const Bank& k = banks_[bank];
  switch (reg) {
    case HIF_CMD_RING_ADDR: return k.cmd_addr;
    case HIF_CMD_RING_SIZE: return k.cmd_size;
    case HIF_CMD_TAIL: return k.cmd_tail;
    case HIF_CMD_HEAD: return k.cmd_head;
    case HIF_DMA_RING_ADDR: return k.dma_addr;
    case HIF_DMA_RING_SIZE: return k.dma_size;
    case HIF_DMA_TAIL: return k.dma_tail;
    case HIF_DMA_HEAD: return k.dma_head;
    case HIF_DONE_RING_ADDR: return k.done_addr;
    case HIF_DONE_RING_SIZE: return k.done_size;
    case HIF_DONE_HEAD: return k.done_head;
    case HIF_CMD_TAIL_SHADOW: return k.cmd_tail_shadow;
    case HIF_DONE_IRQ_ALL: return k.done_irq_all;
    default: return 0;
  }
}

void HostInterface::write32(uint32_t offset, uint32_t value, sc_time& delay) {
  if (offset == HIF_LBA_LIST_ADDR) {
    lba_list_addr_ = value;
    return;
  }
  const uint32_t bank = offset / HIF_BANK_STRIDE, reg = offset % HIF_BANK_STRIDE;
  switch (reg) {
    case HIF_NSECTORS_LO: nsectors_ = (nsectors_ & ~0xFFFFFFFFull) | value; return;
    case HIF_NSECTORS_HI: nsectors_ = (nsectors_ & 0xFFFFFFFFull) | (uint64_t(value) << 32); return;
    case HIF_ENABLE: {
      const bool was = enabled_;
      enabled_ = value & 1u;
      for (const Bank& k : banks_)
        for (uint32_t s : {k.cmd_size, k.dma_size, k.done_size})
          if (enabled_ && (s == 0 || (s & (s - 1u)))) {
            report_fatal("host interface: enabled before every core's rings are set up (sizes must be powers of two)");
            return;
          }
      if (enabled_ && !was) {
        ready_.notify(delay);
        events_.at(sc_core::sc_time_stamp() + delay, [this] { fetch(); });
      }
      return;
    }
    default: break;
  }
  if (bank >= banks_.size()) return;
  Bank& k = banks_[bank];
  if (set_hif_ring_register(k, reg, value)) return;
  switch (reg) {
    case HIF_CMD_HEAD: {
      const sc_time at = sc_core::sc_time_stamp() + delay;
      events_.at(at, [this, bank, value] { banks_[bank].cmd_head = value; fetch(); });
      break;
    }
    case HIF_CMD_TAIL_SHADOW:
      k.cmd_tail_shadow = value;
      if (value) *dram_.as<uint32_t>(value) = k.cmd_tail;
      break;
    case HIF_DMA_TAIL: {
      k.dma_tail = value;
      const sc_time at = sc_core::sc_time_stamp() + delay;
      events_.at(at, [this, bank, at] { run_dma(bank, at); });
      break;
    }
    default: break;
  }
}

void HostInterface::sector_list(const ssd_hif_dma& d, std::vector<uint32_t>& out) {
  out.resize(d.nsect);
  if (d.flags & SSD_DMAF_SGL) {
    const uint32_t* l = reinterpret_cast<const uint32_t*>(dram_.at(d.dram_addr, 4ull * d.nsect));
    std::copy(l, l + d.nsect, out.begin());
  } else {
    for (uint32_t i = 0; i < d.nsect; i++) out[i] = d.dram_addr + i * 4096u;
  }
  for (uint32_t a : out) dram_.at(a, payload_ || (d.flags & SSD_DMAF_BYTES) ? 4096 : sizeof(ssd_sector_tag));
}

void HostInterface::run_dma(uint32_t bank, sc_time at) {
  Bank& k = banks_[bank];
  while (k.dma_head != k.dma_tail) {
    const ssd_hif_dma d = *dram_.as<ssd_hif_dma>(k.dma_addr + (k.dma_head & (k.dma_size - 1u)) * sizeof(ssd_hif_dma));
    k.dma_head++;
    HostCommand* c = d.slot < SSD_HOST_SLOTS ? slots_[d.slot].cmd : nullptr;
    const uint32_t j = take_job();
    DmaJob& job = jobs_[j];
    job.d = d;
    job.bank = bank;
    job.c = c;
    job.sectors.clear();
    HifSlotState state;
    if (c) state = HifSlotState{true, c->nsect, slots_[d.slot].completion_posted};
    std::string err = hif_dma_problem(d, state);
    if (err.empty() && d.dir != SSD_DMA_NONE) {
      try {
        sector_list(d, job.sectors);
      } catch (const std::out_of_range& e) {
        err = e.what();
      }
    }
    if (!err.empty()) {
      free_jobs_.push_back(j);
      report_fatal("host interface: bad DMA descriptor (firmware bug): " + err);
      return;
    }
    if ((d.flags & SSD_DMAF_BYTES) && d.dir != SSD_DMA_NONE && !c->payload) {
      free_jobs_.push_back(j);
      report_fatal("host interface: opcode " + std::to_string(c->opcode) +
                   " moves control data, but the host gave it no byte buffer (host bug)");
      return;
    }
    if (d.flags & SSD_DMAF_COMPLETE) slots_[d.slot].completion_posted = true;
    const uint64_t bytes = uint64_t(d.nsect) * (4096 + ((d.flags & SSD_DMAF_META) ? sizeof(ssd_oob) : 0));
    sc_time data_done = at;
    if (d.dir == SSD_DMA_TO_HOST) {
      data_done = std::max(dram_.transfer(at, bytes), link_.send(PcieLink::DeviceToHost, at, bytes));
    } else if (d.dir == SSD_DMA_FROM_HOST) {
      const sc_time arrive = link_.device_read(at, bytes);
      data_done = std::max(arrive, dram_.transfer(at + link_.latency(), bytes));
    }
    events_.at(data_done, [this, j] { finish_dma(j); });
  }
}

// A DMA's data has moved: copy it, then complete the host command and/or tell the firmware.
void HostInterface::finish_dma(uint32_t j) {
  const DmaJob& job = jobs_[j];
  const ssd_hif_dma& d = job.d;
  HostCommand* c = job.c;
  for (uint32_t i = 0; i < d.nsect && d.dir != SSD_DMA_NONE; i++) {
    const uint32_t s = d.sect_off + i;
    // The tag is the sector's first 8 bytes (with payloads it is copied last so the two agree),
    // or with the host's own bytes it travels beside them (Dram::tag); control data has none.
    ssd_sector_tag* tag = (d.flags & SSD_DMAF_BYTES) ? reinterpret_cast<ssd_sector_tag*>(dram_.at(job.sectors[i], 8))
                                                     : dram_.tag(job.sectors[i]);
    if (d.dir == SSD_DMA_TO_HOST) {
      if (c->payload) std::memcpy(c->payload + size_t(s) * 4096, dram_.at(job.sectors[i], 4096), 4096);
      if (c->data) std::memcpy(&c->data[s], tag, sizeof(ssd_sector_tag));
    } else {
      if (c->payload) std::memcpy(dram_.at(job.sectors[i], 4096), c->payload + size_t(s) * 4096, 4096);
      std::memcpy(tag, &c->data[s], sizeof(ssd_sector_tag));
    }
  }
  if ((d.flags & SSD_DMAF_META) && c->meta && d.dir != SSD_DMA_NONE) {   // the LBAs' metadata with them
    try {
      auto* m = reinterpret_cast<ssd_oob*>(dram_.at(d.meta_addr, uint64_t(d.nsect) * sizeof(ssd_oob)));
      if (d.dir == SSD_DMA_TO_HOST) std::memcpy(c->meta + d.sect_off, m, d.nsect * sizeof(ssd_oob));
      else std::memcpy(m, c->meta + d.sect_off, d.nsect * sizeof(ssd_oob));
    } catch (const std::exception& e) {
      report_fatal(std::string("host interface: bad DMA descriptor (firmware bug): its metadata: ") + e.what());
      return;
    }
  }
  const uint8_t flags = d.flags;
  const uint16_t slot = d.slot, status = d.status, info = d.info;
  if ((flags & SSD_DMAF_COMPLETE) && status >> 8 == 2u) {   // the device's error log, an OC bitmap
    c->unreadable_listed = d.error_map != 0;
    if (d.error_map) {
      const uint32_t words = (c->nsect + 31) / 32;
      try {
        std::memcpy(c->unreadable, dram_.at(d.error_map, 4ull * words), 4ull * words);
      } catch (const std::exception& e) {
        report_fatal(std::string("host interface: bad DMA descriptor (firmware bug): its error map: ") + e.what());
        return;
      }
    }
  }
  if ((flags & SSD_DMAF_RESULT) && c) c->result = uint64_t(d.sect_off) | uint64_t(d.dram_addr) << 32;
  const uint32_t cookie = d.cookie, bank = job.bank;
  free_jobs_.push_back(j);
  if (flags & SSD_DMAF_COMPLETE) complete(slot, status, info, sc_core::sc_time_stamp());
  if (flags & SSD_DMAF_NOTIFY) notify_firmware(bank, cookie, SSD_ST_OK, (flags & SSD_DMAF_IRQ) || banks_[bank].done_irq_all);
}

void HostInterface::notify_firmware(uint32_t bank, uint32_t cookie, uint16_t status, bool irq) {
  Bank& k = banks_[bank];
  if (k.done_tail - k.done_head >= k.done_size) {
    report_fatal("host interface: DMA done ring of core " + std::to_string(bank) +
                 " overflows (firmware does not consume it)");
    return;
  }
  auto* e = dram_.as<ssd_hif_done>(k.done_addr + (k.done_tail & (k.done_size - 1u)) * sizeof(ssd_hif_done));
  e->cookie = cookie;
  e->status = status;
  e->phase = uint16_t(k.done_phase);
  if (++k.done_tail % k.done_size == 0) k.done_phase ^= 1u;
  if (irq) irq_.raise(SSD_IRQ_HIF, bank);
}

void HostInterface::complete(uint16_t slot, uint16_t status, uint16_t info, sc_time at) {
  HostCommand* c = slots_[slot].cmd;
  slots_[slot] = Slot{};
  free_slots_.push_back(slot);
  c->status = status;
  c->info = info;
  const sc_time seen = link_.send(PcieLink::DeviceToHost, at, kCqeBytes) + p_.irq;   // (0 with a modelled stack: HostIoStack)
  events_.at(seen, [this, c] {
    c->t_complete = sc_core::sc_time_stamp();
    if (on_complete) on_complete(c);
  });
  fetch();
}

std::vector<uint32_t> HostInterface::ring_state() const {
  std::vector<uint32_t> w;
  for (const Bank& k : banks_)
    w.insert(w.end(), {k.cmd_addr, k.cmd_size, k.cmd_tail, k.cmd_head, k.cmd_tail_shadow, k.in_transit, k.dma_addr,
                       k.dma_size, k.dma_tail, k.dma_head, k.done_addr, k.done_size, k.done_tail, k.done_head,
                       k.done_phase, uint32_t(k.done_irq_all)});
  return w;
}

void HostInterface::restore_ring_state(const std::vector<uint32_t>& w) {
  constexpr size_t kWords = 16;
  if (w.size() != banks_.size() * kWords)
    throw std::runtime_error("host interface ring state: " + std::to_string(w.size()) + " words for " +
                             std::to_string(banks_.size()) + " core banks");
  for (size_t b = 0; b < banks_.size(); b++) {
    const uint32_t* v = &w[b * kWords];
    Bank& k = banks_[b];
    k = Bank{v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12], v[13], v[14], v[15] != 0};
  }
}

}  // namespace ssdvp
