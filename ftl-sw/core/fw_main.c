/* Boot and event loop.  Boot reads the configuration and geometry the platform left in
 * DRAM, lays out the firmware's tables in the DRAM heap, sets up the rings, and then loops:
 * host DMA completions, flash completions, new host commands, waiting commands, write-buffer
 * drain, GC; sleep when a pass finds nothing to do. */
#include "core/ftl.h"
#include "hal/hal.h"

#define FW_HALT_BAD_CONFIG 0xC0F00000u

static void fatal(const char *why, uint32_t code) {
  hal_puts(why);
  hal_halt(code);
  for (;;) hal_sleep();
}

static void derive_geometry(struct ftl *f, const struct ssd_geometry *hw) {
  struct ftl_geo *g = &f->geo;
  g->channels = hw->channels;
  g->ways = hw->ways;
  g->planes = hw->planes;
  g->slc_mask_lo = hw->slc_dies_mask_lo;
  g->slc_mask_hi = hw->slc_dies_mask_hi;
  g->native_blocks = hw->blocks_per_plane;
  g->slc_blocks = hw->slc_blocks_per_plane ? hw->slc_blocks_per_plane : hw->blocks_per_plane;
  g->native_pages = hw->pages_per_block;
  g->slc_pages = hw->slc_pages_per_block;
  g->pslc_blocks = hw->pslc_blocks_per_plane;
  g->pslc_pages = hw->pslc_pages_per_block;
  g->blocks = hw->blocks_per_plane;
  g->spp = hw->sectors_per_page;
  g->dies = g->channels * g->ways;
  g->pools = g->pslc_blocks ? 2u * g->dies : g->dies;
  if (g->pslc_blocks && (g->slc_mask_lo || g->slc_mask_hi || g->pslc_blocks >= g->blocks || g->pslc_pages == 0 ||
                         g->pslc_pages > hw->pages_per_block))
    fatal("fw: pSLC cache geometry out of range\n", FW_HALT_BAD_CONFIG | 7u);
  g->unit = g->planes * g->spp;
  g->pages = hw->pages_per_block;
  for (uint32_t d = 0; d < g->dies; d++)
    if (geo_die_is_slc(g, d)) {
      if (g->slc_pages > g->pages) g->pages = g->slc_pages;
      if (g->slc_blocks > g->blocks) g->blocks = g->slc_blocks;
    }
  /* SLC-mode blocks (a pSLC cache: never on SLC dies) hold fewer pages; they are a cache: the
   * logical space is what the native blocks hold (all data may end up there). */
  uint32_t native_sectors = 0;
  for (uint32_t d = 0; d < g->dies; d++)
    native_sectors += (geo_die_blocks(g, d) - g->pslc_blocks) * geo_die_pages(g, d) * g->unit;
  g->usable_sectors = native_sectors + g->dies * g->pslc_blocks * g->pslc_pages * g->unit;
  g->sb_sectors = g->pages * g->unit;
  g->superblocks = g->dies * g->blocks;
  g->phys_sectors = g->superblocks * g->sb_sectors;
  /* Logical space: the configured over-provisioning, and never less spare than GC needs to
   * make progress (its thresholds, its reserve and the two open superblocks per die). */
  uint64_t logical = (uint64_t)native_sectors * (1000u - f->cfg.op_permille) / 1000u;
  uint64_t min_spare =
      (uint64_t)g->dies * (f->cfg.gc_high_blocks + f->host_reserve + (f->cfg.mapping != SSD_MAP_OPT ? 3u : 2u)) * g->sb_sectors;
  if (native_sectors <= min_spare) fatal("fw: device too small for its GC thresholds\n", FW_HALT_BAD_CONFIG | 1u);
  if (logical + min_spare > native_sectors) logical = native_sectors - min_spare;
  g->logical_sectors = (uint32_t)logical;
}

static void ring_setup(uint32_t base, uint32_t addr_reg, uint32_t size_reg, uint32_t addr,
                       uint32_t size) {
  hal_write32(base + addr_reg, addr);
  hal_write32(base + size_reg, size);
}

static struct ftl *boot(void) {
  const struct ssd_fw_config *cfg =
      hal_dram_ptr(hal_read32(SSD_SYSCTL_BASE + SYSCTL_CONFIG_ADDR));
  if (cfg->magic != SSD_FW_CONFIG_MAGIC) fatal("fw: bad configuration block\n", FW_HALT_BAD_CONFIG);
  uint32_t base = (cfg->dram_heap_addr + 63u) & ~63u;
  struct ftl *f = hal_dram_ptr(base);
  uint8_t *raw = (uint8_t *)f;
  for (uint32_t i = 0; i < sizeof(*f); i++) raw[i] = 0;
  f->cfg = *cfg;
  f->heap.base = cfg->dram_heap_addr;
  f->heap.size = cfg->dram_heap_bytes;
  f->heap.used = base - cfg->dram_heap_addr + (uint32_t)sizeof(*f);
  f->host_reserve = GC_RESERVE + (cfg->mapping != SSD_MAP_OPT ? MAP_RESERVE : 0u);
  if (f->heap.used > f->heap.size) fatal("fw: DRAM heap too small\n", FW_HALT_BAD_CONFIG | 2u);

