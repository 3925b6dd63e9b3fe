/* Power-on format or recovery: see recovery.h. */
#include "recovery/recovery.h"
#include "recovery/map_rebuild.h"
#include "core/ftl.h"
#include "hal/hal.h"

/* One die's scan: the superblocks of its pools in order, one superpage (a read per plane)
 * in flight at a time. */
struct rec_die {
  uint32_t pool;            /* pool being scanned (NONE32: die done) */
  uint32_t sb;              /* its superblock being scanned */
  uint32_t page;            /* superpage being read */
  uint32_t reads_left;      /* plane reads of it not yet back */
  uint32_t lpa;             /* a host sector found in the superblock (NONE32: none yet) */
  uint8_t  erased;          /* plane 0 read back erased: the superblock ends here */
  uint8_t  unreadable;      /* planes that read back uncorrectable (bit per plane): their
                               sectors are lost, the other planes' are taken (write-through
                               programs a superpage a few planes at a time) */
  uint8_t  copies;          /* the superblock holds GC copies (versions with a copy count) */
  uint8_t  map;             /* ... translation pages */
  uint8_t  log_read;        /* the superpage's trim-log sectors have been read with their data */
};

struct rec_state {
  struct rec_die *die;
  uint32_t *l2p;            /* [logical] the mapping found so far (opt: the map itself) */
  uint32_t *seq;            /* [logical] its version */
  uint32_t *tp_seq;         /* [translation pages] version of the GTD's copy */
  uint32_t busy;            /* dies with a superpage in flight */
  uint32_t max_seq;
};

static struct rec_state rec;
   /* only while recovering (core 0, before the host is let in) */

static uint32_t geometry_hash(const struct ftl *f) {
  const struct ftl_geo *g = &f->geo;
  uint32_t h = 2166136261u;
  const uint32_t v[] = {g->channels, g->ways, g->planes, g->spp, g->blocks, g->pages, g->pslc_blocks,
                        g->pslc_pages, g->slc_mask_lo, g->slc_mask_hi, g->logical_sectors};
  for (uint32_t i = 0; i < sizeof v / sizeof v[0]; i++) h = (h ^ v[i]) * 16777619u;
  return h;
}

/* The next pool of die d after `pool` (its native pool, then its SLC-mode pool). */
static uint32_t next_pool(const struct ftl *f, uint32_t d, uint32_t pool) {
  const struct ftl_geo *g = &f->geo;
  if (pool == NONE32) return d;
  if (pool == d && g->pools > g->dies) return g->dies + d;
  return NONE32;
}

/* Die d's scan moves to its next superblock: the pool's next, or the next pool's first. */
static void next_sb(struct ftl *f, struct rec_die *r, uint32_t d) {
  r->sb = pool_sb_next(f, r->pool, r->sb);
  while (r->sb == NONE32 && (r->pool = next_pool(f, d, r->pool)) != NONE32) r->sb = pool_sb_first(f, r->pool);
}

/* Moves die d's scan past bad superblocks (media/bad_blocks.h: never read, as if erased). */
static void skip_bad(struct ftl *f, uint32_t d) {
  struct rec_die *r = &rec.die[d];
  while (r->pool != NONE32 && r->page == 0 && f->sb_state[r->sb] == SB_BAD) next_sb(f, r, d);
}

static void submit_superpage(struct ftl *f, uint32_t d) {
  struct rec_die *r = &rec.die[d];
  const struct ftl_geo *g = &f->geo;
  const uint32_t ppa = r->sb * g->sb_sectors + r->page * g->unit;
  r->reads_left = g->planes;
  r->erased = 0;
  r->unreadable = 0;
  for (uint32_t pl = 0; pl < g->planes; pl++) {
    uint32_t tag = fop_alloc(f, FOP_RECOVERY_READ);
    const uint32_t first = d * 2u * g->unit + pl * g->spp;   /* die d's GC buffer half 0 */
    f->fop[tag].gc_index = first;
    flash_submit(f, tag, SSD_FOP_READ, ppa + pl * g->spp, g->spp, hal_dram_addr(&f->gc_sgl[first]),
                 hal_dram_addr(&f->gc_oob[first]), SSD_FDF_SGL);
  }
  f->stats->recovery_reads += g->planes;
  rec.busy++;
}

/* Reads again, with their data, the planes of die d's superpage that hold trim-log sectors
 * (the scan reads OOB only); 0 if it has none. */
