/* Garbage collection, per die: when a die's free superblocks fall below gc_low_blocks, pick
 * a victim (greedy: fewest valid sectors; FIFO: oldest; cost-benefit: Rosenblum's
 * age*(1-u)/(2u)), copy its valid sectors a superpage at a time into the die's GC superblock
 * (read, then program; the map moves only if the host did not overwrite meanwhile), erase
 * it, and keep going until gc_high_blocks are free.  Host reads and writes interleave with
 * GC operations in the die's queue.  Translation blocks (demand-based mapping) are victims
 * like data blocks: their pages (MAP_BIT in the reverse map) move to the die's
 * translation-page superblock and the GTD follows; moved data updates the map through the
 * mapping cache (conditionally: only if the host did not write the sector meanwhile), and
 * the victim is erased once every update has been applied.
 * With SLC/MLC placement (place/placement.h) an SLC die's victims are taken oldest first
 * (FIFO, whatever ftl.gc_policy says) and their valid sectors migrate to MLC dies' migration
 * superblocks (the copy waits while no MLC die has space) or, when the policy keeps them
 * (combo), into the die's own GC superblock; MLC dies clean inside MLC.  Dies marked for
 * idle-time migration (place/idle_migration.h) clean up to its target while the host is
 * idle and issue nothing once a host command has stopped it.
 * Leaves out: copyback (no data over the channel), wear levelling. */
#include "core/ftl.h"
#include "hal/hal.h"

uint32_t gc_pick_victim(const struct ftl *f, uint32_t die) {
  const struct ftl_geo *g = &f->geo;
  uint32_t best = NONE32;
  uint64_t best_score = 0;
  const int slc = place_slc_die(f, die);
  const uint32_t policy = slc ? SSD_GC_FIFO : f->cfg.gc_policy;
  const uint32_t capacity = f->die[die].sb_capacity;
  for (uint32_t b = 0; b < f->die[die].blocks; b++) {
    uint32_t sb = die * g->blocks + b;
    if (f->sb_state[sb] != SB_FULL || f->sb_progs_inflight[sb]) continue;
    uint32_t valid = f->sb_valid[sb];
    if (valid >= capacity && !slc) continue;   /* nothing to gain (SLC data may move on) */
    uint64_t score;
    switch (policy) {
      case SSD_GC_FIFO: score = (uint64_t)(f->write_seq - f->sb_closed_seq[sb]) + 1u; break;
      case SSD_GC_COST_BENEFIT: {
        uint64_t age = (uint64_t)(f->write_seq - f->sb_closed_seq[sb]) + 1u;
        uint64_t invalid = capacity - valid;
        score = (age * invalid * 1024u) / (2u * (uint64_t)valid + 1u);
        break;
      }
      default: score = capacity - valid; break;
    }
    if (score > best_score) { best_score = score; best = sb; }
  }
  return best;
}

/* Every GC flash operation: those of a die cleaning for idle migration after a host command
 * stopped it are counted (they must not happen: gc_step pauses such a die). */
static void note_gc_op(struct ftl *f, const struct die_state *ds) {
  if (ds->idle_gc && !idle_migration_running(&f->pl.idle)) f->stats->idle_ops_while_stopped++;
}

static uint32_t gc_index(const struct ftl *f, uint32_t die, uint32_t half, uint32_t k) {
  return (die * 2u + half) * f->geo.unit + k;
}

/* Reads valid sectors of the victim into the gathering half; returns work done. */
static int gc_issue_reads(struct ftl *f, uint32_t die) {
  struct die_state *ds = &f->die[die];
  const struct ftl_geo *g = &f->geo;
  int n = 0;
  uint32_t half = ds->gc_half;
  if (ds->gc_half_busy[half]) return 0;
  while (ds->victim_cursor < ds->sb_capacity && ds->gc_gathered + ds->gc_pending_reads < g->unit &&
         flash_can_submit(f)) {
    uint32_t ppa = ds->victim * g->sb_sectors + ds->victim_cursor;
    ds->victim_cursor++;
    if (f->p2l[ppa] == NONE32) continue;
    uint32_t k = ds->gc_gathered + ds->gc_pending_reads;
    uint32_t first = gc_index(f, die, half, k);
    uint32_t tag = fop_alloc(f, FOP_GC_READ);
    uint32_t nsect = 1;
    f->gc_src_ppa[first] = ppa;
    f->gc_lpa[first] = f->p2l[ppa];
    /* Take the following valid sectors of the same page and plane in the same read. */
    while (k + nsect < g->unit && ds->victim_cursor < ds->sb_capacity &&
           (ppa + nsect) % g->spp != 0 && f->p2l[ppa + nsect] != NONE32) {
      f->gc_src_ppa[first + nsect] = ppa + nsect;
      f->gc_lpa[first + nsect] = f->p2l[ppa + nsect];
      nsect++;
      ds->victim_cursor++;
    }
    ds->gc_pending_reads += nsect;
    note_gc_op(f, ds);
    f->fop[tag].gc_index = first;
    flash_submit(f, tag, SSD_FOP_READ, ppa, nsect, hal_dram_addr(&f->gc_sgl[first]),
                 hal_dram_addr(&f->gc_oob[first]), SSD_FDF_SGL | (f->sb_map[ds->victim] ? SSD_FDF_PAYLOAD : 0u));
    n++;
  }
  return n;
}

