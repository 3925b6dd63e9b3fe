/* Each zone's writes on their way to the flash, and its resets' erases (zns_device.h): the
 * owner of a zoned device's programs and erases (core/flash_port.h).
 *
 * A zone's pipeline runs its accepted writes in acceptance order.  A write whose data is in
 * joins the zone's window (sector i of the zone at ring entry i mod win) and completes; each
 * full write unit of the window is programmed at its place (zns_layout.h), several in flight
 * across the zone's dies; the window starts at the first unit not known programmed, so its
 * buffers are freed in order as programs complete, whatever order the dies finish in.  A
 * finish pads its generation's partial unit once the writes before it are in; a reset the
 * zone map accepted (its count of resets is ahead of the pipeline's) first lets the writes
 * accepted before it complete and its programs finish, then drops the window, erases every
 * block the zone programmed and starts the next generation: writes accepted after it wait
 * for the erases. */
#include "core/ftl.h"
#include "hal/hal.h"
#include "zns/zns_device.h"

uint32_t zns_ppa(const struct ftl *f, uint32_t z, uint32_t sec) {
  const struct zns_flash_addr a = zns_flash_of(&f->zns->layout, z, sec);
  return (a.die * f->geo.blocks + a.block) * f->geo.sb_sectors + a.page * f->geo.unit + a.off;
}

static uint32_t *ring_entry(struct zns_device *d, const struct zns_pipe *p, uint32_t sec) {
  return &d->ring_addr[p->ring * d->win + sec % d->win];
}

static uint8_t *unit_flag(struct zns_device *d, const struct zns_pipe *p, uint32_t sec) {
  const uint32_t units = d->win / d->layout.unit;
  return &d->unit_done[p->ring * units + (sec / d->layout.unit) % units];
}

int zns_pipe_locate(struct ftl *f, uint32_t z, uint32_t sec, uint32_t *addr) {
  struct zns_device *d = f->zns;
  const struct zns_pipe *p = &d->pipe[z];
  if (p->gen != d->zones.resets[z] || sec >= d->zones.written[z] || sec >= p->staged) return 2;
  if (sec < p->base) return 0;
  *addr = *ring_entry(d, p, sec);
  return 1;
}

static void wait_zone(struct zns_device *d, uint32_t z) {
  struct zns_pipe *p = &d->pipe[z];
  if (p->waiting) return;
  p->waiting = 1;
  p->next_waiting = NONE32;
  if (d->zw_tail == NONE32) d->zw_head = z;
  else d->pipe[d->zw_tail].next_waiting = z;
  d->zw_tail = z;
}

static int take_ring(struct zns_device *d, struct zns_pipe *p) {
  if (p->ring != NONE32) return 1;
  if (d->ring_free == NONE32) return 0;
  p->ring = d->ring_free;
  d->ring_free = d->ring_next[p->ring];
  const uint32_t units = d->win / d->layout.unit;
  for (uint32_t u = 0; u < units; u++) d->unit_done[p->ring * units + u] = 0;
  return 1;
}

/* The window goes back once nothing is in it or on its way. */
static void release_ring_if_idle(struct zns_device *d, struct zns_pipe *p) {
  if (p->ring == NONE32 || p->base != p->staged || p->programs || p->q_head != NONE32) return;
  d->ring_next[p->ring] = d->ring_free;
  d->ring_free = p->ring;
  p->ring = NONE32;
}

static void pop_write(struct zns_device *d, struct zns_pipe *p) {
  const uint32_t slot = p->q_head;
  p->q_head = d->slot[slot].next;
  if (p->q_head == NONE32) p->q_tail = NONE32;
}

