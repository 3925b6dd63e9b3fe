/* What every device interface's boot shares: the state at the heap's start, each core's rings,
 * the flash operation table, and letting the host in (core/device_ops.h). */
#include "core/ftl.h"
#include "hal/hal.h"

struct ftl *fw_state_new(const struct ssd_fw_config *cfg) {
  uint32_t base = (cfg->dram_heap_addr + 63u) & ~63u;
  struct ftl *f = hal_dram_ptr(base);
  uint8_t *raw = (uint8_t *)f;
  for (uint32_t i = 0; i < sizeof(*f); i++) raw[i] = 0;
  f->cfg = *cfg;
  f->heap.base = cfg->dram_heap_addr;
  f->heap.size = cfg->dram_heap_bytes;
  f->heap.used = base - cfg->dram_heap_addr + (uint32_t)sizeof(*f);
  if (f->heap.used > f->heap.size) hal_fatal("fw: DRAM heap too small\n", SSD_HALT_BAD_CONFIG | SSD_BADCFG_DRAM);
  f->heap.zero_from = cfg->dram_zeroed ? f->heap.used : f->heap.size;
  f->ncores = hal_read32(SSD_SYSCTL_BASE + SYSCTL_NUM_CORES);
  if (f->ncores == 0 || f->ncores > SSD_MAX_CORES) hal_fatal("fw: core count out of range\n", SSD_HALT_BAD_CONFIG | SSD_BADCFG_CORES);
  return f;
}

static void ring_setup(uint32_t base, uint32_t addr_reg, uint32_t size_reg, const void *ring,
                       uint32_t size) {
  hal_write32(base + addr_reg, hal_dram_addr(ring));
  hal_write32(base + size_reg, size);
}

struct fw_core *fw_core_new(struct ftl *f, uint32_t id) {
  struct fw_core *c = fw_alloc(f, sizeof(struct fw_core), 64);
  c->id = id;
  c->hif = SSD_HIF_BASE + id * HIF_BANK_STRIDE;
  c->fctl = SSD_FCTL_BASE + id * FCTL_BANK_STRIDE;
  c->stats = &f->stats->core[id];
  c->wait_write_head = c->wait_write_tail = NONE32;
  timer_init(&c->timer, id);
  c->cmd_ring = fw_alloc(f, HIF_CMD_RING * (uint32_t)sizeof(struct ssd_host_cmd), 64);
  c->dma_ring = fw_alloc(f, HIF_DMA_RING * (uint32_t)sizeof(struct ssd_hif_dma), 64);
  c->done_ring = fw_alloc(f, HIF_DONE_RING * (uint32_t)sizeof(struct ssd_hif_done), 64);
  c->fsub = fw_alloc(f, FLASH_RING * (uint32_t)sizeof(struct ssd_flash_desc), 64);
  c->fcpl = fw_alloc(f, FLASH_CPL_RING * (uint32_t)sizeof(struct ssd_flash_cpl), 64);
  c->cmd_tail = fw_alloc(f, 64, 64);
  hal_write32(c->hif + HIF_CMD_TAIL_SHADOW, hal_dram_addr((const void *)c->cmd_tail));
  c->cmd_pos.size = HIF_CMD_RING;
  c->dma_pos.size = HIF_DMA_RING;
  c->done_pos = (struct ring_pos){0, 0, HIF_DONE_RING, 1, 0};
  c->fsub_pos.size = FLASH_RING;
  c->fcpl_pos = (struct ring_pos){0, 0, FLASH_CPL_RING, 1, 0};
  ring_setup(c->hif, HIF_CMD_RING_ADDR, HIF_CMD_RING_SIZE, c->cmd_ring, HIF_CMD_RING);
  ring_setup(c->hif, HIF_DMA_RING_ADDR, HIF_DMA_RING_SIZE, c->dma_ring, HIF_DMA_RING);
  ring_setup(c->hif, HIF_DONE_RING_ADDR, HIF_DONE_RING_SIZE, c->done_ring, HIF_DONE_RING);
  ring_setup(c->fctl, FCTL_SUB_RING_ADDR, FCTL_SUB_RING_SIZE, c->fsub, FLASH_RING);
  ring_setup(c->fctl, FCTL_CPL_RING_ADDR, FCTL_CPL_RING_SIZE, c->fcpl, FLASH_CPL_RING);
  hal_write32(c->hif + HIF_DONE_IRQ_ALL, 0);
  return c;
}

void fw_fops_init(struct ftl *f) {
  const struct ftl_geo *g = &f->geo;
  f->fop_free = NONE32;
  for (uint32_t t = FOP_MAX; t-- > 0;) {
    f->fop[t].sgl = fw_alloc(f, g->unit * 4u, 16);
    f->fop[t].oob = fw_alloc(f, g->unit * (uint32_t)sizeof(struct ssd_oob), 16);
    f->fop[t].slots = fw_alloc(f, g->unit * 4u, 16);
    f->fop[t].next_free = f->fop_free;
    f->fop_free = t;
  }
}

void fw_go_live(struct ftl *f, uint64_t namespace_sectors) {
  f->stats->dram_bytes_used = f->heap.used;
  hal_write32(SSD_SYSCTL_BASE + SYSCTL_DEBUG_ADDR, hal_dram_addr(f->stats));
  hal_write32(SSD_HIF_BASE + HIF_NSECTORS_LO, (uint32_t)namespace_sectors);
  hal_write32(SSD_HIF_BASE + HIF_NSECTORS_HI, (uint32_t)(namespace_sectors >> 32));
  hal_write32(SSD_SYSCTL_BASE + SYSCTL_IRQ_ENABLE, f->dev->irqs(f, f->core[0]));
  /* The other cores get the state's address, then the host may send commands. */
  for (uint32_t k = 1; k < f->ncores; k++) {
    hal_write32(SSD_MBOX_BASE + MBOX_SEND_TARGET, k);
    hal_write32(SSD_MBOX_BASE + MBOX_SEND_DATA, hal_dram_addr(f));
  }
  hal_write32(SSD_HIF_BASE + HIF_ENABLE, 1);
  hal_write32(SSD_SYSCTL_BASE + SYSCTL_FW_STATE, SSD_FW_STATE_READY);
}

/* A thin device's flash as core/ addresses it (flash_submit): superblocks run die, block; a
 * superblock is one block on every plane of a die; one cell type (the devices refuse the rest). */
void fw_thin_flash_geometry(struct ftl *f, const struct ssd_geometry *hw) {
  struct ftl_geo *g = &f->geo;
  g->channels = hw->channels;
  g->ways = hw->ways;
  g->planes = hw->planes;
  g->spp = hw->sectors_per_page;
  g->blocks = g->native_blocks = hw->blocks_per_plane;
  g->pages = g->native_pages = hw->pages_per_block;
  g->dies = g->channels * g->ways;
  g->pools = g->dies;
  g->unit = g->planes * g->spp;
  g->sb_sectors = g->pages * g->unit;
  g->superblocks = g->dies * g->blocks;
  g->phys_sectors = g->superblocks * g->sb_sectors;
}

int fw_thin_idle(struct ftl *f, struct fw_core *me) {
  (void)f;
  (void)me;
  return 0;
}

uint32_t fw_thin_irqs(struct ftl *f, const struct fw_core *c) {
  (void)f;
  (void)c;
  return SSD_IRQ_HIF | SSD_IRQ_FCTL | SSD_IRQ_IPI;
}
