/* Bad-block table and read-only mode: see bad_blocks.h. */
#include "core/ftl.h"
#include "hal/hal.h"
#include "media/nor.h"

/* ------------------------------------------------------------------ the table in the NOR */
/* Two bitmaps, a bit per superblock, 1 = good (media/nor.h): every bad superblock in the first,
 * those bad from the factory also in the second (so that a used drive still tells them apart). */
static uint32_t table_word(uint32_t nor_bytes, int factory, uint32_t sb) {
  return (factory ? nor_factory_offset(nor_bytes) : nor_bbt_offset(nor_bytes)) + sb / 32u * 4u;
}

void bbt_nor_mark_bad(uint32_t nor_bytes, uint32_t sb, int factory) {
  nor_program(table_word(nor_bytes, 0, sb), ~(1u << (sb % 32u)));   /* clears only that bit */
  if (factory) nor_program(table_word(nor_bytes, 1, sb), ~(1u << (sb % 32u)));
}

uint32_t bbt_nor_bad_word(uint32_t nor_bytes, int factory, uint32_t sb) {
  return ~nor_read(table_word(nor_bytes, factory, sb));
}

/* ------------------------------------------------------------------ capacity and read-only */
/* The drive goes read-only when its good superblocks hold less than the logical space plus,
 * per pool, its gc_low + 1 superblocks: the room GC needs to keep cleaning.  A superblock
 * counts at its home pool's capacity (a dynamic SLC cache gives back what it borrows). */
static void check_spare(struct ftl *f) {
  struct bad_blocks *b = &f->bb;
  const struct ftl_geo *g = &f->geo;
  if (b->read_only) return;
  uint64_t good = 0, need = g->logical_sectors;
  for (uint32_t p = 0; p < g->pools; p++) {
    const struct pool_state *ps = &f->pool[p];
    for (uint32_t sb = ps->span_first; sb < ps->span_first + ps->span; sb++)
      good += sb_home_pool(f, sb) == p && f->sb_state[sb] != SB_BAD ? ps->sb_capacity : 0u;
    need += (uint64_t)(ps->gc_low + 1u) * ps->sb_capacity;
  }
  if (good >= need) return;
  b->read_only = 1;
  f->stats->read_only = 1;
  hal_puts("fw: the spare blocks ran out: the drive is read-only\n");
}

/* sb is out of use: the free lists never see it again. */
static void mark_bad(struct ftl *f, uint32_t sb) {
  sb_set_state(f, sb, SB_BAD);
  sb_valid_clear(f, sb);
  f->sb_map[sb] = 0;
  f->sb_min_ver[sb] = NONE32;      /* its old versions hold no trim-log record back */
}

/* The factory scan's flash completions (core/flash_port.h). */
static const struct flash_owner bbt_scan_owner;

void bbt_init(struct ftl *f) {
  flash_register(f, FOP_BBT_READ, &bbt_scan_owner);
  const struct ftl_geo *g = &f->geo;
  struct bad_blocks *b = &f->bb;
  b->nor_bytes = nor_size();
  if (!nor_fits(b->nor_bytes, g->superblocks))
    hal_fatal("fw: the SPI NOR cannot hold the bad-block table and the erase-count log\n", SSD_HALT_BAD_CONFIG | SSD_BADCFG_BBT);
  b->retiring = fw_alloc(f, g->superblocks, 64);
  b->read_only = 0;
}

/* ------------------------------------------------------------------ the factory scan */
static void bbt_scan_read_done(struct ftl *f, uint32_t tag, const struct flash_result *r) {
  const uint32_t i = f->fop[tag].gc_index;
  /* A block never written reads all ones; the factory's marker is anything else. */
  (void)r;   /* the marker is read raw: no ECC verdict applies to it */
  if (f->gc_oob[i].lpa != NONE32 || f->gc_oob[i].seq != NONE32) {
    const uint32_t sb = ppa_sb(f, f->fop[tag].ppa);
    if (f->sb_state[sb] != SB_BAD) {
      mark_bad(f, sb);
      bbt_nor_mark_bad(f->bb.nor_bytes, sb, 1);
      f->stats->factory_bad_superblocks++;
    }
  }
  fop_release(f, tag);
}