static int read_log_sectors(struct ftl *f, uint32_t d) {
  struct rec_die *r = &rec.die[d];
  const struct ftl_geo *g = &f->geo;
  const uint32_t ppa = r->sb * g->sb_sectors + r->page * g->unit;
  r->reads_left = 0;
  for (uint32_t pl = 0; pl < g->planes; pl++) {
    if (r->unreadable >> pl & 1u) continue;
    const uint32_t first = d * 2u * g->unit + pl * g->spp;
    int log = 0;
    for (uint32_t k = 0; k < g->spp; k++) log |= f->gc_oob[first + k].lpa == TRIM_LOG_OOB;
    if (!log) continue;
    uint32_t tag = fop_alloc(f, FOP_RECOVERY_READ);
    f->fop[tag].gc_index = first;
    flash_submit(f, tag, SSD_FOP_READ, ppa + pl * g->spp, g->spp, hal_dram_addr(&f->gc_sgl[first]),
                 hal_dram_addr(&f->gc_oob[first]), SSD_FDF_SGL | SSD_FDF_PAYLOAD);
    f->stats->recovery_reads++;
    r->reads_left++;
  }
  return r->reads_left != 0;
}

/* A host sector's version at ppa: the newest wins (the older location becomes invalid). */
static void host_sector_found(struct ftl *f, uint32_t lpa, uint32_t seq, uint32_t ppa) {
  if (rec.l2p[lpa] != NONE32 && seq < rec.seq[lpa]) return;
  map_set_in(f, rec.l2p, lpa, ppa);
  rec.seq[lpa] = seq;
}

/* A copy of translation page tp at ppa: the newest becomes the GTD's (only the GTD's copy is
 * valid: GC keeps it, the rebuild replaces it). */
static void translation_page_found(struct ftl *f, uint32_t tp, uint32_t seq, uint32_t ppa) {
  if (!f->demand || tp >= f->dm.n_tp) return;   /* not this map's: left invalid */
  if (f->dm.gtd[tp] != NONE32 && seq < rec.tp_seq[tp]) return;
  if (f->dm.gtd[tp] == NONE32) f->stats->recovery_tp_found++;
  dmap_page_placed(f, tp, ppa, NONE32);
  rec.tp_seq[tp] = seq;
}

/* ftl.test_defect = recovery-skips-open-superblock: what the scan found in superblock sb is
 * dropped (a recovery that loses the open superblocks' data, for the tests to catch). */
static void forget_superblock(struct ftl *f, uint32_t sb) {
  const uint32_t first = sb * f->geo.sb_sectors, end = first + f->geo.sb_sectors;
  for (uint32_t lpa = 0; lpa < f->geo.logical_sectors; lpa++)
    if (rec.l2p[lpa] != NONE32 && rec.l2p[lpa] >= first && rec.l2p[lpa] < end) map_set_in(f, rec.l2p, lpa, NONE32);
}

