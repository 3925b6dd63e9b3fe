/* The trim log: see trim_log.h. */
#include "recovery/trim_log.h"
#include "core/ftl.h"
#include "hal/hal.h"
#include <stdlib.h>

#define TRIM_LOG_MAGIC 0x474C5254u   /* "TRLG" */

/* A log sector: a header, then records. */
struct trim_log_sector {
  uint32_t magic;
  uint32_t gen;         /* its generation */
  uint32_t index;       /* its place in the generation, of `sectors` */
  uint32_t sectors;
  uint32_t nrec;        /* records in this sector */
  struct trim_rec rec[];
};
#define RECS_PER_SECTOR ((SECTOR_BYTES - (uint32_t)sizeof(struct trim_log_sector)) / (uint32_t)sizeof(struct trim_rec))

/* Trim-log programs' flash completions (core/flash_port.h); a failed one goes to
 * media/program_retry.h. */
static const struct flash_owner trim_log_owner;

void trim_log_init(struct ftl *f) {
  flash_register(f, FOP_TRIM_LOG_PROG, &trim_log_owner);
  struct trim_log *l = &f->tl;
  const struct ftl_geo *g = &f->geo;
  /* Room for a record per 256 logical sectors, at least 16 log sectors' worth. */
  uint32_t cap = g->logical_sectors / 256u;
  if (cap < 16u * RECS_PER_SECTOR) cap = 16u * RECS_PER_SECTOR;
  const uint32_t image_sectors = (cap + RECS_PER_SECTOR - 1u) / RECS_PER_SECTOR;
  l->cap = image_sectors * RECS_PER_SECTOR;
  l->rec = fw_alloc(f, l->cap * (uint32_t)sizeof(struct trim_rec), 64);
  l->image = hal_dram_addr(fw_alloc(f, image_sectors * SECTOR_BYTES, SECTOR_BYTES));
  l->sb_gen = fw_alloc(f, g->superblocks * 4u, 64);
  for (uint32_t sb = 0; sb < g->superblocks; sb++) l->sb_gen[sb] = 0;
  l->count = l->gen = 0;
  l->writing = l->dirty = 0;
  l->next_die = 0;
}

/* The smallest version a record must be newer than to be needed: every version on flash in a
 * superblock that may hold an invalid sector, and every trim whose map update is pending (the
 * sectors it drops are still valid). */
static uint32_t version_floor(const struct ftl *f) {
  const struct ftl_geo *g = &f->geo;
  uint32_t floor = NONE32;
  for (uint32_t sb = 0; sb < g->superblocks; sb++) {
    if (f->sb_state[sb] == SB_FREE) continue;
    if (f->sb_state[sb] == SB_FULL && f->sb_valid[sb] >= f->pool[sb_pool(f, sb)].sb_capacity) continue;
    if (f->sb_min_ver[sb] < floor) floor = f->sb_min_ver[sb];
  }
  for (uint32_t t = f->trim_head; t != NONE32; t = f->hc[t].next)
    if (f->hc[t].trim_ver < floor) floor = f->hc[t].trim_ver;
  return floor;
}

/* Drops the records no longer needed (trim_log.h), keeping the order. */
static void compact(struct ftl *f) {
  struct trim_log *l = &f->tl;
  const uint32_t floor = version_floor(f);
  uint32_t kept = 0;
  for (uint32_t i = 0; i < l->count; i++) {
    struct trim_rec r = l->rec[i];
    if (r.ver <= floor) continue;          /* no older version of its sectors is left */
    if (!f->demand) {                      /* sectors written since: their new version wins */
      while (r.n && f->l2p[r.lpa] != NONE32) { r.lpa++; r.n--; }
      while (r.n && f->l2p[r.lpa + r.n - 1u] != NONE32) r.n--;
      if (r.n == 0) continue;
    }
    l->rec[kept++] = r;
  }
  l->count = kept;
}

int trim_log_add(struct ftl *f, uint32_t lpa, uint32_t n, uint32_t ver) {
  struct trim_log *l = &f->tl;
  if (l->count == l->cap && !l->writing) compact(f);
  if (l->count == l->cap) {
    f->stats->trims_ignored++;
    return 0;
  }
  l->rec[l->count++] = (struct trim_rec){lpa, n, ver};
  l->dirty = 1;
  if (l->count > f->stats->trim_log_peak) f->stats->trim_log_peak = l->count;
  return 1;
}