static int gc_issue_program(struct ftl *f, uint32_t die) {
  struct die_state *ds = &f->die[die];
  const struct ftl_geo *g = &f->geo;
  int victim_drained = ds->victim_cursor == ds->sb_capacity && ds->gc_pending_reads == 0;
  if (ds->gc_gathered == 0 || ds->gc_pending_reads) return 0;
  if (ds->gc_gathered < g->unit && !victim_drained) return 0;
  if (!flash_can_submit(f)) return 0;
  if (f->demand && f->dm.upd_waiters >= f->dm.upd_limit) return 0;   /* map updates behind */
  const int map = f->sb_map[ds->victim];
  const int migrate = !map && place_gc_migrates(f, die, ds->victim);
  uint32_t dst_die = migrate ? place_migration_die(f) : die;
  if (dst_die == NONE32) return 0;   /* no MLC die has space yet: its GC runs first */
  uint32_t dst = blocks_next_superpage(f, dst_die, map ? STREAM_MAP_GC : migrate ? STREAM_MIGRATE : STREAM_GC);
  if (dst == NONE32) {
    hal_puts("fw: GC found no free superblock\n");
    hal_halt(0x6C000000u | die);
    return 0;
  }
  uint32_t half = ds->gc_half;
  uint32_t tag = fop_alloc(f, FOP_GC_PROG);
  struct fop *op = &f->fop[tag];
  for (uint32_t k = 0; k < g->unit; k++) {
    uint32_t i = gc_index(f, die, half, k);
    op->slots[k] = (uint16_t)k;
    op->oob[k].seq = ++f->write_seq;
    if (k < ds->gc_gathered) {
      op->sgl[k] = f->gc_sgl[i];
      op->oob[k].lpa = f->gc_lpa[i];
    } else {
      op->sgl[k] = f->zero_sector_addr;
      op->oob[k].lpa = NONE32;
      f->stats->pad_sectors++;
    }
  }
  op->host_slot = (uint16_t)(half | (ds->gc_gathered << 1));
  op->gc_index = die;              /* the victim's die (the program may be on another) */
  f->stats->flash_prog_sectors += g->unit;
  f->stats->gc_prog_sectors += ds->gc_gathered;
  if (migrate) {
    f->stats->migrated_sectors += ds->gc_gathered;
    if (ds->idle_gc) f->stats->idle_migrated_sectors += ds->gc_gathered;
  } else if (!map && place_slc_die(f, die)) {
    f->stats->slc_kept_sectors += ds->gc_gathered;
    place_gc_copied(f, ds->victim, dst);
  }
  hal_cost(HAL_COST_GC_SECTOR, ds->gc_gathered);
  f->sb_progs_inflight[ppa_sb(f, dst)]++;
  ds->gc_half_busy[half] = 1;
  ds->gc_half ^= 1u;
  ds->gc_gathered = 0;
  ds->gc_progs_inflight++;
  note_gc_op(f, ds);
  flash_submit(f, tag, SSD_FOP_PROGRAM, dst, g->unit, hal_dram_addr(op->sgl),
               hal_dram_addr(op->oob), SSD_FDF_SGL | (map ? SSD_FDF_PAYLOAD : 0u));
  return 1;
}

static int gc_issue_erase(struct ftl *f, uint32_t die) {
  struct die_state *ds = &f->die[die];
  if (ds->erase_inflight || ds->victim_cursor < ds->sb_capacity || ds->gc_pending_reads ||
      ds->gc_gathered || ds->gc_progs_inflight || !flash_can_submit(f))
    return 0;
  if (f->sb_valid[ds->victim] != 0) {
    if (f->demand) return 0;           /* map updates of moved sectors still queued */
    hal_puts("fw: GC victim still holds valid data\n");
    hal_halt(0x6C100000u | ds->victim);
    return 0;
  }
  uint32_t tag = fop_alloc(f, FOP_ERASE);
  ds->erase_inflight = 1;
  note_gc_op(f, ds);
  flash_submit(f, tag, SSD_FOP_ERASE, ds->victim * f->geo.sb_sectors, 0, 0, 0, 0);
  return 1;
}

