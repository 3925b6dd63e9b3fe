/* Host command handling: validation, reads (write buffer, map, flash), writes into the
 * write buffer (acknowledged once the data is in DRAM), flush, trim, and the queues of
 * commands waiting for buffer space, in the order ftl.sched says:
 *   bypass / write-stop / adaptive: reads and writes wait in separate queues, so a read never
 *     waits behind a write that waits for buffer space (write-stop and adaptive also change
 *     how the buffer drains while reads are pending: fw_main.c, write_buffer.c);
 *   fifo: commands start in arrival order; one that must wait holds all behind it.
 * A write waits for space in its own core's part of the write buffer, in that core's queue
 * (with fifo, every command of the core does); reads, flushes and trims wait in shared
 * queues (core/fw_core.h). */
#include "core/ftl.h"
#include "hal/hal.h"

static void wait_push(struct ftl *f, uint32_t *head, uint32_t *tail, uint16_t slot) {
  f->hc[slot].next = NONE32;
  if (*tail == NONE32) *head = slot;
  else f->hc[*tail].next = slot;
  *tail = slot;
}

static void wait_pop(struct ftl *f, uint32_t *head, uint32_t *tail) {
  *head = f->hc[*head].next;
  if (*head == NONE32) *tail = NONE32;
}

void hcmd_complete(struct ftl *f, uint16_t slot, uint16_t status) {
  hif_dma(f, slot, SSD_DMA_NONE, SSD_DMAF_COMPLETE, 0, 0, status, slot);
  f->hc[slot].state = HC_FREE;
}

/* A read's done entry only frees its buffers: it need not wake the firmware, which finds it
 * on its next pass, unless reads are waiting for buffers (then every done entry
 * interrupts: set_done_irq_all). */
static void read_send(struct ftl *f, uint16_t slot) {
  struct hcmd *h = &f->hc[slot];
  h->state = HC_DMA_OUT;
  f->reads_active--;
  struct ssd_fw_stats *st = f->stats;
  st->host_read_cmds++;
  if (h->waited & SSD_CPLI_MAP_READ) st->reads_waited_map_read++;
  if (h->waited & SSD_CPLI_MAP_WRITE) st->reads_waited_map_write++;
  if (h->waited & SSD_CPLI_GC) st->reads_waited_gc++;
  if (h->waited & SSD_CPLI_QUEUED) st->reads_queued_behind_writes++;
  hif_dma(f, slot, SSD_DMA_TO_HOST, SSD_DMAF_COMPLETE | SSD_DMAF_NOTIFY | SSD_DMAF_SGL,
          h->nsect, hal_dram_addr(h->sgl), h->status, slot);
  if (f->ra.policy) ra_read_sent(f);   /* read ahead while the data goes out */
}

/* Sectors [first, first + n) of the read could not be read: the command fails with a media
 * error naming them (ssd_hif_dma.error_map); the rest of its data goes to the host intact. */
static void sectors_unreadable(struct ftl *f, struct hcmd *h, uint32_t first, uint32_t n) {
  if (h->status != SSD_ST_MEDIA_ERROR) {
    for (uint32_t w = 0; w < SSD_MDTS_SECTORS / 32u; w++) h->unreadable[w] = 0;
    h->status = SSD_ST_MEDIA_ERROR;
  }
  for (uint32_t k = first; k < first + n; k++) h->unreadable[k / 32u] |= 1u << (k % 32u);
  f->stats->media_errors++;
}

void hcmd_sector_ready(struct ftl *f, uint16_t slot, uint32_t sector, uint16_t status) {
  struct hcmd *h = &f->hc[slot];
  if (status == SSD_FST_UNCORRECTABLE) sectors_unreadable(f, h, sector, 1);
  if (--h->pending == 0) read_send(f, slot);
}

/* Every core's done entries interrupt (or not): a read buffer may be freed on any core. */
static void set_done_irq_all(struct ftl *f, uint8_t on) {
  for (uint32_t k = 0; k < f->ncores; k++) {
    struct fw_core *c = f->core[k];
    if (c->done_irq_all == on) continue;
    c->done_irq_all = on;
    hal_write32(c->hif + HIF_DONE_IRQ_ALL, on);
  }
}

/* The write queue of the command's core. */
static void write_wait_push(struct ftl *f, uint16_t slot) {
  struct fw_core *c = f->core[f->hc[slot].core];
  wait_push(f, &c->wait_write_head, &c->wait_write_tail, slot);
  f->writes_waiting++;
}

