#include "models/host/host_interface.h"

#include <algorithm>
#include <cstring>

#include "models/common/fatal.h"
#include "models/cpu/sysctl.h"
#include "models/dram/dram.h"

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
      slots_(SSD_HOST_SLOTS) {
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
  while (!fetch_queue_.empty() && !free_slots_.empty() &&
         cmd_tail_ + in_transit_ + batch.size() - cmd_head_ < cmd_size_) {
    HostCommand* c = fetch_queue_.front();
    fetch_queue_.pop_front();
    const uint16_t slot = free_slots_.back();
    free_slots_.pop_back();
    slots_[slot].cmd = c;
    c->user = (c->user & ~0xFFFFull) | slot;   // low 16 bits: the slot while in the controller
    batch.push_back(c);
  }
  if (batch.empty()) {
    free_batches_.push_back(b);
    return;
  }
  in_transit_ += uint32_t(batch.size());
  const sc_time arrive = link_.device_read(sc_core::sc_time_stamp(), uint64_t(batch.size()) * kSqeBytes);
  events_.at(arrive, [this, b] {
    deliver(batches_[b]);
    free_batches_.push_back(b);
  });
}

void HostInterface::deliver(const std::vector<HostCommand*>& cmds) {
  for (HostCommand* c : cmds) {
    auto* e = dram_.as<ssd_host_cmd>(cmd_addr_ + (cmd_tail_ & (cmd_size_ - 1u)) * sizeof(ssd_host_cmd));
    e->slot = uint16_t(c->user & 0xFFFF);
    e->opcode = c->opcode;
    e->queue = uint8_t(c->queue);
    queue_commands_[c->queue]++;
    e->nsect = c->nsect;
    e->lba_lo = uint32_t(c->lba);
    e->lba_hi = uint32_t(c->lba >> 32);
    std::memcpy(e->cdw, c->cdw, sizeof(e->cdw));
    cmd_tail_++;
  }
  in_transit_ -= uint32_t(cmds.size());
  if (cmd_tail_shadow_) *dram_.as<uint32_t>(cmd_tail_shadow_) = cmd_tail_;
  irq_.raise(SSD_IRQ_HIF);
}

uint32_t HostInterface::read32(uint32_t offset, sc_time&) {
  switch (offset) {
    case HIF_CMD_RING_ADDR: return cmd_addr_;
    case HIF_CMD_RING_SIZE: return cmd_size_;
    case HIF_CMD_TAIL: return cmd_tail_;
    case HIF_CMD_HEAD: return cmd_head_;
    case HIF_DMA_RING_ADDR: return dma_addr_;
    case HIF_DMA_RING_SIZE: return dma_size_;
    case HIF_DMA_TAIL: return dma_tail_;
    case HIF_DMA_HEAD: return dma_head_;
    case HIF_DONE_RING_ADDR: return done_addr_;
    case HIF_DONE_RING_SIZE: return done_size_;
    case HIF_DONE_HEAD: return done_head_;
    case HIF_ENABLE: return enabled_;
    case HIF_NSECTORS_LO: return uint32_t(nsectors_);
    case HIF_NSECTORS_HI: return uint32_t(nsectors_ >> 32);
    case HIF_CMD_TAIL_SHADOW: return cmd_tail_shadow_;
    case HIF_DONE_IRQ_ALL: return done_irq_all_;
    default: return 0;
  }
}

