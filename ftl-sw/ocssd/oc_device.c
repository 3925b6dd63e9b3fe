/* An Open-Channel device's boot and event-loop pass: see oc_device.h. */
#include "core/ftl.h"
#include "hal/hal.h"
#include "media/nor.h"
#include "ocssd/oc_device.h"
#include "wear/erase_log.h"

static struct ssd_oc_geometry *oc_geometry(struct ftl *f, const struct ssd_geometry *hw) {
  const struct ssd_fw_config *cfg = &f->cfg;
  const struct oc_media m = {
      hw->channels, hw->ways, hw->planes, hw->blocks_per_plane, hw->pages_per_block, hw->sectors_per_page,
      cfg->oc_bits_per_cell, cfg->oc_open_chunks_per_pu, {cfg->oc_t_read_ns[0], cfg->oc_t_read_ns[1]},
      {cfg->oc_t_prog_ns[0], cfg->oc_t_prog_ns[1]}, cfg->oc_t_erase_ns,
      hw->slc_dies_mask_lo | hw->slc_dies_mask_hi | hw->pslc_blocks_per_plane};
  struct ssd_oc_geometry *geo = fw_alloc(f, sizeof(*geo), SECTOR_BYTES);
  if (oc_geometry_derive(&m, geo) != OC_GEO_OK)
    hal_fatal("fw: this flash cannot be exposed as an Open-Channel device\n", SSD_HALT_BAD_CONFIG | SSD_BADCFG_INTERFACE);
  return geo;
}

/* Every command's buffers and lists; the data buffers from what the heap has left. */
static void command_tables(struct ftl *f, struct oc_device *d) {
  d->lba_list = fw_alloc(f, SSD_HOST_SLOTS * SSD_OC_MAX_LBAS * 8u, 64);
  hal_write32(SSD_HIF_BASE + HIF_LBA_LIST_ADDR, hal_dram_addr(d->lba_list));
  d->slot = fw_alloc(f, SSD_HOST_SLOTS * (uint32_t)sizeof(struct oc_slot), 64);
  for (uint32_t s = 0; s < SSD_HOST_SLOTS; s++) {
    f->hc[s].sgl = fw_alloc(f, SSD_OC_MAX_LBAS * 4u, 64);
    f->hc[s].unreadable = fw_alloc(f, SSD_OC_MAX_LBAS / 8u, 16);
  }
  const uint32_t most = SSD_HOST_SLOTS / 4u;   /* 64 MiB: a quarter of the slots moving data */
  const uint32_t room = (f->heap.size - f->heap.used) / 2u / OC_BUF_BYTES;
  d->nbufs = room < most ? room : most;
  if (d->nbufs < 2u) hal_fatal("fw: no DRAM for the Open-Channel command buffers\n", SSD_HALT_BAD_CONFIG | SSD_BADCFG_OC_BUFFERS);
  d->buf_next = fw_alloc(f, d->nbufs * 4u, 16);
  d->meta = fw_alloc(f, d->nbufs * SSD_OC_MAX_LBAS * (uint32_t)sizeof(struct ssd_oob), 64);
  d->buf_base = hal_dram_addr(fw_alloc(f, d->nbufs * OC_BUF_BYTES, SECTOR_BYTES));
  d->buf_free = NONE32;
  for (uint32_t b = d->nbufs; b-- > 0;) {
    d->buf_next[b] = d->buf_free;
    d->buf_free = b;
  }
}

/* A pass: DMA and flash completions, new commands, the waiting ones. */
static int oc_poll(struct ftl *f) {
  struct fw_core *c = f->cur;
  struct oc_device *d = f->oc;
  int n = 0;
  if (c->done_ring[c->done_pos.head & (c->done_pos.size - 1u)].phase == c->done_pos.phase) n += hif_poll_done(f, c);
  if (c->fcpl[c->fcpl_pos.head & (c->fcpl_pos.size - 1u)].phase == c->fcpl_pos.phase) n += flash_poll(f);
  if (*c->cmd_tail != c->cmd_pos.head) n += hif_poll_cmds(f);
  if (d->buf_head != NONE32 || d->flash_head != NONE32 || d->wq_head != NONE32) n += oc_commands_retry(f);
  if (*d->power_failing && !d->power_dumped) {   /* nothing volatile to save */
    d->power_dumped = 1;
    f->stats->power_dumped = 1;
    hal_write32(SSD_SYSCTL_BASE + SYSCTL_POWER_DUMPED, 1);
  }
  if (c->fsub_dirty) flash_commit(f);
  hif_commit(f);
  if (n) hal_cost(HAL_COST_LOOP, 1);
  return n;
}

