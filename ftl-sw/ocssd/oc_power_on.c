/* An Open-Channel device's power-on (oc_device.h).  The controller's NVRAM says whether the
 * NAND was formatted, as what and with which geometry.
 *   - A new device: the factory's bad-block markers are read (the first page of every block
 *     of every plane, in the controller's functional mode: the factory's time), each bad
 *     block's chunk goes offline and into the NOR's table (media/bad_blocks.h's layout), the
 *     erase-count log starts (wear/erase_log.h).
 *   - A used one: the bad chunks and erase counts come from the NOR; each other chunk's write
 *     pointer is found again on the NAND by a binary search over its pages (pages are
 *     programmed in order, an erased one reads all ones in its spare area; a page that reads
 *     uncorrectable was programmed, or its program was cut), every chunk at once, timed.  No
 *     write pointer is kept anywhere else: what the scan finds is the chunk's state.
 * A NAND formatted as a block device is refused (its data is a host's: never formatted
 * over), as the block device refuses one formatted as an Open-Channel device. */
#include "core/ftl.h"
#include "hal/hal.h"
#include "media/bad_blocks.h"
#include "ocssd/oc_device.h"
#include "wear/erase_log.h"

/* The scan in progress: a queue of chunks to probe next, each one's search interval in pages. */
struct oc_scan {
  uint32_t *queue, qhead, qtail, qsize;
  uint16_t *lo, *hi;               /* the first erased page lies in [lo, hi] */
  uint32_t scratch;                /* SCAN_BUFS sectors where probed sectors land */
  uint16_t *free_bufs, nfree;      /* which of them are free */
  uint8_t  factory;                /* 1: factory markers; 0: write pointers */
};

#define SCAN_BUFS 256u             /* probes in flight at most */

static uint32_t geometry_hash(const struct ssd_oc_geometry *g) {
  uint32_t h = 2166136261u;
  const uint32_t v[] = {g->num_grp, g->num_pu, g->num_chk, g->clba, g->ws_min, g->mw_cunits};
  for (uint32_t i = 0; i < sizeof v / sizeof v[0]; i++) h = (h ^ v[i]) * 16777619u;
  return h;
}

/* The NOR's two tables (media/bad_blocks.h's layout) as this device reads them: a chunk marked
 * in the first only went bad while holding data (a program failed: closed early, readable);
 * one marked in both is offline for good (bad from the factory, or retired: its erase failed,
 * or it was reset after its program failed). */
void oc_mark_bad(struct ftl *f, uint32_t c, int offline) {
  if (!f->oc->grown_bad[c]) f->stats->grown_bad_superblocks++;
  f->oc->grown_bad[c] = 1;
  bbt_nor_mark_bad(f->bb.nor_bytes, oc_chunk_sb(f->oc, c), offline);   /* before the host hears of it */
}

/* A probe: sector 0 of plane `plane` of page `page` of chunk c. */
static void probe(struct ftl *f, struct oc_scan *s, uint32_t c, uint32_t page, uint32_t plane) {
  const uint32_t tag = fop_alloc(f, FOP_OC_SCAN);
  struct fop *op = &f->fop[tag];
  op->gc_index = c;
  op->host_slot = (uint16_t)plane;
  op->prog_id = s->free_bufs[--s->nfree];
  op->sgl[0] = s->scratch + op->prog_id * SECTOR_BYTES;
  flash_submit(f, tag, SSD_FOP_READ, oc_chunk_sb(f->oc, c) * f->geo.sb_sectors + page * f->geo.unit + plane * f->geo.spp, 1,
               hal_dram_addr(op->sgl), hal_dram_addr(op->oob), SSD_FDF_SGL);
  if (s->factory) f->stats->flash_reads--;   /* the factory's, not the device's */
}

