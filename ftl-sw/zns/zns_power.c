/* A zoned device's power-loss protection and power-on (zns_device.h).
 *
 * The device acknowledges a write once its data is in the zone's window in DRAM, so what
 * survives a power cut is what the hold-up capacitors let it save (device.plp_energy_mj).
 * When the platform says the supply failed, the device
 *   1. takes no more host commands (the host is gone with the supply),
 *   2. lets the flash operations in flight finish, starting none (the pipelines stop: no write
 *      joins a window any more, no unit is programmed at its place, no reset is carried out),
 *   3. writes its dump to a spare stripe (device.zns.spare_stripes: one block on every plane
 *      of every die, two of them taken in turn): a table of every zone (its state as the host
 *      saw it: empty, closed (an opened zone loses power closed), full, read-only, offline; the
 *      sectors of data written and of them those on flash; its resets; the units a reset
 *      accepted but not carried out still has to erase), then each zone's window (its sectors
 *      not yet on flash, under their LBAs in the spare area),
 *   4. once every unit of it is programmed, commits it in the controller's NVRAM (its stripe
 *      and length: the last thing done) and tells the platform, which cuts the power there.
 * A write accepted but whose data never came in was not acknowledged: the dump's write pointer
 * is the window's end, not the zone map's.  At power-on over a used device the committed dump
 * is read back (timed) and the zone map and the windows are as they were; the other spare
 * stripe is erased for the next dump; a zone whose reset was not carried out erases its
 * blocks before it takes a write (the pipeline's ordinary reset).  A used device without a
 * committed dump (the energy ran out first) cannot know its zones: it stops with a fatal
 * error naming the energy.
 * Leaves out: a write-pointer scan as a fallback, erase counts across power cycles (a zone's
 * resets are kept, a block's erases are the dies' own), the energy each operation draws (the
 * budget is a time at constant power). */
#include "core/ftl.h"
#include "hal/hal.h"
#include "zns/zns_device.h"

#define DUMP_MAGIC 0x504D5544u   /* "DUMP" */
#define DUMP_META_LPA 0xFFFFFFFEu   /* a table sector's spare area */

/* One zone in the dump's table (16 bytes). */
struct dump_zone {
  uint8_t  state;                /* SSD_ZNS_ZS_* after the power cut */
  uint8_t  rsvd[3];
  uint32_t written;              /* sectors of data */
  uint32_t programmed;           /* of them on flash (the window starts there) */
  uint32_t resets;
  uint32_t erase_units;          /* units of the generation a pending reset must erase */
};
#define ZONES_PER_SECTOR (SECTOR_BYTES / (uint32_t)sizeof(struct dump_zone))

struct dump_header {
  uint32_t magic, nr_zones, table_sectors, data_sectors;
};

static uint32_t table_sectors(const struct zns_device *d) {
  return 1u + (d->layout.nr_zones + ZONES_PER_SECTOR - 1u) / ZONES_PER_SECTOR;   /* the header, the zones */
}

/* The flash address of unit k of spare stripe s: units go round the dies, then down the pages. */
static uint32_t dump_ppa(const struct ftl *f, const struct zns_device *d, uint32_t s, uint32_t k) {
  const uint32_t block = d->layout.nr_zones / d->layout.groups * d->layout.stripes + s;
  const uint32_t die = k % f->geo.dies, page = k / f->geo.dies;
  return (die * f->geo.blocks + block) * f->geo.sb_sectors + page * f->geo.unit;
}

static void dump_done(struct ftl *f, uint32_t tag, const struct flash_result *r) {
  struct zns_power *p = &f->zns->power;
  if (r->status != SSD_FST_OK) p->failed++;
  p->inflight--;
  fop_release(f, tag);
}

static const struct flash_owner dump_owner = {SSD_FRSN_HOST, 0, dump_done, dump_done};

void zns_power_init(struct ftl *f) {
  struct zns_device *d = f->zns;
  struct zns_power *p = &d->power;
  flash_register(f, FOP_ZNS_DUMP, &dump_owner);
  const struct ssd_fw_config *live = hal_dram_ptr(hal_read32(SSD_SYSCTL_BASE + SYSCTL_CONFIG_ADDR));
  p->failing = &live->power_failing;
  p->table_sectors = table_sectors(d);
  /* The stream: the table, then every window's sectors. */
  p->max_sectors = p->table_sectors + d->rings * d->win + f->geo.unit;
  p->table = hal_dram_addr(fw_alloc(f, p->table_sectors * SECTOR_BYTES, SECTOR_BYTES));
  p->sector = fw_alloc(f, p->max_sectors * 4u, 16);
  p->oob = fw_alloc(f, p->max_sectors * (uint32_t)sizeof(struct ssd_oob), 16);
}

/* ------------------------------------------------------------------ the dump */

