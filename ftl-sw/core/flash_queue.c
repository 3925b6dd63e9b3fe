/* Flash submission and completion rings: the firmware's side of the flash controller.
 * A flash operation in flight is a `struct fop`, named by its index (the descriptor tag).
 * A core submits on its own ring and the operation completes on its own completion ring
 * (core/fw_core.h); the fop table is shared.
 * Doorbells are rung once per event-loop pass (flash_commit), as a real controller's
 * firmware batches MMIO writes. */
#include "core/ftl.h"
#include "hal/hal.h"

void flash_register(struct ftl *f, uint8_t kind, const struct flash_owner *owner) {
  if (kind == FOP_FREE || kind >= FOP_KINDS) hal_fatal("fw: flash owner registered for no kind\n", 0xF1A7FFFFu);
  f->flash_owner[kind] = owner;
}

uint32_t fop_alloc(struct ftl *f, uint8_t kind) {
  uint32_t t = f->fop_free;
  if (t == NONE32) return NONE32;
  f->fop_free = f->fop[t].next_free;
  f->fop[t].kind = kind;
  f->fop[t].reason = kind < FOP_KINDS && f->flash_owner[kind] ? f->flash_owner[kind]->reason : SSD_FRSN_UNKNOWN;
  f->fops_inflight++;
  return t;
}

void fop_release(struct ftl *f, uint32_t tag) {
  f->fop[tag].kind = FOP_FREE;
  f->fop[tag].next_free = f->fop_free;
  f->fop_free = tag;
  f->fops_inflight--;
}

uint32_t flash_ring_space(struct ftl *f, uint32_t want) {
  struct ring_pos *p = &f->cur->fsub_pos;
  uint32_t space = p->size - 1u - (p->tail - p->head);
  if (space >= want) return space;
  /* Not enough as far as we know: learn how far the controller got. */
  p->head = hal_read32(f->cur->fctl + FCTL_SUB_HEAD);
  return p->size - 1u - (p->tail - p->head);
}

int flash_can_submit(struct ftl *f) {
  return f->fop_free != NONE32 && flash_ring_space(f, 1) >= 1;
}

void flash_submit(struct ftl *f, uint32_t tag, uint8_t opcode, uint32_t ppa, uint32_t nsect,
                  uint32_t dram_addr, uint32_t oob_addr, uint32_t flags) {
  const struct ftl_geo *g = &f->geo;
  uint32_t sb = ppa / g->sb_sectors, off = ppa % g->sb_sectors;
  uint32_t die = sb / g->blocks;
  struct fw_core *c = f->cur;
  struct ssd_flash_desc *d = &c->fsub[c->fsub_pos.tail & (c->fsub_pos.size - 1u)];
  d->opcode = opcode;
  d->channel = (uint8_t)(die % g->channels);
  d->way = (uint8_t)(die / g->channels);
  d->block = (uint16_t)(sb % g->blocks);
  d->page = (uint16_t)(off / g->unit);
  d->dram_addr = dram_addr;
  d->oob_addr = oob_addr;
  d->tag = tag;
  d->flags = flags;
  d->reason = f->fop[tag].reason;
  d->rsvd[0] = d->rsvd[1] = d->rsvd[2] = 0;
  if (opcode == SSD_FOP_READ) {
    uint32_t plane = (off % g->unit) / g->spp;
    d->plane_mask = (uint8_t)(1u << plane);
    d->sect_off = (uint16_t)(off % g->spp);
    d->nsect = (uint16_t)nsect;
    f->stats->flash_reads++;
  } else if (opcode == SSD_FOP_PROGRAM) {   /* whole pages from ppa's plane on: nsect / spp planes */
    const uint32_t first = (off % g->unit) / g->spp;
    d->plane_mask = (uint8_t)(((1u << (nsect / g->spp)) - 1u) << first);
    d->sect_off = 0;
    d->nsect = (uint16_t)g->spp;
  } else {
    d->plane_mask = (uint8_t)((1u << g->planes) - 1u);
    d->sect_off = 0;
    d->nsect = (uint16_t)g->spp;
  }
  if (opcode == SSD_FOP_PROGRAM)   /* the superblock's oldest version (recovery/trim_log.h) */
    for (uint32_t k = 0; k < nsect; k++)
      if (f->fop[tag].oob[k].seq < f->sb_min_ver[sb]) f->sb_min_ver[sb] = f->fop[tag].oob[k].seq;
  f->fop[tag].die = die;
  f->fop[tag].flags = flags;
  f->die_ops[die]++;
  f->fop[tag].ppa = ppa;
  f->fop[tag].nsect = nsect;
  c->fsub_pos.tail++;
  c->fsub_dirty = 1;
  hal_cost(HAL_COST_FLASH_SUBMIT, 1);
}

void flash_commit(struct ftl *f) {
  struct fw_core *c = f->cur;
  if (!c->fsub_dirty) return;
  c->fsub_dirty = 0;
  hal_write32(c->fctl + FCTL_SUB_TAIL, c->fsub_pos.tail);
}

/* A completion goes to the owner its kind registered (core/flash_port.h). */
static void flash_done(struct ftl *f, const struct ssd_flash_cpl *c) {
  uint32_t tag = c->tag;
  /* What the controller hands back is checked before the FTL trusts it: a tag that names no
   * operation in flight, or a status no controller posts, is a platform fault. */
  if (tag >= FOP_MAX || f->fop[tag].kind == FOP_FREE)
    hal_fatal("fw: flash completion for no operation in flight\n", 0xF1A5FFFFu);
  if (c->status > SSD_FST_BAD_DESC) hal_fatal("fw: flash completion with an unknown status\n", 0xF1A60000u | c->status);
  const uint8_t kind = f->fop[tag].kind;
  const struct flash_owner *o = kind < FOP_KINDS ? f->flash_owner[kind] : 0;
  if (!o) hal_fatal("fw: completion of a kind no module owns\n", 0xF1A70000u | kind);
  const int failure = c->status == SSD_FST_PROGRAM_FAIL || c->status == SSD_FST_ERASE_FAIL;
  if (c->status == SSD_FST_BAD_DESC ||   /* the platform reports the details */
      (failure && c->status != o->takes_failure))
    hal_fatal("fw: flash operation failed\n", 0xF1A50000u | c->status);
  f->die_ops[f->fop[tag].die]--;
  const struct flash_result r = {c->status, ((uint64_t)c->t_done_hi << 32) | c->t_done_lo};
  (failure ? o->failed : o->done)(f, tag, &r);
}

int flash_poll(struct ftl *f) {
  struct fw_core *me = f->cur;
  struct ring_pos *p = &me->fcpl_pos;
  int n = 0;
  for (;;) {
    volatile struct ssd_flash_cpl *c = &me->fcpl[p->head & (p->size - 1u)];
    if (c->phase != p->phase) break;
    struct ssd_flash_cpl copy = *(const struct ssd_flash_cpl *)c;
    if (++p->head % p->size == 0) p->phase ^= 1u;
    hal_cost(HAL_COST_FLASH_DONE, 1);
    flash_done(f, &copy);
    n++;
  }
  if (n && ring_report_due(p)) hal_write32(me->fctl + FCTL_CPL_HEAD, p->head);
  if (n) f->progress++;   /* space, dies, map updates: other cores' writers may go on */
  return n;
}
