/* Boot and event loop.  Core 0 boots: it reads the configuration and geometry the platform
 * left in DRAM, lays out the firmware's tables in the DRAM heap, sets up every core's rings
 * (core/fw_core.h), and hands the other cores the firmware state.  Each core then loops, a
 * pass at a time under the firmware lock: its host DMA completions, its flash completions,
 * its new host commands, waiting commands, its part of the write buffer, GC; it sleeps when a
 * pass finds nothing to do. */
#include "core/ftl.h"
#include "hal/hal.h"
#include "recovery/recovery.h"
#include "snapshot/resume.h"
#include "ocssd/oc_device.h"
#include "zns/zns_device.h"
#include "core/host_roles.h"



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
    hal_fatal("fw: pSLC cache geometry out of range\n", SSD_HALT_BAD_CONFIG | SSD_BADCFG_PSLC);
  g->unit = g->planes * g->spp;
  g->pages = hw->pages_per_block;
  for (uint32_t d = 0; d < g->dies; d++)
    if (geo_die_is_slc(g, d)) {
      if (g->slc_pages > g->pages) g->pages = g->slc_pages;
      if (g->slc_blocks > g->blocks) g->blocks = g->slc_blocks;
    }
  /* SLC-mode blocks (a pSLC cache: never on SLC dies) hold fewer pages; they are a cache: the
   * logical space is what the native blocks hold (all data may end up there). */
  uint32_t native_sectors = 0, resident_sectors = 0, resident_dies = 0;
  const int slc_keeps = place_slc_keeps_data(f->cfg.placement);
  for (uint32_t d = 0; d < g->dies; d++) {
    const uint32_t n = (geo_die_blocks(g, d) - g->pslc_blocks) * geo_die_pages(g, d) * g->unit;
    native_sectors += n;
    if (slc_keeps || !geo_die_is_slc(g, d)) {   /* a die data may stay on for good */
      resident_sectors += n;
      resident_dies++;
    }
  }
  g->usable_sectors = native_sectors + g->dies * g->pslc_blocks * g->pslc_pages * g->unit;
  g->sb_sectors = g->pages * g->unit;
  g->superblocks = g->dies * g->blocks;
  g->phys_sectors = g->superblocks * g->sb_sectors;
  /* Logical space: the configured over-provisioning, and never less spare than GC needs to
   * make progress (its thresholds, its reserve and the two open superblocks per die; with FDP
   * each further handle's open superblock, and under persistent isolation each handle's GC
   * superblock: place/fdp.h). */
  uint64_t logical = (uint64_t)native_sectors * (1000u - f->cfg.op_permille) / 1000u;
  const uint32_t fdp_open = f->cfg.fdp_handles == 0 ? 0u
                            : f->cfg.fdp_handles - 1u +
                                  (f->cfg.fdp_isolation == SSD_FDP_RUHT_PERSISTENTLY_ISOLATED ? f->cfg.fdp_handles : 0u);
  uint64_t min_spare = (uint64_t)g->dies *
                       (f->cfg.gc_high_blocks + f->host_reserve + (f->cfg.mapping != SSD_MAP_OPT ? 3u : 2u) + fdp_open) *
                       g->sb_sectors;
  if (native_sectors <= min_spare) hal_fatal("fw: device too small for its GC thresholds\n", SSD_HALT_BAD_CONFIG | SSD_BADCFG_DEVICE_TOO_SMALL);
  if (logical + min_spare > native_sectors) logical = native_sectors - min_spare;
  /* A placement whose SLC GC sends every victim to MLC (lapt, slc-only, slc-direct) ends with
   * all data in the MLC dies: the logical space must fit them next to their own GC spare, or
   * MLC fills with valid data while SLC waits for room there (no progress). */
  const uint64_t resident_spare = min_spare / g->dies * resident_dies;
  if (resident_sectors <= resident_spare)
    hal_fatal("fw: device too small for its GC thresholds\n", SSD_HALT_BAD_CONFIG | SSD_BADCFG_DEVICE_TOO_SMALL);
  if (logical + resident_spare > resident_sectors) logical = resident_sectors - resident_spare;
  if (f->cfg.logical_sectors) {   /* a capacity set outright: within what GC leaves */
    if (f->cfg.logical_sectors > native_sectors - min_spare)
      hal_fatal("fw: ftl.logical_sectors is more than the device holds next to the spare GC needs\n",
                SSD_HALT_BAD_CONFIG | SSD_BADCFG_CAPACITY);
    if (f->cfg.logical_sectors > resident_sectors - resident_spare)
      hal_fatal("fw: ftl.logical_sectors is more than the MLC dies hold next to their GC spare (the placement moves all data there)\n",
                SSD_HALT_BAD_CONFIG | SSD_BADCFG_PLACEMENT_CAPACITY);
    logical = f->cfg.logical_sectors;
  }
  g->logical_sectors = (uint32_t)logical;
}