#define WAITED_COUNTED 0x80u   /* h->waited: its mapping lookups were counted */

/* Starts a read if its mappings are in DRAM and buffers and flash queue space allow; returns 0
 * to wait for buffers.  A read whose translation pages are not cached starts their loads and
 * waits in HC_MAP_WAIT (returns 1): hcmd_map_ready runs it again. */
static int read_try(struct ftl *f, uint16_t slot) {
  struct hcmd *h = &f->hc[slot];
  const struct ftl_geo *g = &f->geo;
  struct read_cache *rc = f->ra.policy ? &f->ra.rc : 0;
  uint32_t need = 0, miss_tp = NONE32, waits = 0;
  const int count = !(h->waited & WAITED_COUNTED);
  h->waited |= WAITED_COUNTED;
  for (uint32_t i = 0; i < h->nsect; i++) {
    uint32_t lpa = h->lba + i;
    if (wbuf_lookup(f, lpa) != NONE32) continue;
    if (hcmd_trim_pending(f, lpa)) continue;
    if (rc) {
      uint32_t c = rc_lookup(rc, lpa);
      if (c != NONE32 && !(rc->e[c].flags & RC_QUEUED)) {   /* cached, or on its way */
        waits += rc->e[c].state == RC_FILLING;
        continue;
      }
    }
    uint32_t ppa = map_lookup(f, lpa, count);
    if (ppa == MAP_MISS) {
      uint32_t tp = lpa / TP_ENTRIES;
      if (tp != miss_tp) dmap_load_for_read(f, tp, slot);
      miss_tp = tp;
    } else if (ppa != NONE32) {
      need++;
    }
  }
  if (miss_tp != NONE32) {
    h->state = HC_MAP_WAIT;
    return 1;
  }
  if (need > f->rb.free_count || (rc && waits > rc->w_free_count)) return 0;
  if (need > FOP_MAX - f->fops_inflight || need > flash_ring_space(f, need)) return 0;
  hal_cost(HAL_COST_SECTOR, h->nsect);
  h->state = HC_READING;
  h->pending = 0;
  uint32_t run_tag = NONE32, run_next_ppa = NONE32;
  for (uint32_t i = 0; i < h->nsect; i++) {
    uint32_t lpa = h->lba + i;
    uint32_t s = wbuf_lookup(f, lpa);
    h->slot_of[i] = NONE32;
    if (s != NONE32) {
      f->wb.pins[s]++;
      h->slot_of[i] = s;
      h->sgl[i] = wbuf_slot_addr(f, s);
      f->stats->wbuf_read_hits++;
      run_tag = NONE32;
      continue;
    }
    const int trimmed = hcmd_trim_pending(f, lpa);
    uint32_t c = rc && !trimmed ? rc_lookup(rc, lpa) : NONE32;
    if (c != NONE32 && !(rc->e[c].flags & RC_QUEUED)) {
      /* In the read cache: there already, or on its way (wait for that read). */
      struct rc_entry *e = &rc->e[c];
      rc_pin(rc, c);
      h->sgl[i] = rc_addr(rc, c);
      if (e->flags & RC_PREFETCHED) {
        e->flags &= (uint8_t)~RC_PREFETCHED;
        f->stats->ra_prefetch_useful++;
      }
      if (e->state == RC_FILLING) {
        rc_wait(rc, c, slot, i);
        h->pending++;
        f->stats->ra_late_hit_sectors++;
      }
      f->stats->ra_hit_sectors++;
      run_tag = NONE32;
      continue;
    }
    uint32_t ppa = trimmed ? NONE32 : map_lookup(f, lpa, 0);
    if (ppa == NONE32) {
      h->sgl[i] = f->zero_sector_addr;
      f->stats->unmapped_reads++;
      run_tag = NONE32;
      continue;
    }
    if (rc) {
      /* Through the read cache: a read-ahead still queued becomes this read's own. */
      if (c != NONE32) ra_take_queued(f, c);
      else c = rc_alloc(f, lpa, 0);
      f->stats->ra_miss_sectors++;
    }
    if (c != NONE32) {
      rc_pin(rc, c);                 /* the host's pin; the fill holds the other */
      h->sgl[i] = rc_addr(rc, c);
    } else {
      rbuf_alloc(f, 1, &h->sgl[i]);
    }
    h->pending++;
    if (die_gc_busy(f, sb_die(f, ppa_sb(f, ppa)))) h->waited |= SSD_CPLI_GC;
    /* Extend the previous descriptor when this sector follows it in the same page/plane. */
    if (run_tag != NONE32 && ppa == run_next_ppa && ppa % g->spp != 0) {
      f->fop[run_tag].nsect++;
      struct fw_core *c = f->cur;
      struct ssd_flash_desc *d = &c->fsub[(c->fsub_pos.tail - 1u) & (c->fsub_pos.size - 1u)];
      d->nsect++;
      run_next_ppa++;
      continue;
    }
    uint32_t tag = fop_alloc(f, FOP_HOST_READ);
    f->fop[tag].host_slot = slot;
    f->fop[tag].gc_index = i;
    flash_submit(f, tag, SSD_FOP_READ, ppa, 1, hal_dram_addr(&h->sgl[i]), 0, SSD_FDF_SGL);
    if (rc) ra_host_read_submitted(f, f->fop[tag].die);
    run_tag = tag;
    run_next_ppa = ppa + 1;
  }
  f->stats->host_read_sectors += h->nsect;
  if (h->pending == 0) read_send(f, slot);
  return 1;
}

