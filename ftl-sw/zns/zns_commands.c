/* A zoned device's commands (zns_device.h): the owner of host commands (core/host_port.h) and
 * of its flash reads' completions (core/flash_port.h).  Each command is checked against the
 * zone map first (zns_zones.h) and refused whole with the spec's status, nothing done; writes
 * then go to their zone's pipeline (zns_pipeline.c).  Commands that need sector buffers, room
 * in the flash rings or the report buffer wait, in arrival order. */
#include "core/ftl.h"
#include "hal/hal.h"
#include "zns/zns_device.h"

/* Command states (enum hcmd_state's values, as this device uses them). */
#define ZS_WAIT_BUF   HC_WAIT_BUF    /* a read or write waiting for sector buffers */
#define ZS_DMA_IN     HC_DMA_IN      /* a write's data coming from the host */
#define ZS_WAIT_FLASH HC_MAP_WAIT    /* a read waiting for room in the flash rings */
#define ZS_FLASH      HC_READING     /* a read's flash operations in flight */
#define ZS_DMA_OUT    HC_DMA_OUT     /* a read's (or report's) data going to the host */
#define ZS_PIPE       HC_FLUSHING    /* a write with its data in, in its zone's pipeline */
#define ZS_WAIT_REP   HC_WAIT_BUF    /* a report waiting for the report buffer (on its own list) */

static void wait_push(struct ftl *f, uint32_t *head, uint32_t *tail, uint16_t slot) {
  f->hc[slot].next = NONE32;
  if (*tail == NONE32) *head = slot;
  else f->hc[*tail].next = slot;
  *tail = slot;
}

static uint16_t wait_pop(struct ftl *f, uint32_t *head, uint32_t *tail) {
  const uint16_t slot = (uint16_t)*head;
  *head = f->hc[slot].next;
  if (*head == NONE32) *tail = NONE32;
  return slot;
}

/* ------------------------------------------------------------------ sector buffers */
static uint32_t buf_index(const struct zns_device *d, uint32_t addr) { return (addr - d->buf_base) / SECTOR_BYTES; }

int zns_buf_take(struct ftl *f, uint32_t n, uint32_t *addrs) {
  struct zns_device *d = f->zns;
  if (d->bufs_left < n) return 0;
  for (uint32_t i = 0; i < n; i++) {
    const uint32_t b = d->buf_free;
    d->buf_free = d->buf_next[b];
    d->buf_ref[b] = 1;
    addrs[i] = d->buf_base + b * SECTOR_BYTES;
  }
  d->bufs_left -= n;
  return 1;
}

void zns_buf_ref(struct ftl *f, uint32_t addr) {
  if (addr != f->zero_sector_addr) f->zns->buf_ref[buf_index(f->zns, addr)]++;
}

void zns_buf_unref(struct ftl *f, uint32_t addr) {
  struct zns_device *d = f->zns;
  if (addr == f->zero_sector_addr) return;
  const uint32_t b = buf_index(d, addr);
  if (d->buf_ref[b] == 0) hal_fatal("fw: a zoned device's sector buffer freed twice\n", 0x2B5F0000u | (b & 0xFFFFu));
  if (--d->buf_ref[b]) return;
  d->buf_next[b] = d->buf_free;
  d->buf_free = b;
  d->bufs_left++;
}

void zns_complete(struct ftl *f, uint16_t slot, uint16_t status, uint64_t result) {
  if (result) hif_complete_result(f, slot, status, result);
  else hcmd_complete(f, slot, status);
}

/* ------------------------------------------------------------------ reads */
/* How many flash reads a read needs (a stretch of consecutive sectors within one page of one
 * plane each); its sectors in the window or reading zeros need none. */