/* A new generation: the records still needed, laid out in the image. */
static void start_generation(struct ftl *f, uint32_t pool) {
  struct trim_log *l = &f->tl;
  compact(f);
  l->pool = pool;
  l->writing = 1;
  l->dirty = 0;
  l->wgen = l->gen + 1u;
  l->wsectors = (l->count + RECS_PER_SECTOR - 1u) / RECS_PER_SECTOR;
  l->wnext = 0;
  l->wprogs = 0;
  for (uint32_t s = 0; s < l->wsectors; s++) {
    struct trim_log_sector *sec = hal_dram_ptr(l->image + s * SECTOR_BYTES);
    const uint32_t first = s * RECS_PER_SECTOR;
    const uint32_t n = l->count - first < RECS_PER_SECTOR ? l->count - first : RECS_PER_SECTOR;
    sec->magic = TRIM_LOG_MAGIC;
    sec->gen = l->wgen;
    sec->index = s;
    sec->sectors = l->wsectors;
    sec->nrec = n;
    for (uint32_t i = 0; i < n; i++) sec->rec[i] = l->rec[first + i];
  }
  hal_cost(HAL_COST_SECTOR, l->wsectors);
  f->progress++;
}

static void generation_done(struct trim_log *l) {
  l->writing = 0;
  l->gen = l->wgen;
}

int trim_log_erase_ok(struct ftl *f, uint32_t sb) {
  struct trim_log *l = &f->tl;
  if (l->writing) return 0;
  if (l->count == 0) return 1;             /* nothing needed (older generations are harmless) */
  if (!l->dirty && !(l->gen && l->sb_gen[sb] == l->gen)) return 1;
  start_generation(f, sb_pool(f, sb));
  if (l->wsectors == 0) {                  /* every record dropped */
    generation_done(l);
    return 1;
  }
  return 0;
}

/* Where the next log superpage goes: the GC superblock of the pool whose erase waits (GC keeps
 * the room for it: no spare is set aside for the log); in a pool of combo's unit-mapped MLC,
 * whose GC copies go into the victim's unit instead (place/unit_map.h) and may have taken the
 * pool's last free superblock for it, the superblock of that unit its copies went to (or one
 * the victim's erase gives back); else the translation-page stream of a die with two free
 * superblocks or more (its GC keeps the last); else that stream in any pool with a free
 * superblock beyond its GC's reserve (a victim of no unit in such a pool, or the SLC pools
 * having the only room: found writing on after a power cut). */
static uint32_t next_superpage(struct ftl *f) {
  struct trim_log *l = &f->tl;
  const struct ftl_geo *g = &f->geo;
  const struct pool_state *ps = &f->pool[l->pool];
  if (ps->gc_sb != NONE32 || ps->free_count > 0) return blocks_next_superpage(f, l->pool, STREAM_GC);
  uint32_t ppa = place_gc_unit_superpage(f, l->pool);
  if (ppa != NONE32) return ppa;
  ppa = blocks_next_map_superpage(f, &l->next_die, f->dm.tp_reserve > 1u ? f->dm.tp_reserve : 1u);
  if (ppa != NONE32) return ppa;
  for (uint32_t q = 0; q < g->pools; q++)
    if (f->pool[q].map_sb != NONE32 || f->pool[q].free_count > GC_RESERVE + f->host_reserve)
      return blocks_next_superpage(f, q, STREAM_MAP);
  /* Every die down to its GC's last free superblock: the GC stream of a pool whose victim waits
   * only for this log (drained: nothing valid, nothing in flight), whose erase gives the
   * superblock back, or an open GC superblock of any pool.  Without it every victim waited for
   * the log and the log for a superblock only an erase could free (ComboFTL with full MLC
   * pools, docs/reliability.md). */
  for (uint32_t q = 0; q < g->pools; q++) {
    const struct pool_state *qs = &f->pool[q];
    const int drained = qs->victim != NONE32 && f->sb_valid[qs->victim] == 0 && qs->victim_cursor == qs->sb_capacity &&
                        qs->gc_rescan == NONE32 && !qs->gc_pending_reads && !qs->gc_gathered && !qs->gc_progs_inflight;
    if (qs->gc_sb != NONE32 || (drained && qs->free_count > 0)) return blocks_next_superpage(f, q, STREAM_GC);
  }
  return NONE32;
}