void hcmd_map_ready(struct ftl *f, uint16_t slot) {
  struct hcmd *h = &f->hc[slot];
  if (read_try(f, slot)) return;
  h->state = HC_WAIT_BUF;                      /* read buffers: wait with the others */
  wait_push(f, &f->wait_read_head, &f->wait_read_tail, slot);
  set_done_irq_all(f, 1);
}

static void host_read_done(struct ftl *f, uint32_t tag, const struct flash_result *r) {
  const uint16_t status = r->status;
  struct fop *op = &f->fop[tag];
  struct hcmd *h = &f->hc[op->host_slot];
  uint16_t slot = op->host_slot;
  if (status == SSD_FST_UNCORRECTABLE) sectors_unreadable(f, h, op->gc_index, op->nsect);
  if (f->ra.policy) {
    /* Sectors read into the cache are there for everyone now (the fill's pin goes). */
    struct read_cache *rc = &f->ra.rc;
    for (uint32_t k = op->gc_index; k < op->gc_index + op->nsect; k++) {
      uint32_t c = rc_entry_of(rc, h->sgl[k]);
      if (c != NONE32) rc_fill_done(f, c, status, f->ra.policy->keep_read);
    }
  }
  h->pending -= op->nsect;
  fop_release(f, tag);
  if (h->pending == 0) read_send(f, slot);
}

static int write_try(struct ftl *f, uint16_t slot) {
  struct hcmd *h = &f->hc[slot];
  if (!wbuf_alloc(f, &f->core[h->core]->wb, h->nsect, h->slot_of)) return 0;
  hal_cost(HAL_COST_SECTOR, h->nsect);
  for (uint32_t i = 0; i < h->nsect; i++) h->sgl[i] = wbuf_slot_addr(f, h->slot_of[i]);
  h->state = HC_DMA_IN;
  /* A durable write is completed by flush_wait, not by its DMA. */
  hif_dma(f, slot, SSD_DMA_FROM_HOST,
          (h->durable ? 0u : SSD_DMAF_COMPLETE) | SSD_DMAF_NOTIFY | SSD_DMAF_IRQ | SSD_DMAF_SGL,
          h->nsect, hal_dram_addr(h->sgl), SSD_ST_OK, slot);
  return 1;
}

/* A flush, or a durable write whose data is in the buffer: completes once every part's every
 * region has drained past what was buffered now and the programs issued until then are done
 * (hcmd_retry_waiting).  A durable write so drains what was buffered before it too: the
 * buffer programs in order, as a flush would. */
static void flush_wait(struct ftl *f, uint16_t slot) {
  struct hcmd *h = &f->hc[slot];
  if (f->cfg.test_defect == SSD_DEFECT_FLUSH_EARLY) {   /* a broken drive for the tests */
    hcmd_complete(f, slot, SSD_ST_OK);
    return;
  }
  h->state = HC_FLUSHING;
  drain_barrier_begin(f, &h->flush);
  h->next = f->flush_head;
  f->flush_head = slot;
}

/* Logs the trim (recovery/trim_log.h) and unmaps the range; the command completes once the map
 * says so (with a demand-based map the translation pages may have to be loaded first: one map
 * operation per page touched). */