static uint32_t read_ops(struct ftl *f, uint16_t slot, uint32_t *need_bufs) {
  const struct zns_device *d = f->zns;
  const struct hcmd *h = &f->hc[slot];
  const uint32_t z = d->slot[slot].zone, sec0 = d->slot[slot].sec;
  uint32_t ops = 0, prev = NONE32, bufs = 0, addr;
  for (uint32_t i = 0; i < h->nsect; i++) {
    const uint32_t sec = sec0 + i;
    if (zns_pipe_locate(f, z, sec, &addr) != 0) {
      prev = NONE32;
      continue;
    }
    bufs++;
    const uint32_t ppa = zns_ppa(f, z, sec);
    if (!(prev != NONE32 && ppa == prev + 1u && ppa % f->geo.spp != 0)) ops++;
    prev = ppa;
  }
  *need_bufs = bufs;
  return ops;
}

/* A read whose flash sectors have buffers: each sector from the window (a reference), zeros,
 * or the flash. */
static void submit_reads(struct ftl *f, uint16_t slot, uint32_t *flash_bufs) {
  struct zns_device *d = f->zns;
  struct hcmd *h = &f->hc[slot];
  const uint32_t z = d->slot[slot].zone, sec0 = d->slot[slot].sec;
  uint32_t run = NONE32, next_ppa = NONE32, k = 0;
  h->state = ZS_FLASH;
  h->pending = 1;   /* held until every read is issued */
  for (uint32_t i = 0; i < h->nsect; i++) {
    const uint32_t sec = sec0 + i;
    uint32_t addr;
    const int where = zns_pipe_locate(f, z, sec, &addr);
    if (where == 1) {
      zns_buf_ref(f, addr);
      h->sgl[i] = addr;
      run = NONE32;
      continue;
    }
    if (where == 2) {
      h->sgl[i] = f->zero_sector_addr;
      f->stats->unmapped_reads++;
      run = NONE32;
      continue;
    }
    h->sgl[i] = flash_bufs[k++];
    const uint32_t ppa = zns_ppa(f, z, sec);
    if (run != NONE32 && ppa == next_ppa && ppa % f->geo.spp != 0) {
      f->fop[run].nsect++;
      struct fw_core *c = f->cur;
      struct ssd_flash_desc *fd = &c->fsub[(c->fsub_pos.tail - 1u) & (c->fsub_pos.size - 1u)];
      fd->nsect++;
      next_ppa++;
      continue;
    }
    run = fop_alloc(f, FOP_ZNS_READ);
    struct fop *op = &f->fop[run];
    op->host_slot = slot;
    op->gc_index = i;
    op->nsect = 1;
    flash_submit(f, run, SSD_FOP_READ, ppa, 1, hal_dram_addr(&h->sgl[i]), hal_dram_addr(op->oob), SSD_FDF_SGL);
    h->pending++;
    next_ppa = ppa + 1u;
  }
}

static void read_send(struct ftl *f, uint16_t slot) {
  struct hcmd *h = &f->hc[slot];
  h->state = ZS_DMA_OUT;
  f->stats->host_read_cmds++;
  f->stats->host_read_sectors += h->nsect;
  hif_dma(f, slot, SSD_DMA_TO_HOST, SSD_DMAF_COMPLETE | SSD_DMAF_NOTIFY | SSD_DMAF_IRQ | SSD_DMAF_SGL, h->nsect,
          hal_dram_addr(h->sgl), h->status, slot);
}

/* A read with what it needs, or 0 (no room: it waits). */
static int start_read(struct ftl *f, uint16_t slot) {
  uint32_t bufs;
  const uint32_t ops = read_ops(f, slot, &bufs);
  if (FOP_MAX - f->fops_inflight < ops || flash_ring_space(f, ops) < ops || f->zns->bufs_left < bufs) return 0;
  uint32_t addrs[SSD_MDTS_SECTORS];
  zns_buf_take(f, bufs, addrs);
  submit_reads(f, slot, addrs);
  if (--f->hc[slot].pending == 0) read_send(f, slot);
  return 1;
}

