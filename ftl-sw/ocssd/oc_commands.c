/* An Open-Channel device's commands (oc_device.h): the owner of host commands
 * (core/host_port.h) and of its flash operations' completions (core/flash_port.h).
 *
 * A vector command's LBAs are checked first, all of them, against the geometry and the chunk
 * model (ocssd/oc_chunks.h); a command with any LBA at fault is refused whole, its status the
 * first fault's, the faulty LBAs named in the completion's bitmap, nothing done.  A write is
 * accepted in one step: its chunks' write pointers move on at once, so the next write to a
 * chunk may follow before this one is programmed (as pblk sends them); its programs are
 * issued in the order writes were accepted (the die programs a block's pages in order).
 * Commands that need a data buffer or room in the flash rings wait, in arrival order. */
#include "core/ftl.h"
#include "hal/hal.h"
#include "ocssd/oc_device.h"
#include "wear/erase_log.h"

/* Command states (enum hcmd_state's values, as this device uses them). */
#define OC_WAIT_BUF   HC_WAIT_BUF    /* a read or write waiting for a data buffer */
#define OC_DMA_IN     HC_DMA_IN      /* a write's data coming from the host */
#define OC_WAIT_FLASH HC_MAP_WAIT    /* a read or reset waiting for room in the flash rings */
#define OC_FLASH      HC_READING     /* its flash operations in flight */
#define OC_DMA_OUT    HC_DMA_OUT     /* a read's data going to the host */
#define OC_PROGRAM    HC_FLUSHING    /* a write with its data in, in the write order */

static uint64_t lba_of(const struct oc_device *d, uint16_t slot, uint32_t i) {
  return d->lba_list[(uint32_t)slot * SSD_OC_MAX_LBAS + i];
}

/* LBA i of the command failed with `st`: named in the bitmap; the first fault is the status. */
static void fail_lba(struct ftl *f, uint16_t slot, uint32_t i, uint16_t st) {
  struct hcmd *h = &f->hc[slot];
  h->unreadable[i / 32u] |= 1u << (i % 32u);
  if (h->status == SSD_ST_OK) h->status = st;
}

/* LBA i's chunk (log index) and sector in it; 0 if the LBA is not one the device has. */
static int lba_chunk(const struct oc_device *d, uint16_t slot, uint32_t i, uint32_t *chunk, uint32_t *sec) {
  struct oc_addr a;
  *chunk = NONE32;
  *sec = 0;
  if (!oc_lba_split(d->geo, lba_of(d, slot, i), &a)) return 0;
  *chunk = oc_chunk_index(d->geo, &a);
  *sec = a.sec;
  return 1;
}

/* The flash address (core/ftl.h: superblock x sectors + sector) of a chunk's sector. */
static uint32_t chunk_ppa(const struct ftl *f, uint32_t chunk, uint32_t sec) {
  return oc_chunk_sb(f->oc, chunk) * f->geo.sb_sectors + sec;
}

/* Room for `need` flash operations: tags and submission entries. */
static int flash_room(struct ftl *f, uint32_t need) {
  return FOP_MAX - f->fops_inflight >= need && flash_ring_space(f, need) >= need;
}

static void wait_push(struct ftl *f, uint32_t *head, uint32_t *tail, uint16_t slot) {
  f->hc[slot].next = NONE32;
  if (*tail == NONE32) *head = slot;
  else f->hc[*tail].next = slot;
  *tail = slot;
}

static void buf_put(struct oc_device *d, uint32_t b) {
  d->buf_next[b] = d->buf_free;
  d->buf_free = b;
}

/* The command's sector list: its buffer's sectors in order; each LBA's metadata as a write
 * without the host's keeps it (the LBA's low 32 bits). */