static void trim(struct ftl *f, uint16_t slot) {
  struct hcmd *h = &f->hc[slot];
  hal_cost(HAL_COST_SECTOR, h->nsect);
  /* The trim takes a version as a write does: recovery drops older versions of its sectors. */
  h->trim_ver = next_version(f);
  if (!trim_log_add(f, h->lba, h->nsect, h->trim_ver)) {
    hcmd_complete(f, slot, SSD_ST_OK);   /* the log is full: ignored (a deallocate is advisory) */
    return;
  }
  for (uint32_t i = 0; i < h->nsect; i++) wbuf_discard_lpa(f, h->lba + i);
  if (f->ra.policy) ra_invalidate(f, h->lba, h->nsect);
  h->map_pending = 0;
  if (!f->demand) {
    for (uint32_t i = 0; i < h->nsect; i++) map_set(f, h->lba + i, NONE32);
  } else {
    for (uint32_t lpa = h->lba, end = h->lba + h->nsect; lpa < end;) {
      uint32_t stop = (lpa / TP_ENTRIES + 1u) * TP_ENTRIES;
      if (stop > end) stop = end;
      if (!dmap_trim(f, lpa, stop - lpa, slot)) h->map_pending++;
      lpa = stop;
    }
  }
  if (h->map_pending == 0) {
    hcmd_complete(f, slot, SSD_ST_OK);
    return;
  }
  /* Until the map says so, reads of the range see it trimmed (its buffered data is gone). */
  h->state = HC_MAP_WAIT;
  h->next = f->trim_head;
  f->trim_head = slot;
}

void hcmd_trim_done(struct ftl *f, uint16_t slot) {
  if (--f->hc[slot].map_pending) return;
  for (uint32_t *link = &f->trim_head; *link != NONE32; link = &f->hc[*link].next)
    if (*link == slot) {
      *link = f->hc[slot].next;
      break;
    }
  hcmd_complete(f, slot, SSD_ST_OK);
}

/* lpa lies in a trim whose map update is still pending. */
int hcmd_trim_pending(const struct ftl *f, uint32_t lpa) {
  if (f->trim_head == NONE32) return 0;
  for (uint32_t t = f->trim_head; t != NONE32; t = f->hc[t].next)
    if (lpa - f->hc[t].lba < f->hc[t].nsect) return 1;
  return 0;
}

/* A new read waits behind reads already waiting for buffers. */
static int must_queue_read(const struct ftl *f) { return f->wait_read_head != NONE32; }

static void hcmd_start(struct ftl *f, uint16_t slot) {
  struct hcmd *h = &f->hc[slot];
  hal_cost(HAL_COST_HOST_CMD, 1);
  uint8_t op = h->opcode;
  if (op != SSD_HOP_READ && op != SSD_HOP_WRITE && op != SSD_HOP_FLUSH && op != SSD_HOP_TRIM) {
    if (fdp_on(f) && fdp_command(f, slot)) return;   /* FDP's logs and I/O management */
    hcmd_complete(f, slot, SSD_ST_INVALID_OPCODE);
    return;
  }
  if (op != SSD_HOP_FLUSH) {
    if (h->nsect == 0 || h->nsect > SSD_MDTS_SECTORS) {
      hcmd_complete(f, slot, SSD_ST_INVALID_FIELD);
      return;
    }
    if (h->lba >= f->geo.logical_sectors || h->nsect > f->geo.logical_sectors - h->lba) {
      hcmd_complete(f, slot, SSD_ST_LBA_RANGE);
      return;
    }
  }
  if ((op == SSD_HOP_WRITE || op == SSD_HOP_TRIM) && bbt_read_only(&f->bb)) {   /* media/bad_blocks.h */
    f->stats->writes_refused++;
    hcmd_complete(f, slot, SSD_ST_WRITE_PROTECTED);
    return;
  }
  switch (op) {
    case SSD_HOP_READ:
      place_note_request(f, SSD_HOP_READ, h->lba, h->nsect);
      if (f->ra.policy) ra_note_read(f, h->lba, h->nsect);
      f->reads_active++;
      h->waited = 0;
      h->map_pending = 0;
      if (f->cfg.sched == SSD_SCHED_FIFO && f->core[h->core]->wait_write_head != NONE32) {
        /* In arrival order: behind the commands already waiting. */
        h->state = HC_WAIT_BUF;
        h->waited |= SSD_CPLI_QUEUED;
        write_wait_push(f, slot);
      } else if (must_queue_read(f) || !read_try(f, slot)) {
        h->state = HC_WAIT_BUF;
        wait_push(f, &f->wait_read_head, &f->wait_read_tail, slot);
        set_done_irq_all(f, 1);
      }
      break;
    case SSD_HOP_WRITE:
      h->fdp_queue = fdp_on(f) ? (uint8_t)fdp_queue_of_write(f, h->cdw1, h->nsect) : 0u;
      if (f->core[h->core]->wait_write_head != NONE32 || !write_try(f, slot)) {
        h->state = HC_WAIT_BUF;
        f->stats->write_stalls++;
        write_wait_push(f, slot);
      }
      break;
    case SSD_HOP_TRIM:
      trim(f, slot);
      break;
    default: /* flush: done when everything acknowledged before it is on flash */
      f->core[h->core]->stats->flushes++;
      flush_wait(f, slot);
      break;
  }
}