static void read_done(struct ftl *f, uint32_t tag, const struct flash_result *r) {
  const struct fop *op = &f->fop[tag];
  const uint16_t slot = op->host_slot;
  struct hcmd *h = &f->hc[slot];
  if (r->status == SSD_FST_UNCORRECTABLE) {
    for (uint32_t k = 0; k < op->nsect; k++) h->unreadable[(op->gc_index + k) / 32u] |= 1u << ((op->gc_index + k) % 32u);
    if (h->status == SSD_ST_OK) h->status = SSD_ST_MEDIA_ERROR;
    f->stats->media_errors++;
  }
  fop_release(f, tag);
  if (--h->pending == 0) read_send(f, slot);
}

static void read(struct ftl *f, uint16_t slot) {
  struct zns_device *d = f->zns;
  struct hcmd *h = &f->hc[slot];
  uint32_t z;
  const uint64_t lba = h->lba == NONE32 ? ~0ull : h->lba;
  uint16_t st = h->nsect > SSD_MDTS_SECTORS ? (uint16_t)SSD_ST_INVALID_FIELD : zns_check_read(&d->zones, lba, h->nsect, &z);
  if (st != SSD_ST_OK) {
    hcmd_complete(f, slot, st);
    return;
  }
  d->slot[slot].zone = z;
  d->slot[slot].sec = (uint32_t)(lba - d->zones.desc[z].zslba);
  for (uint32_t w = 0; w < (h->nsect + 31u) / 32u; w++) h->unreadable[w] = 0;
  if (d->flash_head != NONE32 || !start_read(f, slot)) {
    h->state = ZS_WAIT_FLASH;
    wait_push(f, &d->flash_head, &d->flash_tail, slot);
  }
}

/* ------------------------------------------------------------------ writes */
static void write_in(struct ftl *f, uint16_t slot) {
  struct hcmd *h = &f->hc[slot];
  zns_buf_take(f, h->nsect, h->sgl);
  h->state = ZS_DMA_IN;
  hif_dma(f, slot, SSD_DMA_FROM_HOST, SSD_DMAF_NOTIFY | SSD_DMAF_IRQ | SSD_DMAF_SGL, h->nsect, hal_dram_addr(h->sgl),
          SSD_ST_OK, slot);
}

static void write(struct ftl *f, uint16_t slot, int append) {
  struct zns_device *d = f->zns;
  struct hcmd *h = &f->hc[slot];
  const uint64_t lba = h->lba == NONE32 ? ~0ull : h->lba;
  struct zns_write_effect e;
  const uint16_t st =
      h->nsect > SSD_MDTS_SECTORS ? (uint16_t)SSD_ST_INVALID_FIELD : zns_write(&d->zones, lba, h->nsect, append, &e);
  if (st != SSD_ST_OK) {
    hcmd_complete(f, slot, st);
    return;
  }
  struct zns_slot *s = &d->slot[slot];
  s->zone = e.zone;
  s->sec = (uint32_t)(e.lba - d->zones.desc[e.zone].zslba);
  s->gen = d->zones.resets[e.zone];
  s->result = append ? e.lba : 0;
  s->data_in = 0;
  s->next = NONE32;
  struct zns_pipe *p = &d->pipe[e.zone];
  if (p->q_tail == NONE32) p->q_head = slot;
  else d->slot[p->q_tail].next = slot;
  p->q_tail = slot;
  f->stats->host_write_sectors += h->nsect;
  if (d->buf_head != NONE32 || d->bufs_left < h->nsect) {
    h->state = ZS_WAIT_BUF;
    wait_push(f, &d->buf_head, &d->buf_tail, slot);
  } else {
    write_in(f, slot);
  }
}

/* ------------------------------------------------------------------ management */
/* One zone's action; a finish leaves its generation's partial unit to pad, any change goes
 * on to the zone's pipeline (a reset's erases). */
static uint16_t manage_zone(struct ftl *f, uint32_t z, uint8_t action) {
  struct zns_device *d = f->zns;
  uint32_t closed;
  const uint32_t gen = d->zones.resets[z];
  const uint16_t st = zns_manage(&d->zones, z, action, &closed);
  if (st != SSD_ST_OK) return st;
  if (action == SSD_ZNS_ZSA_FINISH) d->pipe[z].pad_gen = gen;
  zns_pipe_pump(f, z);
  return st;
}