static void scan_done(struct ftl *f, uint32_t tag, const struct flash_result *r) {
  struct oc_device *d = f->oc;
  struct oc_scan *s = d->scan;
  const struct fop *op = &f->fop[tag];
  const uint32_t c = op->gc_index;
  /* All ones in the spare area and in the data: erased (a written page never is: data is
   * scrambled on a real controller; a factory marker is a spare area that is not all ones). */
  const struct ssd_sector_tag *data = hal_dram_ptr(op->sgl[0]);
  const int blank_oob = op->oob[0].lpa == NONE32 && op->oob[0].seq == NONE32;
  const int erased = r->status != SSD_FST_UNCORRECTABLE && blank_oob && (s->factory || (data->lba == NONE32 && data->seq == NONE32));
  s->free_bufs[s->nfree++] = (uint16_t)op->prog_id;
  fop_release(f, tag);
  if (s->factory) {   /* a block never written reads all ones; the factory's marker is anything else */
    if (!erased && d->chunks.desc[c].cs != SSD_OC_CHUNK_OFFLINE) {
      oc_note_offline(&d->chunks, c);
      bbt_nor_mark_bad(f->bb.nor_bytes, oc_chunk_sb(d, c), 1);
      f->stats->factory_bad_superblocks++;
    }
    return;
  }
  const uint32_t mid = (s->lo[c] + s->hi[c]) / 2u;
  if (erased) s->hi[c] = (uint16_t)mid;
  else s->lo[c] = (uint16_t)(mid + 1u);
  if (s->lo[c] < s->hi[c]) s->queue[s->qtail++ % s->qsize] = c;   /* probe again */
}

/* Issues the probes the queue holds (every plane of page 0 for the factory's scan, the middle
 * of the interval for a write pointer) until it is empty and every probe is back. */
static void run_scan(struct ftl *f, struct oc_scan *s) {
  const uint32_t per = s->factory ? f->geo.planes : 1u;
  hal_write32(SSD_SYSCTL_BASE + SYSCTL_IRQ_ENABLE, SSD_IRQ_FCTL);   /* its completions wake it */
  for (;;) {
    while (s->qhead != s->qtail && s->nfree >= per && FOP_MAX - f->fops_inflight >= per && flash_ring_space(f, per) >= per) {
      const uint32_t c = s->queue[s->qhead++ % s->qsize];
      for (uint32_t pl = 0; pl < per; pl++) probe(f, s, c, s->factory ? 0u : (s->lo[c] + s->hi[c]) / 2u, pl);
    }
    flash_commit(f);
    if (s->qhead == s->qtail && !f->fops_inflight) return;
    if (!flash_poll(f)) hal_wait_for_event();
  }
}

static struct oc_scan *scan_new(struct ftl *f, int factory) {
  const uint32_t chunks = f->oc->chunks.count;
  struct oc_scan *s = fw_alloc(f, sizeof(*s), 16);
  s->queue = fw_alloc(f, chunks * 4u, 16);
  s->qsize = chunks;
  s->qhead = s->qtail = 0;
  s->lo = fw_alloc(f, chunks * 2u, 16);
  s->hi = fw_alloc(f, chunks * 2u, 16);
  s->scratch = hal_dram_addr(fw_alloc(f, SCAN_BUFS * SECTOR_BYTES, SECTOR_BYTES));
  s->free_bufs = fw_alloc(f, SCAN_BUFS * 2u, 16);
  for (s->nfree = 0; s->nfree < SCAN_BUFS; s->nfree++) s->free_bufs[s->nfree] = s->nfree;
  s->factory = (uint8_t)factory;
  for (uint32_t c = 0; c < chunks; c++)
    if (f->oc->chunks.desc[c].cs != SSD_OC_CHUNK_OFFLINE) {
      s->lo[c] = 0;
      s->hi[c] = (uint16_t)f->geo.pages;
      s->queue[s->qtail++] = c;
    }
  return s;
}