void gc_watch(struct ftl *f, uint32_t die) {
  if (f->die[die].gc_listed) return;
  f->die[die].gc_listed = 1;
  f->gc_dies[f->gc_ndies++] = die;
}

/* Advances cleaning on every die that needs it; a die leaves the list once it has
 * gc_high_blocks free and no victim. */
int gc_step(struct ftl *f) {
  int n = 0;
  for (uint32_t i = 0; i < f->gc_ndies;) {
    const uint32_t die = f->gc_dies[i];
    struct die_state *ds = &f->die[die];
    if (ds->idle_gc && !idle_migration_running(&f->pl.idle)) {   /* a host command stopped it */
      if (ds->victim != NONE32 && ds->free_count >= f->cfg.gc_low_blocks) {
        i++;                               /* paused, its victim half cleaned */
        continue;
      }
      ds->idle_gc = 0;                     /* needed now (or nothing begun): plain GC */
    }
    if (ds->victim == NONE32) {
      uint32_t threshold = ds->gc_active ? f->cfg.gc_high_blocks : f->cfg.gc_low_blocks;
      if (ds->idle_gc && idle_target_free(f, die) > threshold) threshold = idle_target_free(f, die);
      if (ds->free_count >= threshold) {
        if (ds->idle_gc) {
          ds->idle_gc = 0;
          idle_die_done(f);
        }
        ds->gc_active = 0;
        ds->gc_listed = 0;
        f->gc_dies[i] = f->gc_dies[--f->gc_ndies];
        continue;
      }
      if (!ds->idle_gc || ds->free_count < f->cfg.gc_low_blocks) ds->gc_active = 1;   /* needed */
      uint32_t v = gc_pick_victim(f, die);
      if (v != NONE32) {
        ds->victim = v;
        ds->victim_cursor = 0;
        f->sb_state[v] = SB_VICTIM;
      }
    }
    if (ds->victim != NONE32) {
      n += gc_issue_reads(f, die);
      n += gc_issue_program(f, die);
      n += gc_issue_erase(f, die);
    }
    i++;
  }
  return n;
}

void gc_read_done(struct ftl *f, uint32_t tag) {
  struct fop *op = &f->fop[tag];
  struct die_state *ds = &f->die[op->die];
  const uint32_t first = op->gc_index;
  for (uint32_t k = 0; k < op->nsect; k++) {
    if (f->gc_oob[first + k].lpa != f->gc_lpa[first + k]) {
      hal_puts("fw: GC read OOB disagrees with the reverse map\n");
      hal_halt(0x6C200000u | op->die);
    }
  }
  ds->gc_gathered += op->nsect;
  ds->gc_pending_reads -= op->nsect;
  fop_release(f, tag);
}

void gc_program_done(struct ftl *f, uint32_t tag) {
  struct fop *op = &f->fop[tag];
  const uint32_t vdie = op->gc_index;          /* the victim's die */
  struct die_state *ds = &f->die[vdie];
  uint32_t half = op->host_slot & 1u, count = op->host_slot >> 1;
  for (uint32_t k = 0; k < count; k++) {
    uint32_t i = gc_index(f, vdie, half, k);
    uint32_t lpa = f->gc_lpa[i];
    if (lpa & MAP_BIT) {
      dmap_page_placed(f, lpa & ~MAP_BIT, op->ppa + k, f->gc_src_ppa[i]);
      f->stats->map_gc_moves++;
    } else {
      map_update(f, lpa, op->ppa + k, f->gc_src_ppa[i], NONE32);
    }
  }
  f->sb_progs_inflight[ppa_sb(f, op->ppa)]--;
  ds->gc_half_busy[half] = 0;
  ds->gc_progs_inflight--;
  fop_release(f, tag);
}

void gc_erase_done(struct ftl *f, uint32_t tag) {
  struct fop *op = &f->fop[tag];
  struct die_state *ds = &f->die[op->die];
  uint32_t sb = ds->victim;
  f->sb_erases[sb]++;
  place_sb_erased(f, sb);
  f->stats->erases++;
  f->stats->gc_runs++;
  if (f->sb_map[sb]) f->stats->map_gc_runs++;
  if (f->pl.regions > 1) {
    if (f->pl.die_region[op->die] == REGION_SLC) f->stats->slc_gc_runs++;
    else f->stats->mlc_gc_runs++;
  }
  blocks_put_free(f, sb);
  ds->victim = NONE32;
  ds->erase_inflight = 0;
  fop_release(f, tag);
}