static void hcmd_dma_done(struct ftl *f, uint16_t slot) {
  struct hcmd *h = &f->hc[slot];
  if (h->state == HC_DMA_IN) {
    for (uint32_t i = 0; i < h->nsect; i++) wbuf_commit_sector(f, h->slot_of[i], h->lba + i, h->nsect, h->fdp_queue);
    if (f->ra.policy) ra_invalidate(f, h->lba, h->nsect);   /* the buffer serves them now */
    place_note_request(f, SSD_HOP_WRITE, h->lba, h->nsect);   /* after its placement */
    f->stats->host_write_sectors += h->nsect;
    if (h->durable) {
      f->stats->durable_writes++;
      flush_wait(f, slot);
      return;
    }
  } else if (h->state == HC_DMA_OUT) {
    for (uint32_t i = 0; i < h->nsect; i++) {
      uint32_t c;
      if (h->slot_of[i] != NONE32) wbuf_unpin(f, h->slot_of[i]);
      else if (f->ra.policy && (c = rc_entry_of(&f->ra.rc, h->sgl[i])) != NONE32)
        rc_unpin(f, c, f->ra.policy->keep_read);
      else if (h->sgl[i] != f->zero_sector_addr) rbuf_free(f, h->sgl[i]);
    }
  } else if (h->state == HC_DMA_LOG) {
    fdp_log_sent(f, slot);
  } else {
    hal_puts("fw: DMA done for a command in the wrong state\n");
    hal_halt(0xD3A00000u | slot);
  }
  h->state = HC_FREE;
}

int hcmd_retry_waiting(struct ftl *f) {
  int n = 0;
  /* Each core's write queue (with ftl.sched = fifo: every command, in arrival order). */
  for (uint32_t k = 0; k < f->ncores && f->writes_waiting; k++) {
    struct fw_core *c = f->core[k];
    while (c->wait_write_head != NONE32) {
      uint16_t s = (uint16_t)c->wait_write_head;
      int ok = f->hc[s].opcode == SSD_HOP_READ ? read_try(f, s) : write_try(f, s);
      if (!ok) break;
      wait_pop(f, &c->wait_write_head, &c->wait_write_tail);
      f->writes_waiting--;
      n++;
    }
  }
  while (f->wait_read_head != NONE32 && read_try(f, (uint16_t)f->wait_read_head)) {
    wait_pop(f, &f->wait_read_head, &f->wait_read_tail);
    n++;
  }
  if (f->wait_read_head == NONE32) set_done_irq_all(f, 0);
  return n + hcmd_flushes_done(f);
}

/* Flushes: complete once what was buffered before them is on flash. */
int hcmd_flushes_done(struct ftl *f) {
  int n = 0;
  uint32_t *link = &f->flush_head;
  while (*link != NONE32) {
    struct hcmd *h = &f->hc[*link];
    if (drain_barrier_passed(f, &h->flush)) {
      uint16_t s = (uint16_t)*link;
      *link = h->next;
      hcmd_complete(f, s, SSD_ST_OK);
      n++;
      continue;
    }
    link = &h->next;
  }
  return n;
}

/* Host commands come here (core/host_port.h: a command's arrival also restarts the idle clock
 * of idle-time migration), and host reads' flash completions (core/flash_port.h). */
static const struct host_owner host_cmd_owner = {hcmd_start, hcmd_dma_done, idle_note_command, precondition_run};
static const struct flash_owner host_read_owner = {SSD_FRSN_HOST, 0, host_read_done, 0};

void hcmd_init(struct ftl *f) {
  host_register(f, &host_cmd_owner);
  flash_register(f, FOP_HOST_READ, &host_read_owner);
}