  const struct ssd_geometry *hw = hal_dram_ptr(hal_read32(SSD_FCTL_BASE + FCTL_GEOMETRY_ADDR));
  derive_geometry(f, hw);
  const struct ftl_geo *g = &f->geo;
  if (f->cfg.die_prog_limit == 0) fatal("fw: die_prog_limit is 0\n", FW_HALT_BAD_CONFIG | 4u);
  if (f->cfg.mapping > SSD_MAP_ADAPTIVE || f->cfg.sched > SSD_SCHED_ADAPTIVE)
    fatal("fw: unknown mapping scheme or scheduler\n", FW_HALT_BAD_CONFIG | 5u);
  if (f->cfg.mapping != SSD_MAP_OPT &&
      (f->cfg.cmt_permille == 0 || f->cfg.cmt_permille > 1000 || f->cfg.cmt_clean_permille == 0 ||
       f->cfg.cmt_clean_permille >= 1000 || f->cfg.adapt_window == 0))
    fatal("fw: mapping cache configuration out of range\n", FW_HALT_BAD_CONFIG | 6u);
  if (f->cfg.wbuf_sectors < 2u * SSD_MDTS_SECTORS + g->unit || f->cfg.wbuf_sectors > SSD_WBUF_MAX_SECTORS)
    fatal("fw: write buffer size out of range\n", FW_HALT_BAD_CONFIG | 3u);
  if (f->cfg.wbuf_kind >= WBUF_KINDS) fatal("fw: unknown write buffer kind\n", FW_HALT_BAD_CONFIG | 9u);
  if (f->cfg.wbuf_kind == SSD_WBUF_RING && f->cfg.wbuf_sectors < wbuf_stripe_sectors(f))
    fatal("fw: ring write buffer smaller than one stripe\n", FW_HALT_BAD_CONFIG | 10u);

  f->stats = fw_alloc(f, sizeof(struct ssd_fw_stats), 64);
  f->stats->magic = SSD_FW_STATS_MAGIC;
  f->die_ops = fw_alloc(f, g->dies * 2u, 16);
  for (uint32_t d = 0; d < g->dies; d++) f->die_ops[d] = 0;
  map_init(f);
  blocks_init(f);
  if (f->demand) dmap_init(f);
  place_init(f);
  timer_init(&f->timer);
  wbuf_init(f);
  rbuf_init(f);
  ra_init(f);
  f->zero_sector_addr = hal_dram_addr(fw_alloc(f, SECTOR_BYTES, SECTOR_BYTES));

  uint32_t gc_entries = g->pools * 2u * g->unit;
  uint32_t gc_bufs = hal_dram_addr(fw_alloc(f, gc_entries * SECTOR_BYTES, SECTOR_BYTES));
  f->gc_sgl = fw_alloc(f, gc_entries * 4u, 64);
  f->gc_src_ppa = fw_alloc(f, gc_entries * 4u, 64);
  f->gc_lpa = fw_alloc(f, gc_entries * 4u, 64);
  f->gc_oob = fw_alloc(f, gc_entries * (uint32_t)sizeof(struct ssd_oob), 64);
  for (uint32_t i = 0; i < gc_entries; i++) f->gc_sgl[i] = gc_bufs + i * SECTOR_BYTES;
  if (place_groups_region(f, REGION_MLC)) {   /* SLC GC gathers a victim's data by group */
    f->gc_taken_words = (g->pages * g->unit + 31u) / 32u;
    f->gc_taken = fw_alloc(f, g->pools * f->gc_taken_words * 4u, 64);
  }

  f->fop_free = NONE32;
  for (uint32_t t = FOP_MAX; t-- > 0;) {
    f->fop[t].sgl = fw_alloc(f, g->unit * 4u, 16);
    f->fop[t].oob = fw_alloc(f, g->unit * (uint32_t)sizeof(struct ssd_oob), 16);
    f->fop[t].slots = fw_alloc(f, g->unit * 4u, 16);
    f->fop[t].next_free = f->fop_free;
    f->fop_free = t;
  }
  for (uint32_t s = 0; s < SSD_HOST_SLOTS; s++) {
    f->hc[s].sgl = fw_alloc(f, SSD_MDTS_SECTORS * 4u, 64);
    f->hc[s].slot_of = fw_alloc(f, SSD_MDTS_SECTORS * 4u, 64);
  }
  f->wait_write_head = f->wait_write_tail = NONE32;
  f->wait_read_head = f->wait_read_tail = NONE32;
  f->flush_head = NONE32;
  f->trim_head = NONE32;

