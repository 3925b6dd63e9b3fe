/* Failed programs written again: see program_retry.h. */
#include "core/ftl.h"
#include "hal/hal.h"

void program_retry_init(struct ftl *f) { f->pr.head = f->pr.tail = NONE32; }

void program_failed(struct ftl *f, uint32_t tag, const struct flash_result *r) {
  (void)r;
  struct fop *op = &f->fop[tag];
  const uint32_t sb = ppa_sb(f, op->ppa);
  if (place_groups_region(f, f->pl.pool_region[sb_pool(f, sb)]))
    hal_fatal("fw: a program failed in a unit-mapped superblock (ftl.combo.unit_blocks): not handled\n", 0xBB000001u);
  f->stats->program_failures++;
  bbt_program_failed(f, sb);
  sb_progs_dec(f, sb);
  if (op->kind == FOP_HOST_PROG) f->die_progs[op->die]--;
  /* Queued in failure order; op->ppa still names the failed superpage (its stream and pool). */
  op->next_free = NONE32;
  if (f->pr.tail == NONE32) f->pr.head = tag;
  else f->fop[f->pr.tail].next_free = tag;
  f->pr.tail = tag;
}

int program_retry_step(struct ftl *f) {
  const struct ftl_geo *g = &f->geo;
  int n = 0;
  while (f->pr.head != NONE32 && flash_can_submit(f)) {
    const uint32_t tag = f->pr.head;
    struct fop *op = &f->fop[tag];
    const uint32_t old_sb = ppa_sb(f, op->ppa);
    const uint32_t ppa = blocks_next_superpage_spill(f, sb_pool(f, old_sb), f->sb_stream[old_sb]);
    if (ppa == NONE32) break;              /* no room now: GC frees some */
    f->pr.head = op->next_free;
    if (f->pr.head == NONE32) f->pr.tail = NONE32;
    const uint32_t sb = ppa_sb(f, ppa);
    sb_progs_inc(f, sb);
    switch (op->kind) {                     /* what the owner counts per superblock or die */
      case FOP_HOST_PROG: f->die_progs[sb_die(f, sb)]++; break;
      case FOP_TRIM_LOG_PROG: trim_log_program_moved(f, sb); break;
      default: break;
    }
    if (op->nsect < g->unit) wbuf_pad(f, op, op->nsect, g->unit);   /* write-through's pages: a whole superpage now */
    f->stats->flash_prog_sectors += g->unit;
    f->stats->program_retry_sectors += g->unit;
    flash_submit(f, tag, SSD_FOP_PROGRAM, ppa, g->unit, hal_dram_addr(op->sgl), hal_dram_addr(op->oob), op->flags);
    n++;
  }
  return n;
}