static void take_buf(struct ftl *f, uint16_t slot) {
  struct oc_device *d = f->oc;
  const uint32_t b = d->buf_free;
  d->buf_free = d->buf_next[b];
  d->slot[slot].buf = b;
  const uint32_t base = d->buf_base + b * OC_BUF_BYTES;
  struct ssd_oob *meta = &d->meta[b * SSD_OC_MAX_LBAS];
  for (uint32_t i = 0; i < f->hc[slot].nsect; i++) {
    f->hc[slot].sgl[i] = base + i * SECTOR_BYTES;
    meta[i].lpa = (uint32_t)lba_of(d, slot, i);
    meta[i].seq = 0;
  }
}

static struct ssd_oob *slot_meta(const struct ftl *f, uint16_t slot) {
  return &f->oc->meta[f->oc->slot[slot].buf * SSD_OC_MAX_LBAS];
}

/* ------------------------------------------------------------------ checks */
/* Each LBA of a read: within the geometry, readable in its chunk, programmed. */
static void check_read(struct ftl *f, uint16_t slot) {
  struct oc_device *d = f->oc;
  for (uint32_t i = 0; i < f->hc[slot].nsect; i++) {
    uint32_t c, sec;
    if (!lba_chunk(d, slot, i, &c, &sec)) {
      fail_lba(f, slot, i, SSD_ST_LBA_RANGE);
      continue;
    }
    uint16_t st = oc_check_read(&d->chunks, c, sec, 1);
    if (st == SSD_ST_OK && sec >= d->programmed[c]) st = SSD_OC_ST_UNWRITTEN;   /* in flight */
    if (st != SSD_ST_OK) fail_lba(f, slot, i, st);
  }
}

/* A write's LBAs run in stretches of consecutive sectors of one chunk; each stretch must start
 * at its chunk's write pointer and be whole write units.  They are accepted in turn (a chunk
 * may have two stretches in one command); on a fault every stretch accepted is undone. */
static void accept_write(struct ftl *f, uint16_t slot) {
  struct oc_device *d = f->oc;
  struct hcmd *h = &f->hc[slot];
  struct { uint32_t chunk; uint64_t wp; uint8_t cs; } undo[SSD_OC_MAX_LBAS];
  uint32_t nundo = 0;
  for (uint32_t i = 0; i < h->nsect;) {
    uint32_t c, sec, c2, sec2, n = 1;
    if (!lba_chunk(d, slot, i, &c, &sec)) {
      fail_lba(f, slot, i++, SSD_ST_LBA_RANGE);
      continue;
    }
    while (i + n < h->nsect && lba_chunk(d, slot, i + n, &c2, &sec2) && c2 == c && sec2 == sec + n) n++;
    const uint16_t st = oc_check_write(&d->chunks, c, sec, n);
    if (st != SSD_ST_OK) {
      for (uint32_t k = 0; k < n; k++) fail_lba(f, slot, i + k, st);
    } else if (h->status == SSD_ST_OK) {
      undo[nundo].chunk = c;
      undo[nundo].wp = d->chunks.desc[c].wp;
      undo[nundo++].cs = d->chunks.desc[c].cs;
      oc_note_written(&d->chunks, c, n);
    }
    i += n;
  }
  if (h->status == SSD_ST_OK) return;
  while (nundo--) {
    d->chunks.desc[undo[nundo].chunk].wp = undo[nundo].wp;
    d->chunks.desc[undo[nundo].chunk].cs = undo[nundo].cs;
  }
}

static void check_reset(struct ftl *f, uint16_t slot) {
  struct oc_device *d = f->oc;
  for (uint32_t i = 0; i < f->hc[slot].nsect; i++) {
    uint32_t c, sec;
    if (!lba_chunk(d, slot, i, &c, &sec)) fail_lba(f, slot, i, SSD_ST_LBA_RANGE);
    else {
      const uint16_t st = oc_check_reset(&d->chunks, c);
      if (st != SSD_ST_OK) fail_lba(f, slot, i, st);
    }
  }
}