/* A new device: offline chunks from the factory's markers. */
static void factory_scan(struct ftl *f) {
  hal_write32(SSD_SYSCTL_BASE + SYSCTL_FW_STATE, SSD_FW_STATE_PRECOND);   /* the factory's time */
  hal_write32(SSD_FCTL_BASE + FCTL_FUNCTIONAL, 1);
  run_scan(f, f->oc->scan = scan_new(f, 1));
  hal_write32(SSD_FCTL_BASE + FCTL_FUNCTIONAL, 0);
  hal_write32(SSD_SYSCTL_BASE + SYSCTL_FW_STATE, SSD_FW_STATE_BOOT);
}

/* A used device: bad chunks from the NOR (those bad from the factory offline; grown ones
 * decided by the scan), then every other chunk's write pointer from the NAND. */
static void restore(struct ftl *f) {
  struct oc_device *d = f->oc;
  for (uint32_t c = 0; c < d->chunks.count; c++) {
    const uint32_t sb = oc_chunk_sb(d, c);
    const uint32_t bit = 1u << (sb % 32u);
    if (!(bbt_nor_bad_word(f->bb.nor_bytes, 0, sb) & bit)) continue;
    if (bbt_nor_bad_word(f->bb.nor_bytes, 1, sb) & bit) {   /* the factory's, or retired */
      oc_note_offline(&d->chunks, c);
      f->stats->factory_bad_superblocks++;
    } else {
      d->grown_bad[c] = 1;
      f->stats->grown_bad_superblocks++;
    }
  }
  erase_log_load(f);
  struct oc_scan *s = scan_new(f, 0);
  d->scan = s;
  run_scan(f, s);
  const uint32_t unit = d->geo->ws_min;
  for (uint32_t c = 0; c < d->chunks.count; c++) {
    struct ssd_oc_chunk *desc = &d->chunks.desc[c];
    const uint32_t sb = oc_chunk_sb(d, c);
    desc->wli = f->sb_erases[sb] < 255u ? (uint8_t)f->sb_erases[sb] : 255u;
    if (desc->cs == SSD_OC_CHUNK_OFFLINE) continue;
    const uint32_t written = s->lo[c] * unit;
    desc->wp = desc->slba + written;
    d->programmed[c] = written;
    if (written == 0) desc->cs = d->grown_bad[c] ? SSD_OC_CHUNK_OFFLINE : SSD_OC_CHUNK_FREE;
    else if (written == desc->cnlb || d->grown_bad[c]) desc->cs = SSD_OC_CHUNK_CLOSED;
    else desc->cs = SSD_OC_CHUNK_OPEN;
  }
}

void oc_power_on(struct ftl *f) {
  static const struct flash_owner scan_owner = {SSD_FRSN_META, 0, scan_done, 0};
  flash_register(f, FOP_OC_SCAN, &scan_owner);
  const uint32_t nv = SSD_SYSCTL_BASE + SYSCTL_NVRAM;
  const uint32_t want = geometry_hash(f->oc->geo);
  const uint32_t format = hal_read32(nv + 4u * SSD_NVRAM_FORMAT);
  const uint32_t heap_mark = f->heap.used;   /* the scan's tables are given back */
  if (format == SSD_FORMAT_MAGIC)
    hal_fatal("fw: the NAND was formatted as a block device\n", SSD_HALT_BAD_CONFIG | SSD_BADCFG_FORMAT);
  if (format != SSD_FORMAT_MAGIC_OCSSD) {
    factory_scan(f);
    erase_log_format(f);
    hal_write32(nv + 4u * SSD_NVRAM_GEOMETRY, want);
    hal_write32(nv + 4u * SSD_NVRAM_FORMAT, SSD_FORMAT_MAGIC_OCSSD);
  } else {
    if (hal_read32(nv + 4u * SSD_NVRAM_GEOMETRY) != want)
      hal_fatal("fw: the NAND was formatted with another geometry\n", SSD_HALT_BAD_CONFIG | SSD_BADCFG_FORMAT);
    restore(f);
    f->stats->recovered = 1;
  }
  f->oc->scan = 0;
  f->heap.used = heap_mark;
}
