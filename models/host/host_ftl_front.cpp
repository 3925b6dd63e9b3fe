// The host FTL's host side: see host_ftl_front.h.
#include "models/host/host_ftl_front.h"

#include <cstring>
#include <string>

#include "models/common/fatal.h"
#include "models/cpu/sysctl.h"
#include "models/dram/dram.h"
#include "models/host/hif_dma_check.h"
#include "models/host/hif_ring_registers.h"

namespace ssdvp {

HostFtlFront::HostFtlFront(sc_core::sc_module_name name, uint32_t cores, Dram& mem, SysCtl& irq, bool payload)
    : MmioDevice(name), mem_(mem), irq_(irq), payload_(payload), banks_(cores), slots_(SSD_HOST_SLOTS, nullptr) {
  for (uint32_t s = SSD_HOST_SLOTS; s-- > 0;) free_slots_.push_back(uint16_t(s));
}

bool HostFtlFront::deliver(HostCommand* c, uint32_t core) {
  Bank& k = banks_.at(core);
  if (free_slots_.empty() || k.cmd_size == 0 || k.cmd_tail - k.cmd_head >= k.cmd_size) return false;
  const uint16_t slot = free_slots_.back();
  free_slots_.pop_back();
  slots_[slot] = c;
  c->user = (c->user & ~0xFFFFull) | slot;
  auto* e = mem_.as<ssd_host_cmd>(k.cmd_addr + (k.cmd_tail & (k.cmd_size - 1u)) * sizeof(ssd_host_cmd));
  e->slot = slot;
  e->opcode = c->opcode;
  e->queue = uint8_t(c->queue);
  e->nsect = c->nsect;
  e->lba_lo = uint32_t(c->lba);
  e->lba_hi = uint32_t(c->lba >> 32);
  std::memcpy(e->cdw, c->cdw, sizeof(e->cdw));
  k.cmd_tail++;
  if (k.cmd_tail_shadow) *mem_.as<uint32_t>(k.cmd_tail_shadow) = k.cmd_tail;
  return true;
}

std::vector<HostCommand*> HostFtlFront::take_completed() {
  std::vector<HostCommand*> out;
  out.swap(completed_);
  return out;
}

uint32_t HostFtlFront::read32(uint32_t offset, sc_core::sc_time&) {
  const uint32_t bank = offset / HIF_BANK_STRIDE, reg = offset % HIF_BANK_STRIDE;
  if (offset == HIF_LBA_LIST_ADDR) return 0;
  if (reg == HIF_ENABLE) return enabled_;
  if (reg == HIF_NSECTORS_LO) return uint32_t(nsectors_);
  if (reg == HIF_NSECTORS_HI) return uint32_t(nsectors_ >> 32);
  if (bank >= banks_.size()) return 0;
  const Bank& k = banks_[bank];
  switch (reg) {
    case HIF_CMD_TAIL: return k.cmd_tail;
    case HIF_CMD_HEAD: return k.cmd_head;
    case HIF_DMA_TAIL: return k.dma_tail;
    case HIF_DMA_HEAD: return k.dma_head;
    case HIF_DONE_HEAD: return k.done_head;
    default: return 0;
  }
}

void HostFtlFront::write32(uint32_t offset, uint32_t value, sc_core::sc_time&) {
  const uint32_t bank = offset / HIF_BANK_STRIDE, reg = offset % HIF_BANK_STRIDE;
  if (offset == HIF_LBA_LIST_ADDR) return;
  switch (reg) {
    case HIF_NSECTORS_LO: nsectors_ = (nsectors_ & ~0xFFFFFFFFull) | value; return;
    case HIF_NSECTORS_HI: nsectors_ = (nsectors_ & 0xFFFFFFFFull) | (uint64_t(value) << 32); return;
    case HIF_ENABLE:
      if ((value & 1u) && !enabled_) ready_.notify(sc_core::SC_ZERO_TIME);
      enabled_ = value & 1u;
      return;
    default: break;
  }
  if (bank >= banks_.size()) return;
  Bank& k = banks_[bank];
  if (set_hif_ring_register(k, reg, value)) return;
  switch (reg) {
    case HIF_CMD_HEAD:
      k.cmd_head = value;
      room_.notify(sc_core::SC_ZERO_TIME);
      break;
    case HIF_CMD_TAIL_SHADOW:
      k.cmd_tail_shadow = value;
      if (value) *mem_.as<uint32_t>(value) = k.cmd_tail;
      break;
    case HIF_DMA_TAIL:
      k.dma_tail = value;
      run_dma(bank);
      break;
    default: break;
  }
}

// A descriptor's data between the host's buffers and host memory (tags, payload, metadata).
void HostFtlFront::copy(const ssd_hif_dma& d, HostCommand* c) {
  uint64_t bytes = 0;
  for (uint32_t i = 0; i < d.nsect; i++) {
    const uint32_t s = d.sect_off + i;
    const uint32_t a = (d.flags & SSD_DMAF_SGL) ? mem_.as<uint32_t>(d.dram_addr + 4u * i)[0] : d.dram_addr + i * 4096u;
    const bool bytes_too = c->payload && (payload_ || (d.flags & SSD_DMAF_BYTES));
    uint8_t* sector = mem_.at(a, bytes_too ? 4096 : sizeof(ssd_sector_tag));
    // The tag: the sector's first 8 bytes, or beside them with the host's own bytes (Dram::tag).
    void* tag = (d.flags & SSD_DMAF_BYTES) ? static_cast<void*>(sector) : static_cast<void*>(mem_.tag(a));
    if (d.dir == SSD_DMA_TO_HOST) {
      if (bytes_too) std::memcpy(c->payload + size_t(s) * 4096, sector, 4096);
      if (c->data) std::memcpy(&c->data[s], tag, sizeof(ssd_sector_tag));
    } else {
      if (bytes_too) std::memcpy(sector, c->payload + size_t(s) * 4096, 4096);
      if (c->data) std::memcpy(tag, &c->data[s], sizeof(ssd_sector_tag));
    }
    bytes += 4096;
  }
  if (on_copy && bytes) on_copy(bytes);
}

void HostFtlFront::run_dma(uint32_t bank) {
  Bank& k = banks_[bank];
  while (k.dma_head != k.dma_tail) {
    const ssd_hif_dma d = *mem_.as<ssd_hif_dma>(k.dma_addr + (k.dma_head & (k.dma_size - 1u)) * sizeof(ssd_hif_dma));
    k.dma_head++;
    HostCommand* c = d.slot < SSD_HOST_SLOTS ? slots_[d.slot] : nullptr;
    HifSlotState state;
    if (c) state = HifSlotState{true, c->nsect, false};
    std::string err = hif_dma_problem(d, state);
    if (err.empty() && d.dir != SSD_DMA_NONE) {
      try {
        copy(d, c);
      } catch (const std::out_of_range& e) {
        err = e.what();
      }
    }
    if (!err.empty()) {
      report_fatal("host FTL: bad DMA descriptor (FTL bug): " + err);
      return;
    }
    if (d.flags & SSD_DMAF_COMPLETE) {
      c->status = d.status;
      c->info = d.info;
      if (d.status >> 8 == 2u) {
        c->unreadable_listed = d.error_map != 0;
        if (d.error_map) std::memcpy(c->unreadable, mem_.at(d.error_map, 4ull * ((c->nsect + 31) / 32)), 4ull * ((c->nsect + 31) / 32));
      }
      slots_[d.slot] = nullptr;
      free_slots_.push_back(d.slot);
      completed_.push_back(c);
      room_.notify(sc_core::SC_ZERO_TIME);
    }
    if (d.flags & SSD_DMAF_NOTIFY) {
      if (k.done_tail - k.done_head >= k.done_size) {
        report_fatal("host FTL: DMA done ring of core " + std::to_string(bank) + " overflows");
        return;
      }
      auto* e = mem_.as<ssd_hif_done>(k.done_addr + (k.done_tail & (k.done_size - 1u)) * sizeof(ssd_hif_done));
      e->cookie = d.cookie;
      e->status = SSD_ST_OK;
      e->phase = uint16_t(k.done_phase);
      if (++k.done_tail % k.done_size == 0) k.done_phase ^= 1u;
    }
  }
}

}  // namespace ssdvp