/* Zone z as the host saw it, into its table entry; its partial unit onto the stream. */
static void dump_zone(struct ftl *f, uint32_t z, struct dump_zone *e) {
  struct zns_device *d = f->zns;
  struct zns_power *p = &d->power;
  const struct zns_pipe *q = &d->pipe[z];
  const uint8_t s = zns_state(&d->zones, z);
  e->resets = d->zones.resets[z];
  e->erase_units = 0;
  e->programmed = 0;
  if (q->gen != d->zones.resets[z]) {   /* a reset acknowledged, not carried out */
    e->state = SSD_ZNS_ZS_EMPTY;
    e->written = 0;
    e->erase_units = q->issued / d->layout.unit;
    return;
  }
  const uint64_t data = d->zones.written[z] < q->staged ? d->zones.written[z] : q->staged;   /* acknowledged */
  e->written = (uint32_t)data;
  e->programmed = q->base < data ? q->base : (uint32_t)data;
  if (s == SSD_ZNS_ZS_READ_ONLY || s == SSD_ZNS_ZS_OFFLINE) e->state = s;
  else if (s == SSD_ZNS_ZS_FULL && (d->zones.written[z] < d->layout.zcap || q->staged == d->layout.zcap))
    e->state = SSD_ZNS_ZS_FULL;   /* finished, or written to its capacity */
  else e->state = data ? (uint8_t)SSD_ZNS_ZS_CLOSED : (uint8_t)SSD_ZNS_ZS_EMPTY;
  for (uint32_t sec = q->base; sec < q->staged && sec < data; sec++) {   /* the window */
    uint32_t addr;
    if (zns_pipe_locate(f, z, sec, &addr) != 1) continue;
    p->sector[p->n] = addr;
    p->oob[p->n].lpa = (uint32_t)(d->zones.desc[z].zslba + sec);
    p->oob[p->n].seq = q->gen;
    p->n++;
  }
}

static void build_dump(struct ftl *f) {
  struct zns_device *d = f->zns;
  struct zns_power *p = &d->power;
  uint8_t *t = hal_dram_ptr(p->table);
  for (uint32_t i = 0; i < p->table_sectors * SECTOR_BYTES; i++) t[i] = 0;
  p->n = p->table_sectors;
  for (uint32_t k = 0; k < p->table_sectors; k++) {
    p->sector[k] = p->table + k * SECTOR_BYTES;
    p->oob[k].lpa = DUMP_META_LPA;
    p->oob[k].seq = k;
  }
  struct dump_zone *zones = (struct dump_zone *)(t + SECTOR_BYTES);
  for (uint32_t z = 0; z < d->layout.nr_zones; z++) dump_zone(f, z, &zones[z]);
  struct dump_header *h = (struct dump_header *)t;
  h->magic = DUMP_MAGIC;
  h->nr_zones = d->layout.nr_zones;
  h->table_sectors = p->table_sectors;
  h->data_sectors = p->n - p->table_sectors;
  while (p->n % f->geo.unit) {   /* whole units: zeros, no LBA */
    p->sector[p->n] = f->zero_sector_addr;
    p->oob[p->n].lpa = NONE32;
    p->oob[p->n].seq = NONE32;
    p->n++;
  }
  p->units = p->n / f->geo.unit;
  p->issued = 0;
  f->stats->power_dump_sectors = p->n;
}

/* Issues the dump's units while there is room; 1 once every one is done. */
static int write_dump(struct ftl *f) {
  struct zns_device *d = f->zns;
  struct zns_power *p = &d->power;
  const uint32_t unit = f->geo.unit;
  while (p->issued < p->units && FOP_MAX - f->fops_inflight >= 1u && flash_ring_space(f, 1) >= 1u) {
    const uint32_t tag = fop_alloc(f, FOP_ZNS_DUMP);
    struct fop *op = &f->fop[tag];
    for (uint32_t k = 0; k < unit; k++) {
      op->sgl[k] = p->sector[p->issued * unit + k];
      op->oob[k] = p->oob[p->issued * unit + k];
    }
    flash_submit(f, tag, SSD_FOP_PROGRAM, dump_ppa(f, d, p->stripe, p->issued), unit, hal_dram_addr(op->sgl),
                 hal_dram_addr(op->oob), SSD_FDF_SGL | SSD_FDF_PAYLOAD);
    p->inflight++;
    p->issued++;
  }
  return p->issued == p->units && p->inflight == 0;
}

