/* A zoned device's boot and event-loop pass: see zns_device.h. */
#include "core/ftl.h"
#include "hal/hal.h"
#include "zns/zns_device.h"

static void layout(struct ftl *f, struct zns_device *d, const struct ssd_geometry *hw) {
  const struct ssd_fw_config *cfg = &f->cfg;
  const struct zns_media m = {f->geo.dies,
                              hw->planes,
                              hw->blocks_per_plane,
                              hw->pages_per_block,
                              hw->sectors_per_page,
                              cfg->zns_dies_per_zone,
                              cfg->zns_stripes_per_zone,
                              cfg->zns_spare_stripes,
                              cfg->zns_pow2_zone_size,
                              cfg->zns_max_open,
                              cfg->zns_max_active,
                              cfg->zns_zasl_sectors,
                              hw->slc_dies_mask_lo | hw->slc_dies_mask_hi | hw->pslc_blocks_per_plane};
  if (zns_layout_derive(&m, &d->layout) != ZNS_LAYOUT_OK)
    hal_fatal("fw: this flash cannot be laid out as zones\n", SSD_HALT_BAD_CONFIG | SSD_BADCFG_INTERFACE);
}

/* The zone map, the Identify structures, the per-slot and per-zone state. */
static void tables(struct ftl *f, struct zns_device *d) {
  const uint32_t nz = d->layout.nr_zones;
  struct ssd_zns_zone_desc *desc = fw_alloc(f, nz * (uint32_t)sizeof(struct ssd_zns_zone_desc), 64);
  uint64_t *written = fw_alloc(f, nz * 8u, 16);
  uint32_t *opened_at = fw_alloc(f, nz * 4u, 16);
  uint32_t *resets = fw_alloc(f, nz * 4u, 16);
  zns_zones_init(&d->zones, &d->layout, desc, written, opened_at, resets);
  d->id_ns = fw_alloc(f, sizeof(struct ssd_zns_id_ns), SECTOR_BYTES);
  d->id_ctrl = fw_alloc(f, sizeof(struct ssd_zns_id_ctrl), SECTOR_BYTES);
  zns_identify(&d->layout, d->id_ns, d->id_ctrl);
  d->slot = fw_alloc(f, SSD_HOST_SLOTS * (uint32_t)sizeof(struct zns_slot), 64);
  for (uint32_t s = 0; s < SSD_HOST_SLOTS; s++) {
    f->hc[s].sgl = fw_alloc(f, SSD_MDTS_SECTORS * 4u, 64);
    f->hc[s].unreadable = fw_alloc(f, SSD_MDTS_SECTORS / 8u, 16);
  }
  d->pipe = fw_alloc(f, nz * (uint32_t)sizeof(struct zns_pipe), 16);
}

/* Windows and sector buffers from what the heap has left.  A window holds the largest write
 * and two write units per die of a zone beyond it (every die programming one and filling the
 * next), and two more (a partial unit and its padding); there is
 * one per zone that may be active (max_active, else 32) and 4 more for zones whose last
 * programs finish after they filled.  The sector buffers take half of what remains. */
static void buffers(struct ftl *f, struct zns_device *d) {
  const struct zns_layout *l = &d->layout;
  d->win = (SSD_MDTS_SECTORS + l->unit - 1u) / l->unit * l->unit + (2u * l->group_dies + 2u) * l->unit;
  d->rings = (l->max_active ? l->max_active : 32u) + 4u;
  if (d->rings > l->nr_zones) d->rings = l->nr_zones;
  d->ring_addr = fw_alloc(f, d->rings * d->win * 4u, 16);
  d->unit_done = fw_alloc(f, d->rings * (d->win / l->unit), 16);
  d->ring_next = fw_alloc(f, d->rings * 4u, 16);
  d->ring_free = NONE32;
  for (uint32_t r = d->rings; r-- > 0;) {
    d->ring_next[r] = d->ring_free;
    d->ring_free = r;
  }
  d->report_addr = hal_dram_addr(fw_alloc(f, SSD_MDTS_SECTORS * SECTOR_BYTES, SECTOR_BYTES));
  f->zero_sector_addr = hal_dram_addr(fw_alloc(f, SECTOR_BYTES, SECTOR_BYTES));
  uint8_t *z = hal_dram_ptr(f->zero_sector_addr);
  for (uint32_t i = 0; i < SECTOR_BYTES; i++) z[i] = 0;
  const uint32_t left = f->heap.size - f->heap.used;
  uint32_t n = left / 2u / (SECTOR_BYTES + 5u);
  if (n > 65536u) n = 65536u;   /* 256 MiB of data in flight is plenty */
  if (n < SSD_MDTS_SECTORS + d->win)
    hal_fatal("fw: no DRAM for the zoned device's sector buffers\n", SSD_HALT_BAD_CONFIG | SSD_BADCFG_ZNS_BUFFERS);
  d->nbufs = n;
  d->buf_next = fw_alloc(f, n * 4u, 16);
  d->buf_ref = fw_alloc(f, n, 16);
  d->buf_base = hal_dram_addr(fw_alloc(f, n * SECTOR_BYTES, SECTOR_BYTES));
  d->buf_free = NONE32;
  for (uint32_t b = n; b-- > 0;) {
    d->buf_next[b] = d->buf_free;
    d->buf_ref[b] = 0;
    d->buf_free = b;
  }
  d->bufs_left = n;
}