static const struct device_ops oc_ops = {oc_poll, fw_thin_idle, fw_thin_irqs};

struct ftl *oc_device_boot(const struct ssd_fw_config *cfg) {
  struct ftl *f = fw_state_new(cfg);
  const struct ssd_geometry *hw = hal_dram_ptr(hal_read32(SSD_FCTL_BASE + FCTL_GEOMETRY_ADDR));
  fw_thin_flash_geometry(f, hw);
  const struct ftl_geo *g = &f->geo;
  struct oc_device *d = fw_alloc(f, sizeof(struct oc_device), 64);
  f->oc = d;
  d->geo = oc_geometry(f, hw);
  const uint32_t chunks = (uint32_t)d->geo->num_grp * d->geo->num_pu * d->geo->num_chk;
  d->log_bytes = (chunks * (uint32_t)sizeof(struct ssd_oc_chunk) + SECTOR_BYTES - 1u) / SECTOR_BYTES * SECTOR_BYTES;
  struct ssd_oc_chunk *desc = fw_alloc(f, d->log_bytes, SECTOR_BYTES);
  uint8_t *raw = (uint8_t *)desc;
  for (uint32_t i = 0; i < d->log_bytes; i++) raw[i] = 0;
  oc_chunks_init(&d->chunks, d->geo, desc);
  d->programmed = fw_alloc(f, chunks * 4u, 16);
  d->grown_bad = fw_alloc(f, chunks, 16);
  for (uint32_t c = 0; c < chunks; c++) {
    d->programmed[c] = 0;
    d->grown_bad[c] = 0;
  }
  const struct ssd_fw_config *live = hal_dram_ptr(hal_read32(SSD_SYSCTL_BASE + SYSCTL_CONFIG_ADDR));
  d->power_failing = &live->power_failing;

  f->stats = fw_alloc(f, sizeof(struct ssd_fw_stats), 64);
  f->stats->magic = SSD_FW_STATS_MAGIC;
  f->stats->cores = f->ncores;
  f->die_ops = fw_alloc(f, g->dies * 2u, 16);
  for (uint32_t i = 0; i < g->dies; i++) f->die_ops[i] = 0;
  /* What the shared media code keeps per superblock (= chunk): erase counts and their log in
   * the NOR (wear/erase_log.h), the pool each belongs to (its die), and the oldest version
   * programmed (core/flash_queue.c keeps it for the FTL's trim log). */
  f->sb_erases = fw_alloc(f, g->superblocks * 4u, 16);
  f->sb_owner = fw_alloc(f, g->superblocks * 2u, 16);
  f->sb_min_ver = fw_alloc(f, g->superblocks * 4u, 16);
  for (uint32_t sb = 0; sb < g->superblocks; sb++) {
    f->sb_erases[sb] = 0;
    f->sb_owner[sb] = (uint16_t)(sb / g->blocks);
    f->sb_min_ver[sb] = NONE32;
  }
  f->bb.nor_bytes = nor_size();
  if (!nor_fits(f->bb.nor_bytes, g->superblocks))
    hal_fatal("fw: the SPI NOR cannot hold the bad-chunk table and the erase-count log\n", SSD_HALT_BAD_CONFIG | SSD_BADCFG_BBT);
  erase_log_init(f);
  for (uint32_t k = 0; k < f->ncores; k++) f->core[k] = fw_core_new(f, k);
  fw_fops_init(f);
  command_tables(f, d);
  oc_commands_init(f);
  f->dev = &oc_ops;
  f->cur = f->core[0];
  oc_power_on(f);

  f->stats->superblocks = g->superblocks;
  f->stats->sb_erases_addr = hal_dram_addr(f->sb_erases);
  fw_go_live(f, (uint64_t)chunks * d->geo->clba);
  return f;
}