/* A reset the zone map accepted: 1 once carried out (erases issued), 0 while it must wait. */
static int carry_out_reset(struct ftl *f, uint32_t z) {
  struct zns_device *d = f->zns;
  struct zns_pipe *p = &d->pipe[z];
  const struct zns_layout *l = &d->layout;
  /* Writes accepted before it complete (their data is in DRAM; the reset discards it). */
  while (p->q_head != NONE32 && d->slot[p->q_head].gen != d->zones.resets[z]) {
    const uint16_t slot = (uint16_t)p->q_head;
    if (!d->slot[slot].data_in) return 0;
    for (uint32_t i = 0; i < f->hc[slot].nsect; i++) zns_buf_unref(f, f->hc[slot].sgl[i]);
    pop_write(d, p);
    zns_complete(f, slot, SSD_ST_OK, d->slot[slot].result);
  }
  if (p->programs) return 0;
  /* Every block a program of this generation touched: the stripes its units reached, every
   * die of each but the last's first units. */
  const uint32_t units = p->issued / l->unit, stripe_units = l->group_dies * l->pages;
  uint32_t erases = 0;
  for (uint32_t st = 0; st * stripe_units < units; st++) {
    const uint32_t left = units - st * stripe_units;
    erases += left < l->group_dies ? left : l->group_dies;
  }
  if (erases && (FOP_MAX - f->fops_inflight < erases || flash_ring_space(f, erases) < erases)) {
    wait_zone(d, z);
    return 0;
  }
  for (uint32_t st = 0; st * stripe_units < units; st++) {
    const uint32_t left = units - st * stripe_units, dies = left < l->group_dies ? left : l->group_dies;
    for (uint32_t k = 0; k < dies; k++) {
      const struct zns_flash_addr a = zns_flash_of(l, z, (st * stripe_units + k) * l->unit);
      const uint32_t tag = fop_alloc(f, FOP_ZNS_ERASE);
      f->fop[tag].gc_index = z;
      f->fop[tag].die = a.die;
      flash_submit(f, tag, SSD_FOP_ERASE, (a.die * f->geo.blocks + a.block) * f->geo.sb_sectors, 0, 0, 0, 0);
    }
  }
  p->erasing += erases;
  if (p->ring != NONE32)   /* the window's partial unit: written, then reset before programmed */
    for (uint32_t s = p->base; s < p->staged; s++) zns_buf_unref(f, *ring_entry(d, p, s));
  p->base = p->staged = p->issued = 0;
  p->pad_gen = NONE32;
  p->gen = d->zones.resets[z];
  release_ring_if_idle(d, p);
  return 1;
}

/* Writes of this generation with their data in join the window and complete, in order. */
static void stage(struct ftl *f, uint32_t z) {
  struct zns_device *d = f->zns;
  struct zns_pipe *p = &d->pipe[z];
  while (p->q_head != NONE32) {
    const uint16_t slot = (uint16_t)p->q_head;
    const struct hcmd *h = &f->hc[slot];
    if (d->slot[slot].gen != p->gen || !d->slot[slot].data_in) return;
    if (p->staged + h->nsect - p->base > d->win) return;   /* room comes as programs complete */
    if (!take_ring(d, p)) {
      wait_zone(d, z);
      return;
    }
    for (uint32_t i = 0; i < h->nsect; i++) *ring_entry(d, p, p->staged + i) = h->sgl[i];
    p->staged += h->nsect;
    pop_write(d, p);
    zns_complete(f, slot, SSD_ST_OK, d->slot[slot].result);
  }
}

/* Full units of the window to the flash, while there is room. */
static void program(struct ftl *f, uint32_t z) {
  struct zns_device *d = f->zns;
  struct zns_pipe *p = &d->pipe[z];
  const uint32_t unit = d->layout.unit;
  const uint64_t zslba = d->zones.desc[z].zslba;
  while (p->issued + unit <= p->staged) {
    if (FOP_MAX - f->fops_inflight < 1u || flash_ring_space(f, 1) < 1u) {
      wait_zone(d, z);
      return;
    }
    const uint32_t tag = fop_alloc(f, FOP_ZNS_PROG);
    struct fop *op = &f->fop[tag];
    op->gc_index = z;
    op->prog_id = p->issued;
    op->nsect = unit;
    for (uint32_t k = 0; k < unit; k++) {
      const uint32_t addr = *ring_entry(d, p, p->issued + k);
      op->sgl[k] = addr;
      op->oob[k].lpa = addr == f->zero_sector_addr ? NONE32 : (uint32_t)(zslba + p->issued + k);   /* pads: no LBA */
      op->oob[k].seq = p->gen;
    }
    flash_submit(f, tag, SSD_FOP_PROGRAM, zns_ppa(f, z, p->issued), unit, hal_dram_addr(op->sgl), hal_dram_addr(op->oob),
                 SSD_FDF_SGL);
    p->programs++;
    p->issued += unit;
  }
}