/* ------------------------------------------------------------------ flash operations */
/* Read descriptors: a stretch of consecutive sectors within one page of one plane each. */
static uint32_t read_ops(const struct ftl *f, uint16_t slot) {
  const struct oc_device *d = f->oc;
  uint32_t ops = 0, pc = NONE32, ps = 0;
  for (uint32_t i = 0; i < f->hc[slot].nsect; i++) {
    uint32_t c, sec;
    lba_chunk(d, slot, i, &c, &sec);
    if (!(c == pc && sec == ps + 1u && sec % f->geo.spp != 0)) ops++;
    pc = c;
    ps = sec;
  }
  return ops;
}

static void submit_reads(struct ftl *f, uint16_t slot) {
  struct oc_device *d = f->oc;
  struct hcmd *h = &f->hc[slot];
  h->state = OC_FLASH;
  for (uint32_t i = 0; i < h->nsect;) {
    uint32_t c, sec, c2, sec2, n = 1;
    lba_chunk(d, slot, i, &c, &sec);
    while (i + n < h->nsect && (sec + n) % f->geo.spp != 0 && lba_chunk(d, slot, i + n, &c2, &sec2) && c2 == c &&
           sec2 == sec + n)
      n++;
    const uint32_t tag = fop_alloc(f, FOP_OC_READ);
    struct fop *op = &f->fop[tag];
    op->host_slot = slot;
    op->gc_index = i;
    for (uint32_t k = 0; k < n; k++) op->sgl[k] = h->sgl[i + k];
    flash_submit(f, tag, SSD_FOP_READ, chunk_ppa(f, c, sec), n, hal_dram_addr(op->sgl), hal_dram_addr(&slot_meta(f, slot)[i]),
                 SSD_FDF_SGL);
    h->pending++;
    i += n;
  }
}

static void submit_programs(struct ftl *f, uint16_t slot) {
  struct oc_device *d = f->oc;
  struct hcmd *h = &f->hc[slot];
  const uint32_t unit = d->geo->ws_min;   /* = f->geo.unit: a page on every plane */
  h->state = OC_FLASH;
  for (uint32_t i = 0; i < h->nsect; i += unit) {
    uint32_t c, sec;
    lba_chunk(d, slot, i, &c, &sec);
    const uint32_t tag = fop_alloc(f, FOP_OC_PROG);
    struct fop *op = &f->fop[tag];
    op->host_slot = slot;
    op->gc_index = i;
    const struct ssd_oob *meta = slot_meta(f, slot);
    for (uint32_t k = 0; k < unit; k++) {
      op->sgl[k] = h->sgl[i + k];
      op->oob[k] = meta[i + k];   /* the LBA's metadata goes to the spare area */
    }
    flash_submit(f, tag, SSD_FOP_PROGRAM, chunk_ppa(f, c, sec), unit, hal_dram_addr(op->sgl), hal_dram_addr(op->oob), SSD_FDF_SGL);
    h->pending++;
  }
}

static void submit_resets(struct ftl *f, uint16_t slot) {
  struct oc_device *d = f->oc;
  struct hcmd *h = &f->hc[slot];
  h->state = OC_FLASH;
  for (uint32_t i = 0; i < h->nsect; i++) {
    uint32_t c, sec;
    lba_chunk(d, slot, i, &c, &sec);
    const uint32_t tag = fop_alloc(f, FOP_OC_RESET);
    f->fop[tag].host_slot = slot;
    f->fop[tag].gc_index = i;
    flash_submit(f, tag, SSD_FOP_ERASE, chunk_ppa(f, c, 0), 0, 0, 0, 0);
    h->pending++;
  }
}

/* A read or reset that has what it needs but room in the flash rings. */
static int start_flash(struct ftl *f, uint16_t slot) {
  const uint32_t need = f->hc[slot].opcode == SSD_HOP_OC_READ ? read_ops(f, slot) : f->hc[slot].nsect;
  if (!flash_room(f, need)) return 0;
  if (f->hc[slot].opcode == SSD_HOP_OC_READ) submit_reads(f, slot);
  else submit_resets(f, slot);
  return 1;
}