int zns_power_step(struct ftl *f) {
  struct zns_device *d = f->zns;
  struct zns_power *p = &d->power;
  switch (p->state) {
    case ZP_NONE:
      hal_puts("fw: the supply failed: the zones' windows and map to the spare stripe\n");
      p->state = ZP_DRAINING;
      return 1;
    case ZP_DRAINING:   /* what is in flight finishes (programs, erases, reads) */
      if (f->fops_inflight || d->zw_head != NONE32) return 0;
      build_dump(f);
      p->state = ZP_DUMPING;
      return 1;
    case ZP_DUMPING:
      if (!write_dump(f)) return 0;
      if (!p->failed) {   /* the commit: the dump is whole */
        hal_write32(SSD_SYSCTL_BASE + SYSCTL_NVRAM + 4u * SSD_NVRAM_ZNS_DUMP, p->stripe << 24 | p->units);
        f->stats->power_dumped = 1;
      }
      hal_write32(SSD_SYSCTL_BASE + SYSCTL_POWER_DUMPED, 1);
      p->state = ZP_DUMPED;
      return 1;
    default:
      return 0;
  }
}

/* ------------------------------------------------------------------ power-on */

/* Runs the flash until this boot's operations are done. */
static void wait_flash(struct ftl *f) {
  struct zns_power *p = &f->zns->power;
  while (p->inflight) {
    flash_commit(f);
    if (!flash_poll(f)) hal_wait_for_event();
  }
}

/* Reads the committed dump's `units` units of stripe s into the table and sector buffers. */
static void read_dump(struct ftl *f, uint32_t s, uint32_t units, uint32_t *first_buf) {
  struct zns_device *d = f->zns;
  struct zns_power *p = &d->power;
  const uint32_t unit = f->geo.unit;
  p->n = units * unit;
  if (p->n > p->max_sectors || p->n < p->table_sectors)
    hal_fatal("fw: the zoned device's power-loss dump does not fit this configuration\n",
              SSD_HALT_BAD_CONFIG | SSD_BADCFG_FORMAT);
  const uint32_t data = p->n - p->table_sectors;
  if (!zns_buf_take(f, data, first_buf))
    hal_fatal("fw: no sector buffers for the zoned device's power-loss dump\n", SSD_HALT_BAD_CONFIG | SSD_BADCFG_ZNS_BUFFERS);
  for (uint32_t k = 0; k < p->n; k++)
    p->sector[k] = k < p->table_sectors ? p->table + k * SECTOR_BYTES : first_buf[k - p->table_sectors];
  const uint32_t spp = f->geo.spp;
  for (uint32_t u = 0; u < units; u++)
    for (uint32_t pl = 0; pl < unit / spp; pl++) {   /* a read is one plane's page */
      while (FOP_MAX - f->fops_inflight < 1u || flash_ring_space(f, 1) < 1u) {
        flash_commit(f);
        if (!flash_poll(f)) hal_wait_for_event();
      }
      const uint32_t tag = fop_alloc(f, FOP_ZNS_DUMP);
      struct fop *op = &f->fop[tag];
      const uint32_t first = u * unit + pl * spp;
      for (uint32_t k = 0; k < spp; k++) op->sgl[k] = p->sector[first + k];
      flash_submit(f, tag, SSD_FOP_READ, dump_ppa(f, d, s, u) + pl * spp, spp, hal_dram_addr(op->sgl),
                   hal_dram_addr(&p->oob[first]), SSD_FDF_SGL | SSD_FDF_PAYLOAD);
      p->inflight++;
    }
  wait_flash(f);
  if (p->failed) hal_fatal("fw: the zoned device's power-loss dump cannot be read\n", SSD_HALT_BAD_CONFIG | SSD_BADCFG_FORMAT);
}

/* The zone map and windows as the dump left them. */
static void restore(struct ftl *f, const uint32_t *bufs) {
  struct zns_device *d = f->zns;
  struct zns_power *p = &d->power;
  const uint8_t *t = hal_dram_ptr(p->table);
  const struct dump_header *h = (const struct dump_header *)t;
  if (h->magic != DUMP_MAGIC || h->nr_zones != d->layout.nr_zones || h->table_sectors != p->table_sectors)
    hal_fatal("fw: the zoned device's power-loss dump is not this device's\n", SSD_HALT_BAD_CONFIG | SSD_BADCFG_FORMAT);
  const struct dump_zone *zones = (const struct dump_zone *)(t + SECTOR_BYTES);
  const uint32_t unit = d->layout.unit;
  for (uint32_t z = 0; z < d->layout.nr_zones; z++) {
    const struct dump_zone *e = &zones[z];
    struct zns_pipe *q = &d->pipe[z];
    zns_zones_restore(&d->zones, z, e->state, e->written, e->resets);
    if (e->erase_units) {   /* its reset is carried out by the pipeline: the erases first */
      q->gen = e->resets - 1u;
      q->base = q->staged = q->issued = e->erase_units * unit;
      continue;
    }
    q->gen = e->resets;
    q->base = q->issued = e->programmed;
    q->staged = e->written;
  }
  /* Each data sector back into its zone's window (their buffers hold what was read). */
  const uint32_t data = h->data_sectors;
  for (uint32_t k = 0; k < data; k++) {
    const uint32_t buf = bufs[k];
    const struct ssd_oob *o = &p->oob[p->table_sectors + k];
    uint64_t sec;
    const uint32_t z = zns_zone_of(&d->layout, o->lpa, &sec);
    struct zns_pipe *q = &d->pipe[z];
    if (z >= d->layout.nr_zones || sec < q->base || sec >= q->staged || !zns_pipe_take_ring(f, z)) {
      zns_buf_unref(f, buf);   /* not the zone's any more (cannot happen with a whole dump) */
      continue;
    }
    zns_pipe_set_window(f, z, (uint32_t)sec, buf);
  }
  for (uint32_t k = data; k + p->table_sectors < p->n; k++) zns_buf_unref(f, bufs[k]);   /* the padding's */
}

