/* SLC/MLC placement policies and the region bookkeeping behind the seam (placement.h). */
#include "core/ftl.h"
#include "hal/hal.h"


static uint8_t lapt_region(struct ftl *f, uint32_t lpa, uint32_t nsect) {
  (void)nsect;
  const struct lapt *t = &f->pl.lapt;
  return lapt_slc_writable(t, lapt_block_of(t, lpa)) ? (uint8_t)REGION_SLC : (uint8_t)REGION_MLC;
}

/* Once per request and logical block it touches, after the placement decisions of a write
 * (the paper updates the table after each request). */
static void lapt_note(struct ftl *f, uint8_t opcode, uint32_t lba, uint32_t nsect) {
  struct lapt *t = &f->pl.lapt;
  if (nsect == 0) return;
  const uint32_t last = lapt_block_of(t, lba + nsect - 1u);
  for (uint32_t b = lapt_block_of(t, lba); b <= last && b < t->nblocks; b++) {
    if (opcode == SSD_HOP_WRITE) lapt_note_write(t, b * t->block_sectors);
    else if (opcode == SSD_HOP_READ) lapt_note_read(t, b * t->block_sectors);
  }
}

static uint8_t slc_first_region(struct ftl *f, uint32_t lpa, uint32_t nsect) {
  (void)f;
  (void)lpa;
  (void)nsect;
  return REGION_SLC;
}

/* ComboFTL: the request's size says whether its data is hot (small) or cold (large). */
static uint8_t combo_region(struct ftl *f, uint32_t lpa, uint32_t nsect) {
  (void)lpa;
  return nsect <= f->cfg.combo_hot_sectors ? (uint8_t)REGION_SLC : (uint8_t)REGION_MLC;
}

/* ComboFTL: data leaves SLC only after surviving combo_survivals SLC GCs. */
static int combo_victim_migrates(const struct ftl *f, uint32_t sb) {
  return f->pl.survived[sb] >= f->cfg.combo_survivals;
}

/* The copy survived one more GC than its victim's data.  A GC superblock gathers the valid
 * data of several victims: it counts the least-survived of them (its data stays in SLC at
 * least as long as its youngest part would). */
static void combo_copied(struct ftl *f, uint32_t victim, uint32_t dst_ppa) {
  uint8_t *s = f->pl.survived;
  const uint32_t dst = ppa_sb(f, dst_ppa);
  const uint8_t n = (uint8_t)(s[victim] < 255u ? s[victim] + 1u : 255u);
  const int first_superpage = dst_ppa % f->geo.sb_sectors == 0;
  if (first_superpage || n < s[dst]) s[dst] = n;
}

static const struct place_policy policies[] = {
    [SSD_PLACE_NONE] = {"none", 0, 0, 0, 0, 0, 0},
    [SSD_PLACE_LAPT] = {"lapt", lapt_region, lapt_note, 0, 0, 0, 0},
    [SSD_PLACE_SLC_ONLY] = {"slc-only", slc_first_region, 0, 0, 0, 0, 0},
    [SSD_PLACE_COMBO] = {"combo", combo_region, 0, combo_victim_migrates, combo_copied, 1, 0},
    [SSD_PLACE_SLC_DIRECT] = {"slc-direct", slc_first_region, 0, 0, 0, 0, 1},
};

int place_slc_keeps_data(uint32_t placement) {
  if (placement == SSD_PLACE_NONE || placement >= sizeof policies / sizeof policies[0]) return 1;
  return policies[placement].slc_victim_migrates != 0;
}