/* Writes whose data is in, in the order they were accepted, while there is room. */
static void pump_writes(struct ftl *f) {
  struct oc_device *d = f->oc;
  while (d->wq_head != NONE32) {
    const uint16_t slot = (uint16_t)d->wq_head;
    if (f->hc[slot].state != OC_PROGRAM || !flash_room(f, f->hc[slot].nsect / d->geo->ws_min)) return;
    d->wq_head = d->slot[slot].next_write;
    if (d->wq_head == NONE32) d->wq_tail = NONE32;
    submit_programs(f, slot);
  }
}

/* ------------------------------------------------------------------ completions */
static void finish(struct ftl *f, uint16_t slot) {
  struct oc_device *d = f->oc;
  struct hcmd *h = &f->hc[slot];
  if (h->opcode == SSD_HOP_OC_READ) {
    h->state = OC_DMA_OUT;
    f->stats->host_read_cmds++;
    f->stats->host_read_sectors += h->nsect;
    hif_dma_meta(f, slot, SSD_DMA_TO_HOST, SSD_DMAF_COMPLETE | SSD_DMAF_NOTIFY | SSD_DMAF_IRQ | SSD_DMAF_SGL | SSD_DMAF_META,
                 h->nsect, hal_dram_addr(h->sgl), hal_dram_addr(slot_meta(f, slot)), h->status, slot);
    return;
  }
  if (d->slot[slot].buf != NONE32) buf_put(d, d->slot[slot].buf);
  if (h->opcode == SSD_HOP_OC_WRITE && h->status == SSD_ST_OK) f->stats->host_write_sectors += h->nsect;
  hcmd_complete(f, slot, h->status);
}

static void read_done(struct ftl *f, uint32_t tag, const struct flash_result *r) {
  const struct fop *op = &f->fop[tag];
  const uint16_t slot = op->host_slot;
  if (r->status == SSD_FST_UNCORRECTABLE) {
    for (uint32_t k = 0; k < op->nsect; k++) fail_lba(f, slot, op->gc_index + k, SSD_ST_MEDIA_ERROR);
    f->stats->media_errors++;
  }
  fop_release(f, tag);
  if (--f->hc[slot].pending == 0) finish(f, slot);
}

static void program_done(struct ftl *f, uint32_t tag, const struct flash_result *r) {
  struct oc_device *d = f->oc;
  const struct fop *op = &f->fop[tag];
  const uint16_t slot = op->host_slot;
  uint32_t c, sec;
  lba_chunk(d, slot, op->gc_index, &c, &sec);
  d->programmed[c] = sec + op->nsect;
  f->stats->flash_prog_sectors += op->nsect;
  if (r->status == SSD_FST_PROGRAM_FAIL) {   /* the chunk closes early; its reset retires it */
    for (uint32_t k = 0; k < op->nsect; k++) fail_lba(f, slot, op->gc_index + k, SSD_OC_ST_EARLY_CLOSE);
    if (!d->grown_bad[c]) oc_mark_bad(f, c, 0);
    oc_note_closed(&d->chunks, c);
  }
  fop_release(f, tag);
  if (--f->hc[slot].pending == 0) finish(f, slot);
}