static uint32_t geometry_hash(const struct zns_layout *l) {
  uint32_t h = 2166136261u;
  const uint32_t v[] = {l->nr_zones, (uint32_t)l->zcap, (uint32_t)l->zsze, l->group_dies, l->stripes, l->unit};
  for (uint32_t i = 0; i < sizeof v / sizeof v[0]; i++) h = (h ^ v[i]) * 16777619u;
  return h;
}

/* Erases spare stripe s (one block on every plane of every die). */
static void erase_stripe(struct ftl *f, uint32_t s) {
  struct zns_device *d = f->zns;
  for (uint32_t die = 0; die < f->geo.dies; die++) {
    while (FOP_MAX - f->fops_inflight < 1u || flash_ring_space(f, 1) < 1u) {
      flash_commit(f);
      if (!flash_poll(f)) hal_wait_for_event();
    }
    const uint32_t tag = fop_alloc(f, FOP_ZNS_DUMP);
    f->fop[tag].die = die;
    flash_submit(f, tag, SSD_FOP_ERASE, dump_ppa(f, d, s, die), 0, 0, 0, 0);
    d->power.inflight++;
  }
  wait_flash(f);
}

void zns_power_on(struct ftl *f) {
  struct zns_device *d = f->zns;
  struct zns_power *p = &d->power;
  const uint32_t nv = SSD_SYSCTL_BASE + SYSCTL_NVRAM;
  const uint32_t want = geometry_hash(&d->layout);
  const uint32_t format = hal_read32(nv + 4u * SSD_NVRAM_FORMAT);
  if (format != SSD_FORMAT_MAGIC_ZNS) {
    if (format != 0)   /* another kind of device's data: never formatted over */
      hal_fatal("fw: this NAND holds another kind of device's data\n", SSD_HALT_BAD_CONFIG | SSD_BADCFG_FORMAT);
    hal_write32(nv + 4u * SSD_NVRAM_GEOMETRY, want);
    hal_write32(nv + 4u * SSD_NVRAM_FORMAT, SSD_FORMAT_MAGIC_ZNS);
    hal_write32(nv + 4u * SSD_NVRAM_ZNS_DUMP, 0);
    p->stripe = 0;   /* new: both spare stripes erased */
    return;
  }
  if (hal_read32(nv + 4u * SSD_NVRAM_GEOMETRY) != want)
    hal_fatal("fw: the zoned device was formatted with other zones\n", SSD_HALT_BAD_CONFIG | SSD_BADCFG_FORMAT);
  const uint32_t dump = hal_read32(nv + 4u * SSD_NVRAM_ZNS_DUMP);
  if (dump == 0)
    hal_fatal("fw: the zoned device lost power without its power-loss dump (the hold-up energy, device.plp_energy_mj, "
              "ran out first): its zones' state is lost\n", SSD_HALT_BAD_CONFIG | SSD_BADCFG_FORMAT);
  hal_write32(SSD_SYSCTL_BASE + SYSCTL_IRQ_ENABLE, SSD_IRQ_FCTL);   /* its completions wake it */
  const uint32_t s = dump >> 24, units = dump & 0xFFFFFFu;
  const uint32_t heap_mark = f->heap.used;   /* the list of buffers is given back */
  uint32_t *data_bufs = fw_alloc(f, units * f->geo.unit * 4u, 16);
  read_dump(f, s, units, data_bufs);
  restore(f, data_bufs);
  f->heap.used = heap_mark;
  f->stats->recovered = 1;
  p->stripe = s ^ 1u;   /* the next dump goes to the other stripe, erased now */
  erase_stripe(f, p->stripe);
}

/* Zones whose reset the dump says is not carried out erase their blocks now, and windows with
 * whole units program them. */
void zns_power_resume(struct ftl *f) {
  struct zns_device *d = f->zns;
  for (uint32_t z = 0; z < d->layout.nr_zones; z++)
    if (d->pipe[z].gen != d->zones.resets[z] || d->pipe[z].ring != NONE32) zns_pipe_pump(f, z);
}