  f->cmd_ring = fw_alloc(f, HIF_CMD_RING * (uint32_t)sizeof(struct ssd_host_cmd), 64);
  f->dma_ring = fw_alloc(f, HIF_DMA_RING * (uint32_t)sizeof(struct ssd_hif_dma), 64);
  f->done_ring = fw_alloc(f, HIF_DONE_RING * (uint32_t)sizeof(struct ssd_hif_done), 64);
  f->fsub = fw_alloc(f, FLASH_RING * (uint32_t)sizeof(struct ssd_flash_desc), 64);
  f->fcpl = fw_alloc(f, FLASH_CPL_RING * (uint32_t)sizeof(struct ssd_flash_cpl), 64);
  f->cmd_tail = fw_alloc(f, 64, 64);
  hal_write32(SSD_HIF_BASE + HIF_CMD_TAIL_SHADOW, hal_dram_addr((const void *)f->cmd_tail));
  f->cmd_pos.size = HIF_CMD_RING;
  f->dma_pos.size = HIF_DMA_RING;
  f->done_pos = (struct ring_pos){0, 0, HIF_DONE_RING, 1, 0};
  f->fsub_pos.size = FLASH_RING;
  f->fcpl_pos = (struct ring_pos){0, 0, FLASH_CPL_RING, 1, 0};
  ring_setup(SSD_HIF_BASE, HIF_CMD_RING_ADDR, HIF_CMD_RING_SIZE, hal_dram_addr(f->cmd_ring), HIF_CMD_RING);
  ring_setup(SSD_HIF_BASE, HIF_DMA_RING_ADDR, HIF_DMA_RING_SIZE, hal_dram_addr(f->dma_ring), HIF_DMA_RING);
  ring_setup(SSD_HIF_BASE, HIF_DONE_RING_ADDR, HIF_DONE_RING_SIZE, hal_dram_addr(f->done_ring), HIF_DONE_RING);
  ring_setup(SSD_FCTL_BASE, FCTL_SUB_RING_ADDR, FCTL_SUB_RING_SIZE, hal_dram_addr(f->fsub), FLASH_RING);
  ring_setup(SSD_FCTL_BASE, FCTL_CPL_RING_ADDR, FCTL_CPL_RING_SIZE, hal_dram_addr(f->fcpl), FLASH_CPL_RING);

  f->stats->l2p_addr = f->demand ? 0u : hal_dram_addr(f->l2p);
  f->stats->logical_sectors = g->logical_sectors;
  f->stats->dram_bytes_used = f->heap.used;
  hal_write32(SSD_SYSCTL_BASE + SYSCTL_DEBUG_ADDR, hal_dram_addr(f->stats));
  hal_write32(SSD_HIF_BASE + HIF_NSECTORS_LO, g->logical_sectors);
  hal_write32(SSD_HIF_BASE + HIF_NSECTORS_HI, 0);
  hal_write32(SSD_HIF_BASE + HIF_DONE_IRQ_ALL, 0);
  hal_write32(SSD_SYSCTL_BASE + SYSCTL_IRQ_ENABLE, SSD_IRQ_HIF | SSD_IRQ_FCTL | idle_migration_init(f) |
                                                       (f->wb.ring.timeout_ns ? SSD_IRQ_TIMER : 0u));
  hal_write32(SSD_HIF_BASE + HIF_ENABLE, 1);
  hal_write32(SSD_SYSCTL_BASE + SYSCTL_FW_STATE, SSD_FW_STATE_READY);
  return f;
}

/* One pass over everything that may have work.  Each poller is called only when a cheap
 * look says it has something to do: on the ISS an idle pass is a few dozen instructions. */
int ftl_poll(struct ftl *f) {
  int n = 0;
  if (f->done_ring[f->done_pos.head & (f->done_pos.size - 1u)].phase == f->done_pos.phase) n += hif_poll_done(f);
  if (f->fcpl[f->fcpl_pos.head & (f->fcpl_pos.size - 1u)].phase == f->fcpl_pos.phase) n += flash_poll(f);
  if (*f->cmd_tail != f->cmd_pos.head) n += hif_poll_cmds(f);
  if (f->wait_write_head != NONE32 || f->wait_read_head != NONE32 || f->flush_head != NONE32)
    n += hcmd_retry_waiting(f);
  /* write-stop (part-sched, writeopt): while reads are pending and a write waits for space,
   * the full buffer does not drain (unless a flush command asks for it). */
  const int write_stop = f->cfg.sched == SSD_SCHED_WRITE_STOP && dmap_reads_protected(f) && !f->flushes_draining;
  const int drain = write_stop ? 0 : wbuf_drain_mode(f);
  if (drain)
    while (wbuf_flush_step(f, drain == 2)) n++;
  if (f->ra.queued) n += ra_prefetch_step(f);
  if (f->gc_npools) n += gc_step(f);
  if (f->demand && dmap_has_work(f)) n += dmap_step(f);
  if (f->fsub_dirty) flash_commit(f);
  if (f->dma_dirty) hif_commit(f);
  if (n) hal_cost(HAL_COST_LOOP, 1);
  return n;
}

void fw_main(void) {
  struct ftl *f = boot();
  for (;;) {
    /* Work until a pass finds nothing, then sleep; the lines that wake the core are cleared
     * as it wakes, and anything that arrives later sets them again. */
    while (ftl_poll(f)) {}
    if (!idle_poll(f) && !wbuf_idle(f)) hal_wait_for_event();
  }
}