static void reset_done(struct ftl *f, uint32_t tag, const struct flash_result *r) {
  struct oc_device *d = f->oc;
  const struct fop *op = &f->fop[tag];
  const uint16_t slot = op->host_slot;
  uint32_t c, sec;
  lba_chunk(d, slot, op->gc_index, &c, &sec);
  const uint32_t sb = oc_chunk_sb(d, c);
  f->stats->erases++;
  if (r->status == SSD_FST_ERASE_FAIL) {
    fail_lba(f, slot, op->gc_index, SSD_OC_ST_OFFLINE_CHUNK);
    oc_mark_bad(f, c, 1);
    oc_note_offline(&d->chunks, c);
  } else {
    f->sb_erases[sb]++;
    erase_log_erased(f, sb);
    oc_note_reset(&d->chunks, c);
    d->chunks.desc[c].wli = f->sb_erases[sb] < 255u ? (uint8_t)f->sb_erases[sb] : 255u;
    d->programmed[c] = 0;
    if (d->grown_bad[c]) {   /* retired once its data is gone */
      oc_mark_bad(f, c, 1);
      oc_note_offline(&d->chunks, c);
    }
  }
  fop_release(f, tag);
  if (--f->hc[slot].pending == 0) finish(f, slot);
}

/* ------------------------------------------------------------------ the host's commands */
static void log_page(struct ftl *f, uint16_t slot) {
  struct oc_device *d = f->oc;
  const struct hcmd *h = &f->hc[slot];
  if (h->lba == NONE32 || h->lba % SECTOR_BYTES || h->nsect == 0 ||
      (uint64_t)h->lba + (uint64_t)h->nsect * SECTOR_BYTES > d->log_bytes) {
    hcmd_complete(f, slot, SSD_ST_INVALID_FIELD);
    return;
  }
  hif_dma(f, slot, SSD_DMA_TO_HOST, SSD_DMAF_COMPLETE | SSD_DMAF_BYTES, h->nsect,
          hal_dram_addr(d->chunks.desc) + h->lba, SSD_ST_OK, slot);
  f->hc[slot].state = HC_FREE;
}

/* A read or write with its buffer: a write's data comes in, a read goes to the flash. */
static void with_buffer(struct ftl *f, uint16_t slot) {
  struct hcmd *h = &f->hc[slot];
  if (h->opcode == SSD_HOP_OC_WRITE) {
    h->state = OC_DMA_IN;
    hif_dma_meta(f, slot, SSD_DMA_FROM_HOST, SSD_DMAF_NOTIFY | SSD_DMAF_IRQ | SSD_DMAF_SGL | SSD_DMAF_META, h->nsect,
                 hal_dram_addr(h->sgl), hal_dram_addr(slot_meta(f, slot)), SSD_ST_OK, slot);
  } else if (f->oc->flash_head != NONE32 || !start_flash(f, slot)) {
    h->state = OC_WAIT_FLASH;
    wait_push(f, &f->oc->flash_head, &f->oc->flash_tail, slot);
  }
}

