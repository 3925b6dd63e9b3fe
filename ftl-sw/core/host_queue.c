/* Host interface rings: host commands fetched by the HIF into DRAM, and the HIF DMA
 * descriptors with which the firmware moves data to/from the host and completes commands. */
#include "core/ftl.h"
#include "hal/hal.h"

void hif_dma(struct ftl *f, uint16_t slot, uint8_t dir, uint8_t flags, uint32_t nsect,
             uint32_t dram_addr, uint16_t status, uint32_t cookie) {
  struct ring_pos *p = &f->dma_pos;
  if (p->tail - p->head >= p->size - 1u) {
    /* Each command has at most one descriptor in flight and the ring is larger than the
     * command slots, so this only refreshes our view of the head. */
    p->head = hal_read32(SSD_HIF_BASE + HIF_DMA_HEAD);
    if (p->tail - p->head >= p->size - 1u) {
      hal_puts("fw: host DMA ring overflow\n");
      hal_halt(0xD3A10000u);
    }
  }
  struct ssd_hif_dma *d = &f->dma_ring[f->dma_pos.tail & (f->dma_pos.size - 1u)];
  d->slot = slot;
  d->dir = dir;
  d->flags = flags;
  d->sect_off = 0;
  d->nsect = nsect;
  d->dram_addr = dram_addr;
  d->status = status;
  d->info = (flags & SSD_DMAF_COMPLETE) ? (uint16_t)(f->hc[slot].waited & 0x0Fu) : 0u;
  d->cookie = cookie;
  f->dma_pos.tail++;
  f->dma_dirty = 1;
  hal_cost(HAL_COST_DMA_SUBMIT, 1);
}

void hif_commit(struct ftl *f) {
  if (!f->dma_dirty) return;
  f->dma_dirty = 0;
  hal_write32(SSD_HIF_BASE + HIF_DMA_TAIL, f->dma_pos.tail);
}

int hif_poll_done(struct ftl *f) {
  int n = 0;
  struct ring_pos *p = &f->done_pos;
  for (;;) {
    volatile struct ssd_hif_done *e = &f->done_ring[p->head & (p->size - 1u)];
    if (e->phase != p->phase) break;
    uint32_t cookie = e->cookie;
    if (++p->head % p->size == 0) p->phase ^= 1u;
    hcmd_dma_done(f, (uint16_t)cookie);
    n++;
  }
  if (n && ring_report_due(p)) hal_write32(SSD_HIF_BASE + HIF_DONE_HEAD, p->head);
  return n;
}

int hif_poll_cmds(struct ftl *f) {
  struct ring_pos *p = &f->cmd_pos;
  uint32_t tail = *f->cmd_tail;
  /* A slot the HIF reuses had its DMA-done entry posted before the new command could be
   * fetched: consume done entries first so that the slot's old command is finished. */
  int n = hif_poll_done(f);
  while (p->head != tail) {
    const struct ssd_host_cmd *c = &f->cmd_ring[p->head & (p->size - 1u)];
    struct hcmd *h = &f->hc[c->slot];
    h->opcode = c->opcode;
    h->lba = c->lba_lo;
    h->nsect = c->nsect;
    h->status = SSD_ST_OK;
    h->pending = 0;
    h->next = NONE32;
    if (c->opcode == SSD_HOP_PRECONDITION) {
      struct ssd_host_cmd copy = *c;
      p->head++;
      p->reported = p->head;
      hal_write32(SSD_HIF_BASE + HIF_CMD_HEAD, p->head);
      precondition_run(f, c->slot, &copy);
      n++;
      continue;
    }
    /* Range check on the full 64-bit LBA before it is narrowed. */
    if (c->lba_hi != 0) h->lba = NONE32;
    p->head++;
    hcmd_start(f, c->slot);
    n++;
  }
  if (n) idle_note_command(f);
  if (n && ring_report_due(p)) hal_write32(SSD_HIF_BASE + HIF_CMD_HEAD, p->head);
  return n;
}