/* Core `id`'s state, its rings and its part of the write buffer. */
static struct fw_core *core_setup(struct ftl *f, uint32_t id) {
  struct fw_core *c = fw_core_new(f, id);
  wbuf_init_part(f, &c->wb, id);
  return c;
}

/* The interrupt lines a core's event loop sleeps on. */
static uint32_t ftl_irqs(struct ftl *f, const struct fw_core *c) {
  uint32_t irqs = SSD_IRQ_HIF | SSD_IRQ_FCTL | SSD_IRQ_IPI;
  if (c->id == 0) irqs |= idle_migration_init(f);
  if (c->wb.ring.timeout_ns) irqs |= SSD_IRQ_TIMER;
  return irqs;
}

/* A new or powered-on drive: the tables laid out in the heap, the drive formatted or recovered. */
static struct ftl *boot(const struct ssd_fw_config *cfg) {
  struct ftl *f = fw_state_new(cfg);
  /* The bad-block reserve (media/bad_blocks.h) sits below every threshold: host data leaves
   * it, and GC starts and stops that much earlier. */
  f->host_reserve = GC_RESERVE + (cfg->mapping != SSD_MAP_OPT ? MAP_RESERVE : 0u) + cfg->bad_block_reserve;
  f->cfg.gc_low_blocks += cfg->bad_block_reserve;
  f->cfg.gc_high_blocks += cfg->bad_block_reserve;
  if (f->cfg.slc_gc_low_blocks) {
    f->cfg.slc_gc_low_blocks += cfg->bad_block_reserve;
    f->cfg.slc_gc_high_blocks += cfg->bad_block_reserve;
  }

  const struct ssd_geometry *hw = hal_dram_ptr(hal_read32(SSD_FCTL_BASE + FCTL_GEOMETRY_ADDR));
  derive_geometry(f, hw);
  const struct ftl_geo *g = &f->geo;
  if (f->cfg.die_prog_limit == 0) hal_fatal("fw: die_prog_limit is 0\n", SSD_HALT_BAD_CONFIG | SSD_BADCFG_DIE_QUEUE);
  if (f->cfg.mapping > SSD_MAP_ADAPTIVE || f->cfg.sched > SSD_SCHED_ADAPTIVE)
    hal_fatal("fw: unknown mapping scheme or scheduler\n", SSD_HALT_BAD_CONFIG | SSD_BADCFG_SCHEME);
  if (f->cfg.mapping != SSD_MAP_OPT &&
      (f->cfg.cmt_permille == 0 || f->cfg.cmt_permille > 1000 || f->cfg.cmt_clean_permille == 0 ||
       f->cfg.cmt_clean_permille >= 1000 || f->cfg.adapt_window == 0))
    hal_fatal("fw: mapping cache configuration out of range\n", SSD_HALT_BAD_CONFIG | SSD_BADCFG_MAP_CACHE);
  const uint32_t part = f->cfg.wbuf_sectors / f->ncores;
  if (part < 2u * SSD_MDTS_SECTORS + g->unit || f->cfg.wbuf_sectors > SSD_WBUF_MAX_SECTORS)
    hal_fatal("fw: write buffer size out of range\n", SSD_HALT_BAD_CONFIG | SSD_BADCFG_WBUF_SIZE);
  if (f->cfg.wbuf_kind >= WBUF_KINDS) hal_fatal("fw: unknown write buffer kind\n", SSD_HALT_BAD_CONFIG | SSD_BADCFG_WBUF_KIND);
  if (f->cfg.wbuf_kind == SSD_WBUF_RING && part < wbuf_stripe_sectors(f))
    hal_fatal("fw: ring write buffer smaller than one stripe per core\n", SSD_HALT_BAD_CONFIG | SSD_BADCFG_RING_STRIPE);