void place_init(struct ftl *f) {
  const struct ftl_geo *g = &f->geo;
  struct place *p = &f->pl;
  p->pool_region = fw_alloc(f, g->pools, 64);
  p->regions = 1;
  p->policy = 0;
  slc_cache_init(f);
  fdp_init(f);
  f->stats->map_bytes = (g->logical_sectors + g->phys_sectors) * 4u;
  if (f->cfg.placement == SSD_PLACE_NONE) return;
  if (f->cfg.placement >= sizeof policies / sizeof policies[0] || f->demand) {
    hal_puts("fw: placement policy unknown, or used with a demand-based map\n");
    hal_halt(SSD_HALT_BAD_CONFIG | SSD_BADCFG_PLACEMENT);
    for (;;) hal_sleep();
  }
  uint32_t slc_pools = 0, slc_pool = 0;
  for (uint32_t q = 0; q < g->pools; q++) {
    const int slc = q >= g->dies || geo_die_is_slc(g, q);   /* SLC-mode blocks, or an SLC die */
    p->pool_region[q] = slc ? (uint8_t)REGION_SLC : (uint8_t)REGION_MLC;
    if (slc) {
      slc_pools++;
      slc_pool = q;
      p->slc_superblocks += f->pool[q].blocks;
    }
  }
  if (slc_pools == 0 || slc_pools == g->pools) {
    hal_puts("fw: placement needs an SLC region (SLC dies or SLC-mode blocks) and an MLC region\n");
    hal_halt(SSD_HALT_BAD_CONFIG | SSD_BADCFG_PLACEMENT_REGIONS);
    for (;;) hal_sleep();
  }
  p->policy = &policies[f->cfg.placement];
  p->regions = PLACE_REGIONS;
  /* ftl.slc_gc_*_blocks: SLC pools get their own GC thresholds, so the SLC region fills to those
   * before its GC starts.  A pool whose GC only migrates out (FIFO to MLC, never back into SLC)
   * needs one open superblock and one being cleaned, and host data may take its last free
   * superblock (GC writes elsewhere); one whose GC copies young data back (combo) keeps the GC
   * reserve for those copies. */
  if (f->cfg.slc_gc_low_blocks)
    for (uint32_t q = 0; q < g->pools; q++) {
      if (p->pool_region[q] != REGION_SLC) continue;
      struct pool_state *ps = &f->pool[q];
      ps->gc_low = f->cfg.slc_gc_low_blocks;
      ps->gc_high = f->cfg.slc_gc_high_blocks;
      if (p->policy->slc_victim_migrates) continue;
      ps->migrates_out = 1;
      ps->host_reserve = f->host_reserve - GC_RESERVE;
    }
  if (f->cfg.placement == SSD_PLACE_LAPT) {
    /* A logical block holds as many sectors as an SLC block (a plane's: the paper's 256 KiB
     * with 64 pages of 4 KiB), or an SLC superblock (ftl.lapt.logical_block). */
    const uint32_t per_sb = f->cfg.lapt_superblocks ? 1u : g->planes;
    const uint32_t block = f->pool[slc_pool].sb_capacity / per_sb;
    const uint32_t nblocks = (g->logical_sectors + block - 1u) / block;
    /* At most as many logical blocks are SLC-writable as SLC has blocks (the paper's rule). */
    lapt_init(&p->lapt, fw_alloc(f, lapt_bytes_for(nblocks), 64), g->logical_sectors, block,
              p->slc_superblocks * per_sb, f->cfg.lapt_tie_order);
    f->stats->lapt_block_sectors = block;
    f->stats->lapt_bytes = lapt_bytes(&p->lapt);
  }
  if (f->cfg.placement == SSD_PLACE_COMBO) {
    p->survived = fw_alloc(f, g->superblocks, 64);
    for (uint32_t sb = 0; sb < g->superblocks; sb++) p->survived[sb] = 0;
  }
  if (p->policy->mlc_units && f->cfg.combo_unit_blocks) unit_map_init(f);
}

void place_check_fill(struct ftl *f, uint64_t sectors) {
  if (f->cfg.placement != SSD_PLACE_COMBO) return;
  uint64_t mlc = 0, spare = 0;
  for (uint32_t q = 0; q < f->geo.pools; q++) {
    if (f->pl.pool_region[q] != REGION_MLC) continue;
    const uint64_t sb = f->pool[q].sb_capacity;
    mlc += f->pool[q].blocks * sb;
    spare += (f->host_reserve + 2u) * sb;   /* what host writes may not take, and two open superblocks */
  }
  if (sectors + spare > mlc)
    hal_fatal("fw: combo: the preconditioning fill does not fit the MLC region (its sequential data goes there)\n",
              SSD_HALT_BAD_CONFIG | SSD_BADCFG_COMBO_CAPACITY);
}

uint8_t place_region_of_write(struct ftl *f, uint32_t lpa, uint32_t nsect) {
  return f->pl.policy ? f->pl.policy->region_of_write(f, lpa, nsect) : 0u;
}

void place_note_request(struct ftl *f, uint8_t opcode, uint32_t lba, uint32_t nsect) {
  if (f->pl.policy && f->pl.policy->note_request) f->pl.policy->note_request(f, opcode, lba, nsect);
}

void place_slc_gc_starts(struct ftl *f) {
  if (f->stats->slc_first_gc_seen) return;
  const struct ftl_geo *g = &f->geo;
  uint64_t written = 0, capacity = 0;
  for (uint32_t q = 0; q < g->pools; q++) {
    if (f->pl.pool_region[q] != REGION_SLC) continue;
    const struct pool_state *ps = &f->pool[q];
    capacity += (uint64_t)ps->blocks * ps->sb_capacity;
    written += (uint64_t)(ps->blocks - ps->free_count) * ps->sb_capacity;
    if (ps->host_sb != NONE32) written -= ps->sb_capacity - ps->host_page * g->unit - ps->host_plane * g->spp;
    if (ps->gc_sb != NONE32) written -= ps->sb_capacity - ps->gc_page * g->unit;
  }
  f->stats->slc_first_gc_seen = 1;
  f->stats->slc_fill_at_first_gc_permille = capacity ? (uint32_t)(written * 1000u / capacity) : 0u;
}

int place_slc_pool(const struct ftl *f, uint32_t pool) {
  return f->pl.regions > 1 && f->pl.pool_region[pool] == REGION_SLC;
}