/* The superpage just read: take its sectors' mappings, then move on. */
static void superpage_done(struct ftl *f, uint32_t d) {
  struct rec_die *r = &rec.die[d];
  const struct ftl_geo *g = &f->geo;
  struct pool_state *ps = &f->pool[r->pool];
  const uint32_t sb = r->sb;
  if (!r->erased && !r->log_read) {
    r->log_read = 1;
    if (read_log_sectors(f, d)) return;   /* back here once they are in */
  }
  r->log_read = 0;
  rec.busy--;
  if (!r->erased) {
    if (r->unreadable) f->stats->recovery_unreadable_pages++;
    if (r->unreadable != (1u << g->planes) - 1u) {
      const uint32_t base = sb * g->sb_sectors + r->page * g->unit;
      for (uint32_t k = 0; k < g->unit; k++) {
        if (r->unreadable >> (k / g->spp) & 1u) continue;
        const struct ssd_oob *o = &f->gc_oob[d * 2u * g->unit + k];
        if (o->seq != NONE32 && o->seq > rec.max_seq) rec.max_seq = o->seq;
        if (o->seq < f->sb_min_ver[sb]) f->sb_min_ver[sb] = o->seq;
        if (o->lpa == TRIM_LOG_OOB) {      /* read again with its data (read_log_sectors) */
          trim_log_found(f, hal_dram_ptr(f->gc_sgl[d * 2u * g->unit + k]));
          continue;
        }
        if (o->lpa != NONE32 && (o->seq & (VERSION_STEP - 1u))) r->copies = 1;
        if (o->lpa != NONE32 && (o->lpa & MAP_BIT)) {
          r->map = 1;
          translation_page_found(f, o->lpa & ~MAP_BIT, o->seq, base + k);
        } else if (o->lpa < g->logical_sectors) {
          host_sector_found(f, o->lpa, o->seq, base + k);
          if (r->lpa == NONE32) r->lpa = o->lpa;
        } else {
          continue;   /* padding */
        }
        if (o->seq > f->sb_closed_seq[sb]) f->sb_closed_seq[sb] = o->seq;
      }
    }
    if (r->page == 0) {
      /* It holds data: closed, out of the free list, until GC erases it. */
      f->stats->recovery_used_blocks++;
    }
    if (++r->page < ps->pages) return;   /* the next superpage */
  }
  /* Placement's own (combo's unit-mapped MLC) goes back to its owner, open again if partly
   * written. */
  const int placed = r->page > 0 && place_sb_recovered(f, r->pool, sb, r->lpa, r->page);
  if (r->erased && r->page > 0 && r->page < ps->pages) {
    /* Partly written: it is the pool's open GC superblock again if it holds copies, else its
     * host superblock (the other one if that is taken), from the next superpage on (closing
     * it would waste what a full drive may not have to spare); any further one is closed.
     * Of two with copies (with placement an MLC pool also has a migration superblock open)
     * GC gets the roomier: a pool that GC left without a free superblock has only that room
     * for the victim it did not finish (gc_pick_victim), and the superblock GC opened for
     * that victim had room for all of it. */
    f->stats->recovery_open_blocks++;
    if (f->cfg.test_defect == SSD_DEFECT_SKIP_OPEN_SB) forget_superblock(f, sb);   /* broken for the tests */
    if (placed) {
      /* its unit's open superblock again, or closed (place_sb_recovered) */
    } else if (r->map) {
      blocks_reopen(f, sb, STREAM_MAP, r->page);
    } else if (r->copies && ps->gc_sb != NONE32 && r->page < ps->gc_page) {
      const uint32_t other = ps->gc_sb, other_page = ps->gc_page;
      ps->gc_sb = NONE32;
      blocks_reopen(f, sb, STREAM_GC, r->page);
      if (!blocks_reopen(f, other, STREAM_HOST, other_page)) sb_set_state(f, other, SB_FULL);
    } else if (!((r->copies || ps->host_sb != NONE32) && blocks_reopen(f, sb, STREAM_GC, r->page))) {
      blocks_reopen(f, sb, STREAM_HOST, r->page);
    }
  }
  if (r->page > 0 && f->sb_state[sb] == SB_FREE) sb_set_state(f, sb, SB_FULL);   /* out of the free list below */
  f->sb_map[sb] = r->map;
  r->page = 0;
  r->copies = 0;
  r->map = 0;
  r->lpa = NONE32;
  next_sb(f, r, d);
}

static void recovery_read_done(struct ftl *f, uint32_t tag, const struct flash_result *res) {
  const uint16_t status = res->status;
  const struct ftl_geo *g = &f->geo;
  const uint32_t first = f->fop[tag].gc_index;
  const uint32_t d = first / (2u * g->unit);
  struct rec_die *r = &rec.die[d];
  if (status == SSD_FST_UNCORRECTABLE) r->unreadable |= (uint8_t)(1u << (first % g->unit / g->spp));
  else if (first % g->unit == 0 && f->gc_oob[first].lpa == NONE32 && f->gc_oob[first].seq == NONE32)
    r->erased = 1;   /* plane 0's first sector: every program starts at plane 0 or continues a
                        superpage whose plane 0 is programmed; erased pages read all ones */
  fop_release(f, tag);
  if (--r->reads_left == 0) superpage_done(f, d);
}

void versions_exhausted(struct ftl *f) {
  (void)f;
  hal_puts("fw: the 32-bit write versions ran out (2^30 sectors written since the drive was formatted): "
           "power-loss recovery could no longer order them\n");
  hal_halt(SSD_HALT_VERSIONS_EXHAUSTED);
}

/* A pool that comes back with no free superblock and no open GC superblock could never clean
 * again: gc_pick_victim finds no room for any victim.  It happens when the cut falls in the
 * first program into the superblock GC had just taken (the pool's last free one): that
 * superpage reads back uncorrectable, no copy is seen, and the superblock is taken for the
 * host's.  Its open host superblock becomes GC's: the host's next superblock there has to come
 * from GC anyway. */
static void give_gc_room(struct ftl *f) {
  for (uint32_t p = 0; p < f->geo.pools; p++) {
    struct pool_state *ps = &f->pool[p];
    if (ps->free_count || ps->gc_sb != NONE32 || ps->host_sb == NONE32 || ps->migrates_out) continue;
    const uint32_t sb = ps->host_sb;
    ps->host_sb = NONE32;
    blocks_reopen(f, sb, STREAM_GC, ps->host_page);
    f->stats->recovery_gc_room_pools++;
  }
}