  f->stats = fw_alloc(f, sizeof(struct ssd_fw_stats), 64);
  f->stats->magic = SSD_FW_STATS_MAGIC;
  f->die_ops = fw_alloc(f, g->dies * 2u, 16);
  for (uint32_t d = 0; d < g->dies; d++) f->die_ops[d] = 0;
  map_init(f);
  blocks_init(f);
  victim_index_init(f);
  gc_init(f);
  hcmd_init(f);
  bbt_init(f);
  erase_log_init(f);
  program_retry_init(f);
  if (f->demand) dmap_init(f);
  trim_log_init(f);
  place_init(f);
  wbuf_init(f, f->ncores);
  for (uint32_t k = 0; k < f->ncores; k++) f->core[k] = core_setup(f, k);
  f->stats->cores = f->ncores;
  f->stats->wbuf_part_sectors = f->wb.part_slots;
  f->stats->wbuf_entries = f->wb.nslots;
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

  fw_fops_init(f);
  for (uint32_t s = 0; s < SSD_HOST_SLOTS; s++) {
    f->hc[s].sgl = fw_alloc(f, SSD_MDTS_SECTORS * 4u, 64);
    f->hc[s].slot_of = fw_alloc(f, SSD_MDTS_SECTORS * 4u, 64);
    f->hc[s].flush.drain_mark = fw_alloc(f, drain_barrier_bytes(f), 16);
    f->hc[s].unreadable = fw_alloc(f, SSD_MDTS_SECTORS / 8u, 16);
  }
  power_fail_init(f);
  f->wait_read_head = f->wait_read_tail = NONE32;
  f->flush_head = NONE32;
  f->trim_head = NONE32;

  recovery_power_on(f);   /* a new drive is formatted, a used one recovered */
  return f;
}

/* What the devices learn of the firmware once its state is there (booted or resumed); then
 * the other cores are started and the host is let in. */
static struct ftl *go_live(struct ftl *f) {
  const struct ftl_geo *g = &f->geo;
  f->stats->l2p_addr = f->demand ? 0u : hal_dram_addr(f->l2p);
  f->stats->logical_sectors = g->logical_sectors;
  f->stats->sb_erases_addr = hal_dram_addr(f->sb_erases);
  f->stats->sb_state_addr = hal_dram_addr(f->sb_state);
  f->stats->superblocks = g->superblocks;
  fw_go_live(f, g->logical_sectors);
  return f;
}

/* The background steps of a pass: read-ahead, program retries, GC, the SLC cache, the trim log,
 * the demand map's writes (each only when a cheap look says it has work). */
int ftl_background_steps(struct ftl *f) {
  int n = 0;
  if (f->ra.queued || f->ra.pend_nsect) n += ra_prefetch_step(f);
  if (program_retry_busy(&f->pr)) n += program_retry_step(f);
  if (f->gc_npools) n += gc_step(f);
  if (f->pl.cache.nlisted) n += slc_cache_step(f);
  if (trim_log_busy(&f->tl)) n += trim_log_step(f);
  if (f->demand && dmap_has_work(f)) n += dmap_step(f);
  return n;
}

/* One pass over everything that may have work, by the core holding the lock (f->cur).  Each
 * poller is called only when a cheap look says it has something to do: on the ISS an idle
 * pass is a few dozen instructions. */
int ftl_poll(struct ftl *f) {
  struct fw_core *c = f->cur;
  int n = 0;
  if (c->done_ring[c->done_pos.head & (c->done_pos.size - 1u)].phase == c->done_pos.phase) n += hif_poll_done(f, c);
  if (c->fcpl[c->fcpl_pos.head & (c->fcpl_pos.size - 1u)].phase == c->fcpl_pos.phase) n += flash_poll(f);
  if (power_fail_pending(&f->pf)) n += power_fail_step(f);
  if (*c->cmd_tail != c->cmd_pos.head && !power_failing(&f->pf)) {
    if (f->background_parked) {    /* the workload's first command: background work goes on */
      f->background_parked = 0;
      f->progress++;
    }
    n += hif_poll_cmds(f);
  }
  if (f->background_parked) {      /* a preconditioned drive waits at rest (precondition.c) */
    hif_commit(f);
    return n;
  }
  if (f->writes_waiting || f->wait_read_head != NONE32 || f->flush_head != NONE32) n += hcmd_retry_waiting(f);
  /* write-stop (part-sched, writeopt): while reads are pending and a write waits for space,
   * the full buffer does not drain (unless a flush command asks for it). */
  const int write_stop = f->cfg.sched == SSD_SCHED_WRITE_STOP && dmap_reads_protected(f) && !f->flushes_draining;
  const int drain = write_stop ? 0 : wbuf_drain_mode(f, &c->wb);
  if (drain)
    while (wbuf_flush_step(f, &c->wb, drain == 2)) n++;
  n += ftl_background_steps(f);
  if (c->fsub_dirty) flash_commit(f);
  hif_commit(f);
  if (n) hal_cost(HAL_COST_LOOP, 1);
  return n;
}