static void oc_start(struct ftl *f, uint16_t slot) {
  struct oc_device *d = f->oc;
  struct hcmd *h = &f->hc[slot];
  h->unreadable[0] = h->unreadable[1] = 0;
  d->slot[slot].buf = NONE32;
  hal_cost(HAL_COST_HOST_CMD, 1);
  switch (h->opcode) {
    case SSD_HOP_FLUSH:   /* nothing volatile: a write completes once programmed */
      hcmd_complete(f, slot, SSD_ST_OK);
      return;
    case SSD_HOP_OC_GEOMETRY:
      if (h->nsect != 1) {
        hcmd_complete(f, slot, SSD_ST_INVALID_FIELD);
        return;
      }
      hif_dma(f, slot, SSD_DMA_TO_HOST, SSD_DMAF_COMPLETE | SSD_DMAF_BYTES, 1, hal_dram_addr(d->geo), SSD_ST_OK, slot);
      h->state = HC_FREE;
      return;
    case SSD_HOP_OC_CHUNK_LOG:
      log_page(f, slot);
      return;
    case SSD_HOP_OC_RESET:
    case SSD_HOP_OC_WRITE:
    case SSD_HOP_OC_READ:
      break;
    default:
      hcmd_complete(f, slot, SSD_ST_INVALID_OPCODE);
      return;
  }
  if (h->nsect == 0 || h->nsect > SSD_OC_MAX_LBAS) {
    hcmd_complete(f, slot, SSD_OC_ST_LBAL_INVALID);
    return;
  }
  hal_cost(HAL_COST_SECTOR, h->nsect);
  if (h->opcode == SSD_HOP_OC_RESET) check_reset(f, slot);
  else if (h->opcode == SSD_HOP_OC_READ) check_read(f, slot);
  else accept_write(f, slot);
  if (h->status != SSD_ST_OK) {
    hcmd_complete(f, slot, h->status);
    return;
  }
  if (h->opcode == SSD_HOP_OC_WRITE) {   /* in the order of the write pointers it moved */
    d->slot[slot].next_write = NONE32;
    if (d->wq_tail == NONE32) d->wq_head = slot;
    else d->slot[d->wq_tail].next_write = slot;
    d->wq_tail = slot;
  }
  if (h->opcode == SSD_HOP_OC_RESET) {
    if (d->flash_head != NONE32 || !start_flash(f, slot)) {
      h->state = OC_WAIT_FLASH;
      wait_push(f, &d->flash_head, &d->flash_tail, slot);
    }
  } else if (d->buf_head != NONE32 || d->buf_free == NONE32) {
    h->state = OC_WAIT_BUF;
    wait_push(f, &d->buf_head, &d->buf_tail, slot);
  } else {
    take_buf(f, slot);
    with_buffer(f, slot);
  }
}

static void oc_dma_done(struct ftl *f, uint16_t slot) {
  struct oc_device *d = f->oc;
  struct hcmd *h = &f->hc[slot];
  if (h->state == OC_DMA_IN) {          /* a write's data is in: programs in write order */
    h->state = OC_PROGRAM;
    pump_writes(f);
  } else if (h->state == OC_DMA_OUT) {  /* a read's data went out: its buffer is free */
    buf_put(d, d->slot[slot].buf);
    h->state = HC_FREE;
  } else {
    hal_fatal("fw: DMA done for an Open-Channel command not moving data\n", 0x0C0D0000u | slot);
  }
}

int oc_commands_retry(struct ftl *f) {
  struct oc_device *d = f->oc;
  int n = 0;
  while (d->buf_head != NONE32 && d->buf_free != NONE32) {
    const uint16_t slot = (uint16_t)d->buf_head;
    d->buf_head = f->hc[slot].next;
    if (d->buf_head == NONE32) d->buf_tail = NONE32;
    take_buf(f, slot);
    with_buffer(f, slot);
    n++;
  }
  while (d->flash_head != NONE32 && start_flash(f, (uint16_t)d->flash_head)) {
    d->flash_head = f->hc[d->flash_head].next;
    if (d->flash_head == NONE32) d->flash_tail = NONE32;
    n++;
  }
  if (d->wq_head != NONE32) pump_writes(f);
  return n;
}

static const struct host_owner oc_host_owner = {oc_start, oc_dma_done, 0, 0};
static const struct flash_owner oc_read_owner = {SSD_FRSN_HOST, 0, read_done, 0};
static const struct flash_owner oc_program_owner = {SSD_FRSN_HOST, SSD_FST_PROGRAM_FAIL, program_done, program_done};
static const struct flash_owner oc_reset_owner = {SSD_FRSN_HOST, SSD_FST_ERASE_FAIL, reset_done, reset_done};

void oc_commands_init(struct ftl *f) {
  struct oc_device *d = f->oc;
  host_register(f, &oc_host_owner);
  flash_register(f, FOP_OC_READ, &oc_read_owner);
  flash_register(f, FOP_OC_PROG, &oc_program_owner);
  flash_register(f, FOP_OC_RESET, &oc_reset_owner);
  d->buf_head = d->buf_tail = d->flash_head = d->flash_tail = NONE32;
  d->wq_head = d->wq_tail = NONE32;
}