static void manage(struct ftl *f, uint16_t slot) {
  struct zns_device *d = f->zns;
  const struct hcmd *h = &f->hc[slot];
  const uint8_t action = (uint8_t)(h->cdw0 & 0xFFu);
  if (action < SSD_ZNS_ZSA_CLOSE || action > SSD_ZNS_ZSA_OFFLINE) {
    hcmd_complete(f, slot, SSD_ST_INVALID_FIELD);
    return;
  }
  if (h->cdw0 & SSD_ZNS_SELECT_ALL) {   /* every zone the action applies to; none refused */
    for (uint32_t z = 0; z < d->layout.nr_zones; z++)
      if (zns_select_all_applies(&d->zones, z, action)) manage_zone(f, z, action);
    hcmd_complete(f, slot, SSD_ST_OK);
    return;
  }
  const uint64_t lba = h->lba == NONE32 ? ~0ull : h->lba;
  if (lba >= (uint64_t)d->layout.nr_zones * d->layout.zsze) {
    hcmd_complete(f, slot, SSD_ST_LBA_RANGE);
    return;
  }
  uint64_t sec;
  const uint32_t z = zns_zone_of(&d->layout, lba, &sec);
  if (sec != 0) {   /* the zone's first LBA names it */
    hcmd_complete(f, slot, SSD_ST_INVALID_FIELD);
    return;
  }
  hcmd_complete(f, slot, manage_zone(f, z, action));
}

/* Report Zones into the report buffer: the header, then descriptors, nsect sectors in all. */
static void report(struct ftl *f, uint16_t slot) {
  struct zns_device *d = f->zns;
  struct hcmd *h = &f->hc[slot];
  const uint8_t option = (uint8_t)(h->cdw0 >> 8);
  const uint64_t lba = h->lba == NONE32 ? ~0ull : h->lba;
  struct ssd_zns_report_header *hdr = hal_dram_ptr(d->report_addr);
  const uint32_t max = h->nsect * (SECTOR_BYTES / (uint32_t)sizeof(struct ssd_zns_zone_desc)) - 1u;
  const uint32_t n = zns_report(&d->zones, lba, option, (h->cdw0 & SSD_ZNS_PARTIAL_REPORT) != 0, hdr,
                                (struct ssd_zns_zone_desc *)(hdr + 1), max);
  if (n == NONE32) {
    hcmd_complete(f, slot, lba >= (uint64_t)d->layout.nr_zones * d->layout.zsze ? SSD_ST_LBA_RANGE : SSD_ST_INVALID_FIELD);
    return;
  }
  uint8_t *rest = (uint8_t *)((struct ssd_zns_zone_desc *)(hdr + 1) + n);
  uint8_t *end = (uint8_t *)hdr + h->nsect * SECTOR_BYTES;
  while (rest < end) *rest++ = 0;
  d->report_busy = 1;
  h->state = ZS_DMA_OUT;
  hif_dma(f, slot, SSD_DMA_TO_HOST, SSD_DMAF_COMPLETE | SSD_DMAF_NOTIFY | SSD_DMAF_IRQ | SSD_DMAF_BYTES, h->nsect,
          d->report_addr, SSD_ST_OK, slot);
}

static void receive(struct ftl *f, uint16_t slot) {
  struct zns_device *d = f->zns;
  const struct hcmd *h = &f->hc[slot];
  if ((h->cdw0 & 0xFFu) != SSD_ZNS_ZRA_REPORT || h->nsect == 0 || h->nsect > SSD_MDTS_SECTORS) {
    hcmd_complete(f, slot, SSD_ST_INVALID_FIELD);
    return;
  }
  if (d->report_busy || d->rep_head != NONE32) {
    f->hc[slot].state = ZS_WAIT_REP;
    wait_push(f, &d->rep_head, &d->rep_tail, slot);
    return;
  }
  report(f, slot);
}