uint32_t place_full_region_fallback(const struct ftl *f, uint32_t region) {
  return f->pl.policy && f->pl.policy->slc_direct && region == REGION_SLC ? REGION_MLC : NONE32;
}

int place_cleaned_on_demand(const struct ftl *f, uint32_t pool) {
  return !(place_slc_pool(f, pool) && f->pl.policy->slc_direct) || slc_cache_over_lent(f, pool);
}

void place_demand_cleaned_space(const struct ftl *f, uint32_t *free, uint32_t *pools) {
  if (!f->pl.policy || !f->pl.policy->slc_direct) return;
  for (uint32_t q = 0; q < f->geo.pools; q++)
    if (!place_cleaned_on_demand(f, q)) {
      *free -= f->pool[q].free_count;
      (*pools)--;
    }
}

int place_gc_migrates(const struct ftl *f, uint32_t pool, uint32_t sb) {
  if (!place_slc_pool(f, pool)) return 0;
  return f->pl.policy->slc_victim_migrates ? f->pl.policy->slc_victim_migrates(f, sb) : 1;
}

void place_gc_copied(struct ftl *f, uint32_t victim, uint32_t dst_ppa) {
  if (f->pl.policy && f->pl.policy->slc_copied) f->pl.policy->slc_copied(f, victim, dst_ppa);
}

void place_sb_erased(struct ftl *f, uint32_t sb) {
  if (f->pl.survived) f->pl.survived[sb] = 0;
  unit_sb_erased(f, sb);
}

int place_sb_recovered(struct ftl *f, uint32_t pool, uint32_t sb, uint32_t lpa, uint32_t next_page) {
  if (!place_groups_region(f, f->pl.pool_region[pool])) return 0;
  if (lpa != NONE32) unit_sb_recovered(f, sb, unit_of(&f->pl.units, lpa), next_page);
  return 1;   /* no readable sector: no unit to give it to, it stays closed until GC erases it */
}

int place_groups_region(const struct ftl *f, uint32_t region) {
  return f->pl.units.unit_sectors && region == REGION_MLC;
}

uint32_t place_group_of(const struct ftl *f, uint32_t region, uint32_t lpa) {
  return place_groups_region(f, region) ? unit_of(&f->pl.units, lpa) : 0u;
}

uint32_t place_group_superpage(struct ftl *f, uint32_t lpa, uint32_t die_limit, int *busy) {
  return unit_next_superpage(f, unit_of(&f->pl.units, lpa), UNIT_WRITE, 0, die_limit, busy);
}

int place_gc_groups(const struct ftl *f, uint32_t pool, uint32_t sb) {
  return place_gc_migrates(f, pool, sb) && place_groups_region(f, REGION_MLC);
}

/* The next MLC pool whose migration stream can take a superpage now; NONE32: none can. */
static uint32_t migration_pool(struct ftl *f) {
  const struct ftl_geo *g = &f->geo;
  struct place *p = &f->pl;
  for (uint32_t k = 0; k < g->pools; k++) {
    const uint32_t q = (p->next_migration_pool + k) % g->pools;
    const struct pool_state *ps = &f->pool[q];
    if (p->pool_region[q] != REGION_MLC) continue;
    if (ps->mig_sb == NONE32 && ps->free_count <= f->host_reserve) continue;   /* its GC first */
    p->next_migration_pool = (q + 1u) % g->pools;
    return q;
  }
  return NONE32;
}

uint32_t place_gc_unit_superpage(struct ftl *f, uint32_t pool) {
  const struct unit_map *m = &f->pl.units;
  const uint32_t victim = f->pool[pool].victim;
  int busy;
  if (!m->unit_sectors || f->pl.pool_region[pool] != REGION_MLC || victim == NONE32 || m->sb_unit[victim] == NONE32)
    return NONE32;
  return unit_next_superpage(f, m->sb_unit[victim], UNIT_GC, pool, 0, &busy);
}

uint32_t place_gc_destination(struct ftl *f, uint32_t pool, uint32_t victim, uint32_t lpa, int migrate) {
  int busy;
  if (migrate && place_groups_region(f, REGION_MLC))   /* into lpa's unit, within its quota */
    return unit_next_superpage(f, unit_of(&f->pl.units, lpa), UNIT_WRITE, 0, 0, &busy);
  if (migrate) {
    const uint32_t q = migration_pool(f);
    return q == NONE32 ? NONE32 : blocks_next_superpage(f, q, STREAM_MIGRATE);
  }
  if (f->pl.units.unit_sectors && f->pl.pool_region[pool] == REGION_MLC)   /* back into its unit */
    return unit_next_superpage(f, f->pl.units.sb_unit[victim], UNIT_GC, pool, 0, &busy);
  const uint32_t dst = blocks_next_superpage_spill(f, pool, fdp_on(f) ? fdp_gc_stream(f, victim, f->geo.unit) : STREAM_GC);
  if (dst == NONE32) {
    hal_puts("fw: GC found no free superblock\n");
    hal_halt(0x6C000000u | pool);
  }
  return dst;
}