/* The conventional device's timers after a pass without work: idle migration on core 0, the
 * core's part's drain timeout (none while preconditioning parks background work). */
static int ftl_idle(struct ftl *f, struct fw_core *me) {
  return !f->background_parked && ((me->id == 0 && idle_poll(f)) || wbuf_idle(f, &me->wb));
}

static const struct device_ops conventional_ops = {ftl_poll, ftl_idle, ftl_irqs};

/* Each core's event loop: a pass under the lock; after a pass that found nothing, the core's
 * timers are looked at (idle migration on core 0, its part's drain timeout) and it sleeps
 * until an interrupt.  With one core the lock is never contended and no IPI is sent. */
static void event_loop(struct ftl *f, struct fw_core *me) {
  for (;;) {
    fw_lock(f, me);
    me->asleep = 0;
    const uint32_t progress = f->progress;
    int n = f->dev->poll(f);
    if (n) {
      me->stats->passes++;
    } else if (f->dev->idle(f, me)) {
      n = 1;
    } else {
      me->asleep = 1;
      me->seen_progress = f->progress;
    }
    if (f->progress != progress && f->ncores > 1) fw_wake_others(f);
    fw_unlock(f);
    if (!n) hal_wait_for_event();
  }
}

/* Core 0: boot a new or powered-on drive, or resume a snapshot's (snapshot/resume.h). */
void fw_main(void) {
  const struct ssd_fw_config *cfg = hal_dram_ptr(hal_read32(SSD_SYSCTL_BASE + SYSCTL_CONFIG_ADDR));
  if (cfg->magic != SSD_FW_CONFIG_MAGIC) hal_fatal("fw: bad configuration block\n", SSD_HALT_BAD_CONFIG | SSD_BADCFG_BLOCK);
  struct ftl *f;
  switch (cfg->interface) {   /* the one place the device's command set is chosen */
    case SSD_IF_CONVENTIONAL:
      f = cfg->resume ? resume_from_snapshot(cfg) : boot(cfg);
      f->dev = &conventional_ops;
      go_live(f);
      break;
    case SSD_IF_OCSSD:
      if (cfg->resume) hal_fatal("fw: an Open-Channel device has no drive-state snapshots\n", SSD_HALT_BAD_CONFIG | SSD_BADCFG_SNAPSHOT);
      f = oc_device_boot(cfg);
      break;
    case SSD_IF_ZNS:
      if (cfg->resume) hal_fatal("fw: a zoned device has no drive-state snapshots\n", SSD_HALT_BAD_CONFIG | SSD_BADCFG_SNAPSHOT);
      f = zns_device_boot(cfg);
      break;
    default:
      hal_fatal("fw: unknown device interface\n", SSD_HALT_BAD_CONFIG | SSD_BADCFG_INTERFACE);
      return;
  }
  event_loop(f, f->core[0]);
}

/* The FTL as a host FTL (core/host_roles.h): the same boot on the host's thread; the host's
 * threads then run its work by role. */
struct ftl *host_ftl_boot(void) {
  const struct ssd_fw_config *cfg = hal_dram_ptr(hal_read32(SSD_SYSCTL_BASE + SYSCTL_CONFIG_ADDR));
  if (cfg->magic != SSD_FW_CONFIG_MAGIC) hal_fatal("fw: bad configuration block\n", SSD_HALT_BAD_CONFIG | SSD_BADCFG_BLOCK);
  if (cfg->interface != SSD_IF_CONVENTIONAL || cfg->resume)
    hal_fatal("fw: a host FTL boots as a block device's FTL, new\n", SSD_HALT_BAD_CONFIG | SSD_BADCFG_INTERFACE);
  struct ftl *f = boot(cfg);
  f->dev = &conventional_ops;
  return go_live(f);
}

/* Cores 1..N-1: wait for core 0's message with the firmware state, then the event loop. */
void secondary_main(void) {
  hal_write32(SSD_SYSCTL_BASE + SYSCTL_IRQ_ENABLE, SSD_IRQ_MBOX);
  while (hal_read32(SSD_MBOX_BASE + MBOX_RECV_COUNT) == 0) hal_wait_for_event();
  struct ftl *f = hal_dram_ptr(hal_read32(SSD_MBOX_BASE + MBOX_RECV_DATA));
  struct fw_core *me = f->core[hal_read32(SSD_SYSCTL_BASE + SYSCTL_CORE_ID)];
  hal_write32(SSD_SYSCTL_BASE + SYSCTL_IRQ_ENABLE, f->dev->irqs(f, me));
  event_loop(f, me);
}