int trim_log_step(struct ftl *f) {
  struct trim_log *l = &f->tl;
  const struct ftl_geo *g = &f->geo;
  int n = 0;
  while (l->wnext < l->wsectors && flash_can_submit(f)) {
    const uint32_t ppa = next_superpage(f);
    if (ppa == NONE32) break;              /* no room now: another die's GC frees some */
    const uint32_t tag = fop_alloc(f, FOP_TRIM_LOG_PROG);
    struct fop *op = &f->fop[tag];
    for (uint32_t k = 0; k < g->unit; k++) {
      op->oob[k].seq = next_version(f);
      op->slots[k] = NONE32;
      f->write_seq++;
      if (l->wnext < l->wsectors) {
        op->sgl[k] = l->image + l->wnext * SECTOR_BYTES;
        op->oob[k].lpa = TRIM_LOG_OOB;
        l->wnext++;
        f->stats->trim_log_sectors++;
      } else {
        op->sgl[k] = f->zero_sector_addr;
        op->oob[k].lpa = NONE32;
        f->stats->pad_sectors++;
      }
    }
    l->sb_gen[ppa_sb(f, ppa)] = l->wgen;
    sb_progs_inc(f, ppa_sb(f, ppa));
    f->stats->flash_prog_sectors += g->unit;
    l->wprogs++;
    flash_submit(f, tag, SSD_FOP_PROGRAM, ppa, g->unit, hal_dram_addr(op->sgl), hal_dram_addr(op->oob),
                 SSD_FDF_SGL | SSD_FDF_PAYLOAD);
    n++;
  }
  return n;
}

void trim_log_program_moved(struct ftl *f, uint32_t sb) { f->tl.sb_gen[sb] = f->tl.wgen; }

static void trim_log_program_done(struct ftl *f, uint32_t tag, const struct flash_result *r) {
  (void)r;
  struct trim_log *l = &f->tl;
  sb_progs_dec(f, ppa_sb(f, f->fop[tag].ppa));
  fop_release(f, tag);
  if (--l->wprogs == 0 && l->wnext == l->wsectors) {
    generation_done(l);
    f->stats->trim_log_generations++;
  }
}

/* ------------------------------------------------------------------------------ recovery */
static int by_version(const void *a, const void *b) {
  const uint32_t x = ((const struct trim_rec *)a)->ver, y = ((const struct trim_rec *)b)->ver;
  return x < y ? -1 : x > y;
}

/* Generations repeat records: oldest first, each trim once (a trim's version is its own; a
 * generation may hold it clipped, any of its copies will do). */
static void dedupe(struct trim_log *l) {
  qsort(l->rec, l->count, sizeof(struct trim_rec), by_version);
  uint32_t kept = 0;
  for (uint32_t i = 0; i < l->count; i++)
    if (kept == 0 || l->rec[i].ver != l->rec[kept - 1u].ver) l->rec[kept++] = l->rec[i];
  l->count = kept;
}

void trim_log_found(struct ftl *f, const void *sector) {
  struct trim_log *l = &f->tl;
  const struct trim_log_sector *sec = sector;
  if (sec->magic != TRIM_LOG_MAGIC || sec->nrec > RECS_PER_SECTOR) return;   /* not one of ours */
  if (sec->gen > l->gen) l->gen = sec->gen;   /* new generations number on from the newest */
  for (uint32_t i = 0; i < sec->nrec; i++) {
    const struct trim_rec *r = &sec->rec[i];
    if (r->n == 0 || r->lpa >= f->geo.logical_sectors || r->n > f->geo.logical_sectors - r->lpa) continue;
    f->stats->recovery_trim_records++;
    if (l->count == l->cap) dedupe(l);
    if (l->count == l->cap)   /* (a generation holds at most cap records) */
      hal_fatal("fw: more trim records on flash than the trim log holds\n", SSD_HALT_BAD_CONFIG | SSD_BADCFG_RECOVERY);
    l->rec[l->count++] = *r;
  }
}

void trim_log_apply(struct ftl *f, uint32_t *l2p, const uint32_t *seq) {
  struct trim_log *l = &f->tl;
  dedupe(l);
  for (uint32_t i = 0; i < l->count; i++) {
    const struct trim_rec *r = &l->rec[i];
    for (uint32_t lpa = r->lpa; lpa < r->lpa + r->n; lpa++)
      if (l2p[lpa] != NONE32 && seq[lpa] < r->ver) map_set_in(f, l2p, lpa, NONE32);
  }
  l->dirty = l->count != 0;                /* the next erase writes them afresh */
  if (l->count > f->stats->trim_log_peak) f->stats->trim_log_peak = l->count;
}

static const struct flash_owner trim_log_owner = {SSD_FRSN_META, SSD_FST_PROGRAM_FAIL, trim_log_program_done,
                                                  program_failed};