/* A pass: DMA and flash completions, new commands, what waits. */
static int zns_poll(struct ftl *f) {
  struct fw_core *c = f->cur;
  struct zns_device *d = f->zns;
  int n = 0;
  const int failing = zns_power_failing(d);
  if (c->done_ring[c->done_pos.head & (c->done_pos.size - 1u)].phase == c->done_pos.phase) n += hif_poll_done(f, c);
  if (c->fcpl[c->fcpl_pos.head & (c->fcpl_pos.size - 1u)].phase == c->fcpl_pos.phase) n += flash_poll(f);
  if (*c->cmd_tail != c->cmd_pos.head && !failing) n += hif_poll_cmds(f);   /* the host is gone with the supply */
  if (failing) n += zns_power_step(f);
  if (d->buf_head != NONE32 || d->flash_head != NONE32 || d->rep_head != NONE32) n += zns_commands_retry(f);
  if (d->zw_head != NONE32) n += zns_pipe_retry(f);
  if (c->fsub_dirty) flash_commit(f);
  hif_commit(f);
  if (n) hal_cost(HAL_COST_LOOP, 1);
  return n;
}

static const struct device_ops zns_ops = {zns_poll, fw_thin_idle, fw_thin_irqs};

struct ftl *zns_device_boot(const struct ssd_fw_config *cfg) {
  struct ftl *f = fw_state_new(cfg);
  const struct ssd_geometry *hw = hal_dram_ptr(hal_read32(SSD_FCTL_BASE + FCTL_GEOMETRY_ADDR));
  fw_thin_flash_geometry(f, hw);
  const struct ftl_geo *g = &f->geo;
  struct zns_device *d = fw_alloc(f, sizeof(struct zns_device), 64);
  uint8_t *raw = (uint8_t *)d;
  for (uint32_t i = 0; i < sizeof(*d); i++) raw[i] = 0;
  f->zns = d;
  layout(f, d, hw);
  tables(f, d);
  f->stats = fw_alloc(f, sizeof(struct ssd_fw_stats), 64);
  f->stats->magic = SSD_FW_STATS_MAGIC;
  f->stats->cores = f->ncores;
  f->die_ops = fw_alloc(f, g->dies * 2u, 16);
  for (uint32_t i = 0; i < g->dies; i++) f->die_ops[i] = 0;
  /* What the shared media code keeps per superblock: erase counts, the pool each belongs to
   * (its die), and the oldest version programmed (core/flash_queue.c keeps it). */
  f->sb_erases = fw_alloc(f, g->superblocks * 4u, 16);
  f->sb_owner = fw_alloc(f, g->superblocks * 2u, 16);
  f->sb_min_ver = fw_alloc(f, g->superblocks * 4u, 16);
  for (uint32_t sb = 0; sb < g->superblocks; sb++) {
    f->sb_erases[sb] = 0;
    f->sb_owner[sb] = (uint16_t)(sb / g->blocks);
    f->sb_min_ver[sb] = NONE32;
  }
  for (uint32_t k = 0; k < f->ncores; k++) f->core[k] = fw_core_new(f, k);
  fw_fops_init(f);
  buffers(f, d);
  zns_commands_init(f);
  zns_pipeline_init(f);
  zns_power_init(f);
  f->dev = &zns_ops;
  f->cur = f->core[0];
  zns_power_on(f);   /* a new device formatted, a used one as its power-loss dump left it */
  /* The superblocks' states for the platform's wear report: none is bad (no bad blocks yet). */
  f->sb_state = fw_alloc(f, g->superblocks, 16);
  for (uint32_t sb = 0; sb < g->superblocks; sb++) f->sb_state[sb] = 0;
  f->stats->superblocks = g->superblocks;
  f->stats->sb_erases_addr = hal_dram_addr(f->sb_erases);
  f->stats->sb_state_addr = hal_dram_addr(f->sb_state);
  zns_power_resume(f);
  fw_go_live(f, (uint64_t)d->layout.nr_zones * d->layout.zsze);
  return f;
}