void HostInterface::write32(uint32_t offset, uint32_t value, sc_time& delay) {
  switch (offset) {
    case HIF_CMD_RING_ADDR: cmd_addr_ = value; break;
    case HIF_CMD_RING_SIZE: cmd_size_ = value; break;
    case HIF_CMD_HEAD: {
      const sc_time at = sc_core::sc_time_stamp() + delay;
      events_.at(at, [this, value] { cmd_head_ = value; fetch(); });
      break;
    }
    case HIF_DMA_RING_ADDR: dma_addr_ = value; break;
    case HIF_DMA_RING_SIZE: dma_size_ = value; break;
    case HIF_DONE_RING_ADDR: done_addr_ = value; break;
    case HIF_DONE_RING_SIZE: done_size_ = value; break;
    case HIF_DONE_HEAD: done_head_ = value; break;
    case HIF_NSECTORS_LO: nsectors_ = (nsectors_ & ~0xFFFFFFFFull) | value; break;
    case HIF_NSECTORS_HI: nsectors_ = (nsectors_ & 0xFFFFFFFFull) | (uint64_t(value) << 32); break;
    case HIF_DONE_IRQ_ALL: done_irq_all_ = value & 1u; break;
    case HIF_CMD_TAIL_SHADOW:
      cmd_tail_shadow_ = value;
      if (value) *dram_.as<uint32_t>(value) = cmd_tail_;
      break;
    case HIF_ENABLE: {
      const bool was = enabled_;
      enabled_ = value & 1u;
      for (uint32_t s : {cmd_size_, dma_size_, done_size_})
        if (enabled_ && (s == 0 || (s & (s - 1u)))) {
          report_fatal("host interface: enabled before its rings are set up (sizes must be powers of two)");
          return;
        }
      if (enabled_ && !was) {
        ready_.notify(delay);
        events_.at(sc_core::sc_time_stamp() + delay, [this] { fetch(); });
      }
      break;
    }
    case HIF_DMA_TAIL: {
      dma_tail_ = value;
      const sc_time at = sc_core::sc_time_stamp() + delay;
      events_.at(at, [this, at] { run_dma(at); });
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
  for (uint32_t a : out) dram_.at(a, payload_ ? 4096 : sizeof(ssd_sector_tag));
}

void HostInterface::run_dma(sc_time at) {
  while (dma_head_ != dma_tail_) {
    const ssd_hif_dma d = *dram_.as<ssd_hif_dma>(dma_addr_ + (dma_head_ & (dma_size_ - 1u)) * sizeof(ssd_hif_dma));
    dma_head_++;
    HostCommand* c = d.slot < SSD_HOST_SLOTS ? slots_[d.slot].cmd : nullptr;
    const uint32_t j = take_job();
    DmaJob& job = jobs_[j];
    job.d = d;
    job.c = c;
    job.sectors.clear();
    std::string err;
    auto num = [](uint64_t v) { return std::to_string(v); };
    if (!c) err = "slot " + num(d.slot) + " holds no command";
    else if (d.dir != SSD_DMA_NONE && (d.sect_off + d.nsect > c->nsect || d.nsect == 0))
      err = "sectors " + num(d.sect_off) + "+" + num(d.nsect) + " outside the command's " + num(c->nsect);
    else if (d.dir > SSD_DMA_FROM_HOST) err = "direction " + num(d.dir);
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
    const uint64_t bytes = uint64_t(d.nsect) * 4096;
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
    // The tag is the sector's first 8 bytes: with payloads it is copied last so the two agree.
    if (d.dir == SSD_DMA_TO_HOST) {
      if (c->payload) std::memcpy(c->payload + size_t(s) * 4096, dram_.at(job.sectors[i], 4096), 4096);
      std::memcpy(&c->data[s], dram_.at(job.sectors[i]), sizeof(ssd_sector_tag));
    } else {
      if (c->payload) std::memcpy(dram_.at(job.sectors[i], 4096), c->payload + size_t(s) * 4096, 4096);
      std::memcpy(dram_.at(job.sectors[i]), &c->data[s], sizeof(ssd_sector_tag));
    }
  }
  const uint8_t flags = d.flags;
  const uint16_t slot = d.slot, status = d.status, info = d.info;
  const uint32_t cookie = d.cookie;
  free_jobs_.push_back(j);
  if (flags & SSD_DMAF_COMPLETE) complete(slot, status, info, sc_core::sc_time_stamp());
  if (flags & SSD_DMAF_NOTIFY) notify_firmware(cookie, SSD_ST_OK, (flags & SSD_DMAF_IRQ) || done_irq_all_);
}

void HostInterface::notify_firmware(uint32_t cookie, uint16_t status, bool irq) {
  if (done_tail_ - done_head_ >= done_size_) {
    report_fatal("host interface: DMA done ring overflow (firmware does not consume it)");
    return;
  }
  auto* e = dram_.as<ssd_hif_done>(done_addr_ + (done_tail_ & (done_size_ - 1u)) * sizeof(ssd_hif_done));
  e->cookie = cookie;
  e->status = status;
  e->phase = uint16_t(done_phase_);
  if (++done_tail_ % done_size_ == 0) done_phase_ ^= 1u;
  if (irq) irq_.raise(SSD_IRQ_HIF);
}

void HostInterface::complete(uint16_t slot, uint16_t status, uint16_t info, sc_time at) {
  HostCommand* c = slots_[slot].cmd;
  slots_[slot].cmd = nullptr;
  free_slots_.push_back(slot);
  c->status = status;
  c->info = info;
  const sc_time seen = link_.send(PcieLink::DeviceToHost, at, kCqeBytes) + p_.irq;
  events_.at(seen, [this, c] {
    c->t_complete = sc_core::sc_time_stamp();
    if (on_complete) on_complete(c);
  });
  fetch();
}

}  // namespace ssdvp
