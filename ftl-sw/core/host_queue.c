/* Host interface rings: host commands fetched by the HIF into DRAM, and the HIF DMA
 * descriptors with which the firmware moves data to/from the host and completes commands.
 * Each core has its own (core/fw_core.h): a command's DMA always goes on its own core's
 * ring, whichever core posts it, so that its completion comes back to that core. */
#include "core/ftl.h"
#include "hal/hal.h"

void host_register(struct ftl *f, const struct host_owner *owner) { f->host_owner = owner; }

/* The owner of host commands (core/host_port.h); none is a firmware fault. */
static const struct host_owner *host_owner(const struct ftl *f) {
  if (!f->host_owner) hal_fatal("fw: host command with no module owning host commands\n", 0xD3A40000u);
  return f->host_owner;
}

void hif_dma(struct ftl *f, uint16_t slot, uint8_t dir, uint8_t flags, uint32_t nsect,
             uint32_t dram_addr, uint16_t status, uint32_t cookie) {
  hif_dma_meta(f, slot, dir, flags, nsect, dram_addr, 0, status, cookie);
}

void hif_dma_meta(struct ftl *f, uint16_t slot, uint8_t dir, uint8_t flags, uint32_t nsect,
                  uint32_t dram_addr, uint32_t meta_addr, uint16_t status, uint32_t cookie) {
  struct fw_core *c = f->core[f->hc[slot].core];
  struct ring_pos *p = &c->dma_pos;
  if (p->tail - p->head >= p->size - 1u) {
    /* Each command has at most one descriptor in flight and the ring is larger than the
     * command slots, so this only refreshes our view of the head. */
    p->head = hal_read32(c->hif + HIF_DMA_HEAD);
    if (p->tail - p->head >= p->size - 1u) {
      hal_puts("fw: host DMA ring overflow\n");
      hal_halt(0xD3A10000u);
    }
  }
  struct ssd_hif_dma *d = &c->dma_ring[p->tail & (p->size - 1u)];
  d->slot = slot;
  d->dir = dir;
  d->flags = flags;
  d->sect_off = 0;
  d->nsect = nsect;
  d->dram_addr = dram_addr;
  d->status = status;
  d->info = (flags & SSD_DMAF_COMPLETE) ? (uint16_t)(f->hc[slot].waited & 0x0Fu) : 0u;
  d->cookie = cookie;
  d->error_map = (flags & SSD_DMAF_COMPLETE) && status >> 8 == 2u ? hal_dram_addr(f->hc[slot].unreadable) : 0u;
  d->meta_addr = meta_addr;
  p->tail++;
  c->dma_dirty = 1;
  hal_cost(HAL_COST_DMA_SUBMIT, 1);
}

void hif_complete_result(struct ftl *f, uint16_t slot, uint16_t status, uint64_t result) {
  hif_dma(f, slot, SSD_DMA_NONE, SSD_DMAF_COMPLETE | SSD_DMAF_RESULT, 0, 0, status, slot);
  struct fw_core *c = f->core[f->hc[slot].core];
  struct ssd_hif_dma *d = &c->dma_ring[(c->dma_pos.tail - 1u) & (c->dma_pos.size - 1u)];
  d->sect_off = (uint32_t)result;
  d->dram_addr = (uint32_t)(result >> 32);
  f->hc[slot].state = HC_FREE;
}

void hif_commit(struct ftl *f) {
  for (uint32_t k = 0; k < f->ncores; k++) {
    struct fw_core *c = f->core[k];
    if (!c->dma_dirty) continue;
    c->dma_dirty = 0;
    hal_write32(c->hif + HIF_DMA_TAIL, c->dma_pos.tail);
  }
}

int hif_poll_done(struct ftl *f, struct fw_core *c) {
  int n = 0;
  struct ring_pos *p = &c->done_pos;
  for (;;) {
    volatile struct ssd_hif_done *e = &c->done_ring[p->head & (p->size - 1u)];
    if (e->phase != p->phase) break;
    uint32_t cookie = e->cookie;
    if (++p->head % p->size == 0) p->phase ^= 1u;
    if (cookie >= SSD_HOST_SLOTS) hal_fatal("fw: DMA done entry for no command slot\n", 0xD3A20000u | (cookie & 0xFFFFu));
    host_owner(f)->dma_done(f, (uint16_t)cookie);
    n++;
  }
  if (n && ring_report_due(p)) hal_write32(c->hif + HIF_DONE_HEAD, p->head);
  return n;
}

int hif_poll_cmds(struct ftl *f) {
  struct fw_core *c = f->cur;
  struct ring_pos *p = &c->cmd_pos;
  uint32_t tail = *c->cmd_tail;
  /* A slot the HIF reuses had its DMA-done entry posted before the new command could be
   * fetched: consume done entries first so that the slot's old command is finished (the old
   * command may have been another core's: every core's ring is looked at). */
  int n = 0;
  for (uint32_t k = 0; k < f->ncores; k++) {
    struct fw_core *o = f->core[k];
    if (o->done_ring[o->done_pos.head & (o->done_pos.size - 1u)].phase == o->done_pos.phase) n += hif_poll_done(f, o);
  }
  while (p->head != tail) {
    const struct ssd_host_cmd *e = &c->cmd_ring[p->head & (p->size - 1u)];
    /* The HIF hands out free slots only: anything else would overwrite a command in flight. */
    if (e->slot >= SSD_HOST_SLOTS || f->hc[e->slot].state != HC_FREE)
      hal_fatal("fw: host command in a slot that is not free\n", 0xD3A30000u | e->slot);
    struct hcmd *h = &f->hc[e->slot];
    h->opcode = e->opcode;
    h->lba = e->lba_lo;
    h->nsect = e->nsect;
    h->status = SSD_ST_OK;
    h->pending = 0;
    h->next = NONE32;
    h->core = (uint8_t)c->id;
    h->cdw0 = e->cdw[0];
    h->cdw1 = e->cdw[1];
    h->cdw2 = e->cdw[2];
    h->durable = e->opcode == SSD_HOP_WRITE && ((e->cdw[0] & SSD_WRITE_FUA) || f->cfg.write_through);
    c->stats->host_cmds++;
    if (e->opcode == SSD_HOP_PRECONDITION && host_owner(f)->precondition) {
      struct ssd_host_cmd copy = *e;
      p->head++;
      p->reported = p->head;
      hal_write32(c->hif + HIF_CMD_HEAD, p->head);
      host_owner(f)->precondition(f, e->slot, &copy);
      n++;
      continue;
    }
    /* Range check on the full 64-bit LBA before it is narrowed. */
    if (e->lba_hi != 0) h->lba = NONE32;
    p->head++;
    host_owner(f)->start(f, e->slot);
    n++;
  }
  if (n && host_owner(f)->arrived) host_owner(f)->arrived(f);
  if (n && ring_report_due(p)) hal_write32(c->hif + HIF_CMD_HEAD, p->head);
  return n;
}