void zns_pipe_pump(struct ftl *f, uint32_t z) {
  struct zns_device *d = f->zns;
  struct zns_pipe *p = &d->pipe[z];
  if (zns_power_failing(d)) return;   /* the supply failed: the dump takes what is here (zns_power.c) */
  if (p->gen != d->zones.resets[z] && !carry_out_reset(f, z)) return;
  if (p->erasing) return;
  stage(f, z);
  const int writes_before = p->q_head != NONE32 && d->slot[p->q_head].gen == p->gen;
  if (p->pad_gen == p->gen && !writes_before) {   /* a finish: its partial unit padded */
    while (p->staged % d->layout.unit) *ring_entry(d, p, p->staged++) = f->zero_sector_addr;
    p->pad_gen = NONE32;
  }
  program(f, z);
  release_ring_if_idle(d, p);
}

int zns_pipe_take_ring(struct ftl *f, uint32_t z) { return take_ring(f->zns, &f->zns->pipe[z]); }

void zns_pipe_set_window(struct ftl *f, uint32_t z, uint32_t sec, uint32_t addr) {
  *ring_entry(f->zns, &f->zns->pipe[z], sec) = addr;
}

void zns_pipe_data_in(struct ftl *f, uint16_t slot) {
  f->zns->slot[slot].data_in = 1;
  zns_pipe_pump(f, f->zns->slot[slot].zone);
}

int zns_pipe_retry(struct ftl *f) {
  struct zns_device *d = f->zns;
  uint32_t z = d->zw_head;
  d->zw_head = d->zw_tail = NONE32;
  int n = 0;
  while (z != NONE32) {
    const uint32_t next = d->pipe[z].next_waiting;
    d->pipe[z].waiting = 0;
    zns_pipe_pump(f, z);
    if (!d->pipe[z].waiting) n++;   /* still waiting is no progress: the loop may sleep */
    z = next;
  }
  return n;
}

static void program_done(struct ftl *f, uint32_t tag, const struct flash_result *r) {
  struct zns_device *d = f->zns;
  const struct fop *op = &f->fop[tag];
  const uint32_t z = op->gc_index, unit = d->layout.unit;
  struct zns_pipe *p = &d->pipe[z];
  f->stats->flash_prog_sectors += op->nsect;
  if (r->status == SSD_FST_PROGRAM_FAIL) {   /* no remapping yet (zns_device.h): the zone goes read-only */
    hal_puts("fw: a zoned device's program failed: its zone is read-only\n");
    f->stats->grown_bad_superblocks++;
    zns_note_read_only(&d->zones, z);
  }
  *unit_flag(d, p, op->prog_id) = 1;
  fop_release(f, tag);
  p->programs--;
  while (p->base < p->issued && *unit_flag(d, p, p->base)) {   /* the window moves past programmed units */
    *unit_flag(d, p, p->base) = 0;
    for (uint32_t k = 0; k < unit; k++) zns_buf_unref(f, *ring_entry(d, p, p->base + k));
    p->base += unit;
  }
  zns_pipe_pump(f, z);
}

static void erase_done(struct ftl *f, uint32_t tag, const struct flash_result *r) {
  struct zns_device *d = f->zns;
  const struct fop *op = &f->fop[tag];
  const uint32_t z = op->gc_index;
  f->stats->erases++;
  if (r->status == SSD_FST_ERASE_FAIL) {
    hal_puts("fw: a zoned device's erase failed: its zone is offline\n");
    f->stats->grown_bad_superblocks++;
    zns_note_offline(&d->zones, z);
  } else {
    const uint32_t sb = ppa_sb(f, op->ppa);
    f->sb_erases[sb]++;
  }
  fop_release(f, tag);
  if (--d->pipe[z].erasing == 0) zns_pipe_pump(f, z);
}

static const struct flash_owner zns_program_owner = {SSD_FRSN_HOST, SSD_FST_PROGRAM_FAIL, program_done, program_done};
static const struct flash_owner zns_erase_owner = {SSD_FRSN_HOST, SSD_FST_ERASE_FAIL, erase_done, erase_done};

void zns_pipeline_init(struct ftl *f) {
  struct zns_device *d = f->zns;
  flash_register(f, FOP_ZNS_PROG, &zns_program_owner);
  flash_register(f, FOP_ZNS_ERASE, &zns_erase_owner);
  for (uint32_t z = 0; z < d->layout.nr_zones; z++) {
    struct zns_pipe *p = &d->pipe[z];
    p->q_head = p->q_tail = NONE32;
    p->gen = 0;
    p->ring = NONE32;
    p->base = p->staged = p->issued = 0;
    p->programs = p->erasing = 0;
    p->pad_gen = NONE32;
    p->waiting = 0;
    p->next_waiting = NONE32;
  }
  d->zw_head = d->zw_tail = NONE32;
}