static void recover(struct ftl *f) {
  const struct ftl_geo *g = &f->geo;
  /* Placement's state is soft (LAPT's ranks start again, SLC GC's FIFO order is the closing
   * versions the scan finds, combo's survival counts restart), except combo's unit-level MLC
   * map: each superblock's unit comes from the sectors the scan finds in it
   * (place_sb_recovered). */
  /* What the scan needs is freed when it is done (nothing is allocated after recovery). */
  const uint32_t heap_mark = f->heap.used;
  const uint32_t need = g->dies * (uint32_t)sizeof(struct rec_die) + g->logical_sectors * 4u +
                        (f->demand ? g->logical_sectors * 4u + f->dm.n_tp * 4u : 0u) + 256u;
  if (f->heap.size - f->heap.used < need)
    hal_fatal("fw: not enough free DRAM for the recovery scan (4 bytes per logical sector, 8 with a "
              "demand-based map)\n", SSD_HALT_BAD_CONFIG | SSD_BADCFG_RECOVERY);
  rec.die = fw_alloc(f, g->dies * (uint32_t)sizeof(struct rec_die), 16);
  rec.seq = fw_alloc(f, g->logical_sectors * 4u, 64);
  rec.l2p = f->l2p;
  if (f->demand) {
    rec.l2p = fw_alloc(f, g->logical_sectors * 4u, 64);
    for (uint32_t i = 0; i < g->logical_sectors; i++) rec.l2p[i] = NONE32;
    rec.tp_seq = fw_alloc(f, f->dm.n_tp * 4u, 64);
  }
  rec.busy = 0;
  rec.max_seq = 0;
  for (uint32_t d = 0; d < g->dies; d++) {
    rec.die[d].pool = d;
    rec.die[d].sb = NONE32;              /* next_sb: the pool's first, or the next pool's */
    next_sb(f, &rec.die[d], d);
    rec.die[d].page = 0;
    rec.die[d].reads_left = 0;
    rec.die[d].copies = 0;
    rec.die[d].map = 0;
    rec.die[d].lpa = NONE32;
  }
  f->cur = f->core[0];
  hal_write32(SSD_SYSCTL_BASE + SYSCTL_IRQ_ENABLE, SSD_IRQ_FCTL);
  for (;;) {
    for (uint32_t d = 0; d < g->dies; d++) {
      struct rec_die *r = &rec.die[d];
      if (!r->reads_left) skip_bad(f, d);
      if (r->pool == NONE32 || r->reads_left) continue;
      if (f->fops_inflight + g->planes > FOP_MAX || flash_ring_space(f, g->planes) < g->planes) break;
      submit_superpage(f, d);
    }
    flash_commit(f);
    if (!rec.busy) break;
    if (!flash_poll(f)) hal_wait_for_event();
  }
  blocks_drop_unfree(f);   /* superblocks found with data leave the free lists */
  slc_cache_recover(f);    /* borrowed superblocks found empty: erased in SLC mode again */
  give_gc_room(f);
  if (f->cfg.test_defect != SSD_DEFECT_TRIM_LOG_UNAPPLIED)   /* broken for the tests if so */
    trim_log_apply(f, rec.l2p, rec.seq);   /* before the demand map's pages are written from it */
  f->version_seq = rec.max_seq & ~(VERSION_STEP - 1u);
  f->write_seq = rec.max_seq;
  if (f->demand) map_rebuild_translation_pages(f, rec.l2p);
  f->heap.used = heap_mark;
  f->stats->recovered = 1;
}

/* The power-on scan's flash completions (core/flash_port.h). */
static const struct flash_owner recovery_read_owner = {SSD_FRSN_META, 0, recovery_read_done, 0};

void recovery_power_on(struct ftl *f) {
  flash_register(f, FOP_RECOVERY_READ, &recovery_read_owner);
  const uint32_t nv = SSD_SYSCTL_BASE + SYSCTL_NVRAM;
  const uint32_t want = geometry_hash(f);
  if (hal_read32(nv + 4u * SSD_NVRAM_FORMAT) == SSD_FORMAT_MAGIC_OCSSD)   /* the host's data: never format it */
    hal_fatal("fw: the NAND was formatted as an Open-Channel device\n", SSD_HALT_BAD_CONFIG | SSD_BADCFG_FORMAT);
  if (hal_read32(nv + 4u * SSD_NVRAM_FORMAT) != SSD_FORMAT_MAGIC) {
    /* A new drive: every block is erased, some are bad from the factory. */
    bbt_format(f);
    erase_log_format(f);
    hal_write32(nv + 4u * SSD_NVRAM_GEOMETRY, want);
    hal_write32(nv + 4u * SSD_NVRAM_FORMAT, SSD_FORMAT_MAGIC);
    return;
  }
  if (hal_read32(nv + 4u * SSD_NVRAM_GEOMETRY) != want)
    hal_fatal("fw: the NAND was formatted with another geometry or capacity\n", SSD_HALT_BAD_CONFIG | SSD_BADCFG_FORMAT);
  bbt_load(f);
  erase_log_load(f);
  blocks_regroup(f);
  recover(f);
}