/* Waits until every scan read is back (functional mode: each completes when the doorbell rings). */
static void scan_drain(struct ftl *f) {
  flash_commit(f);
  while (f->fops_inflight)
    if (!flash_poll(f)) hal_wait_for_event();
}

void bbt_format(struct ftl *f) {
  const struct ftl_geo *g = &f->geo;
  const uint32_t bufs = 2u * g->unit;            /* pool 0's GC buffers, idle at boot */
  uint32_t n = 0;
  f->cur = f->core[0];
  hal_write32(SSD_SYSCTL_BASE + SYSCTL_FW_STATE, SSD_FW_STATE_PRECOND);   /* the factory's time */
  hal_write32(SSD_FCTL_BASE + FCTL_FUNCTIONAL, 1);
  for (uint32_t p = 0; p < g->pools; p++) {
    for (uint32_t sb = pool_sb_first(f, p); sb != NONE32; sb = pool_sb_next(f, p, sb)) {
      for (uint32_t pl = 0; pl < g->planes; pl++) {
        if (n == bufs || !flash_can_submit(f)) {
          scan_drain(f);
          n = 0;
        }
        const uint32_t tag = fop_alloc(f, FOP_BBT_READ);
        const uint32_t i = n++;
        f->fop[tag].gc_index = i;
        flash_submit(f, tag, SSD_FOP_READ, sb * g->sb_sectors + pl * g->spp, 1, hal_dram_addr(&f->gc_sgl[i]),
                     hal_dram_addr(&f->gc_oob[i]), SSD_FDF_SGL);
        f->stats->flash_reads--;                  /* the factory's, not the drive's */
      }
    }
  }
  scan_drain(f);
  hal_write32(SSD_FCTL_BASE + FCTL_FUNCTIONAL, 0);
  hal_write32(SSD_SYSCTL_BASE + SYSCTL_FW_STATE, SSD_FW_STATE_BOOT);
  blocks_drop_unfree(f);
  check_spare(f);
}

void bbt_load(struct ftl *f) {
  const struct ftl_geo *g = &f->geo;
  uint32_t bad = 0, factory = 0;
  for (uint32_t sb = 0; sb < g->superblocks; sb++) {
    if (sb % 32u == 0) {
      bad = bbt_nor_bad_word(f->bb.nor_bytes, 0, sb);
      factory = bad ? bbt_nor_bad_word(f->bb.nor_bytes, 1, sb) : 0u;
    }
    if (!(bad >> (sb % 32u) & 1u)) continue;
    mark_bad(f, sb);   /* only superblocks of a pool were ever marked */
    if (factory >> (sb % 32u) & 1u) f->stats->factory_bad_superblocks++;
    else f->stats->grown_bad_superblocks++;
  }
  blocks_drop_unfree(f);
  check_spare(f);
}

/* ------------------------------------------------------------------ grown bad blocks */
void bbt_program_failed(struct ftl *f, uint32_t sb) {
  struct bad_blocks *b = &f->bb;
  if (b->retiring[sb] || f->sb_state[sb] == SB_BAD) return;
  b->retiring[sb] = 1;
  blocks_close(f, sb);
  struct pool_state *ps = &f->pool[sb_pool(f, sb)];
  ps->retiring++;
  f->stats->retiring_superblocks++;
  gc_watch(f, sb_pool(f, sb));
}

void bbt_retire(struct ftl *f, uint32_t sb) {
  struct bad_blocks *b = &f->bb;
  if (b->retiring[sb]) {
    b->retiring[sb] = 0;
    f->pool[sb_pool(f, sb)].retiring--;
    f->stats->retiring_superblocks--;
  }
  bbt_nor_mark_bad(f->bb.nor_bytes, sb, 0);             /* persisted before anything relies on it */
  mark_bad(f, sb);
  place_sb_erased(f, sb);          /* placement forgets it as it would an erased one */
  f->stats->grown_bad_superblocks++;
  check_spare(f);
}

static const struct flash_owner bbt_scan_owner = {SSD_FRSN_META, 0, bbt_scan_read_done, 0};