static void identify(struct ftl *f, uint16_t slot) {
  struct zns_device *d = f->zns;
  const struct hcmd *h = &f->hc[slot];
  const void *what = h->cdw0 == SSD_ZNS_CNS_NS ? (const void *)d->id_ns
                     : h->cdw0 == SSD_ZNS_CNS_CTRL ? (const void *)d->id_ctrl : 0;
  if (!what || h->nsect != 1) {
    hcmd_complete(f, slot, SSD_ST_INVALID_FIELD);
    return;
  }
  hif_dma(f, slot, SSD_DMA_TO_HOST, SSD_DMAF_COMPLETE | SSD_DMAF_BYTES, 1, hal_dram_addr(what), SSD_ST_OK, slot);
  f->hc[slot].state = HC_FREE;
}

/* ------------------------------------------------------------------ the port */
static void zns_start(struct ftl *f, uint16_t slot) {
  struct hcmd *h = &f->hc[slot];
  h->waited = 0;
  hal_cost(HAL_COST_HOST_CMD, 1);
  switch (h->opcode) {
    case SSD_HOP_FLUSH:   /* power-loss protection: what a write completed is safe */
      hcmd_complete(f, slot, SSD_ST_OK);
      return;
    case SSD_HOP_READ:
      hal_cost(HAL_COST_SECTOR, h->nsect);
      read(f, slot);
      return;
    case SSD_HOP_WRITE:
    case SSD_HOP_ZNS_APPEND:
      hal_cost(HAL_COST_SECTOR, h->nsect);
      write(f, slot, h->opcode == SSD_HOP_ZNS_APPEND);
      return;
    case SSD_HOP_ZNS_MGMT_SEND:
      manage(f, slot);
      return;
    case SSD_HOP_ZNS_MGMT_RECV:
      receive(f, slot);
      return;
    case SSD_HOP_ZNS_IDENTIFY:
      identify(f, slot);
      return;
    default:   /* trim and the rest: not in a zoned namespace */
      hcmd_complete(f, slot, SSD_ST_INVALID_OPCODE);
      return;
  }
}

static void zns_dma_done(struct ftl *f, uint16_t slot) {
  struct zns_device *d = f->zns;
  struct hcmd *h = &f->hc[slot];
  if (h->state == ZS_DMA_IN) {   /* a write's data is in: on in its zone's order */
    h->state = ZS_PIPE;
    zns_pipe_data_in(f, slot);
  } else if (h->state == ZS_DMA_OUT && h->opcode == SSD_HOP_READ) {
    for (uint32_t i = 0; i < h->nsect; i++) zns_buf_unref(f, h->sgl[i]);
    h->state = HC_FREE;
  } else if (h->state == ZS_DMA_OUT && h->opcode == SSD_HOP_ZNS_MGMT_RECV) {
    d->report_busy = 0;
    h->state = HC_FREE;
  } else {
    hal_fatal("fw: DMA done for a zoned device's command not moving data\n", 0x2B5D0000u | slot);
  }
}

int zns_commands_retry(struct ftl *f) {
  struct zns_device *d = f->zns;
  int n = 0;
  while (d->buf_head != NONE32 && d->bufs_left >= f->hc[d->buf_head].nsect) {
    write_in(f, wait_pop(f, &d->buf_head, &d->buf_tail));
    n++;
  }
  while (d->flash_head != NONE32 && start_read(f, (uint16_t)d->flash_head)) {
    wait_pop(f, &d->flash_head, &d->flash_tail);
    n++;
  }
  if (d->rep_head != NONE32 && !d->report_busy) {
    report(f, wait_pop(f, &d->rep_head, &d->rep_tail));
    n++;
  }
  return n;
}

static const struct host_owner zns_host_owner = {zns_start, zns_dma_done, 0, 0};
static const struct flash_owner zns_read_owner = {SSD_FRSN_HOST, 0, read_done, 0};

void zns_commands_init(struct ftl *f) {
  struct zns_device *d = f->zns;
  host_register(f, &zns_host_owner);
  flash_register(f, FOP_ZNS_READ, &zns_read_owner);
  d->buf_head = d->buf_tail = d->flash_head = d->flash_tail = NONE32;
  d->rep_head = d->rep_tail = NONE32;
}
