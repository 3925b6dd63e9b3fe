/* Flexible Data Placement's host commands (place/fdp.h): Get Log Page of the four FDP logs,
 * I/O Management Receive (Reclaim Unit Handle Status) and Send (Reclaim Unit Handle Update).
 * A log is built in one 4 KiB DRAM sector and sent as bytes; a command finding it on its way to
 * the host waits for it.  The statistics are the drive's own counters: host bytes = the host
 * sectors written (preconditioning's included: they stand for host writes), media bytes = every
 * sector programmed (host data, GC copies, padding, translation pages), bytes erased =
 * superblock erases x a superblock's bytes.
 * Leaves out: log offsets past the first 4 KiB (every log fits it), more than two PIDs per
 * Reclaim Unit Handle Update. */
#include "core/ftl.h"
#include "hal/hal.h"

static void zero(uint8_t *p, uint32_t n) {
  while (n--) *p++ = 0;
}

/* The handle's open superblock's sectors left, over the pools of its group (a pool with none
 * open: a whole superblock, the one it would take). */
static uint64_t ru_available(struct ftl *f, uint32_t group, uint32_t handle) {
  const struct fdp *d = &f->pl.fdp;
  uint64_t n = 0;
  for (uint32_t p = group * d->dies_per_group; p < (group + 1u) * d->dies_per_group; p++) {
    const struct pool_state *ps = &f->pool[p];
    const uint32_t sb = *fdp_stream_sb(f, p, (int)(STREAM_FDP_HOST + handle));
    const uint32_t page = *fdp_stream_page(f, p, (int)(STREAM_FDP_HOST + handle));
    n += sb == NONE32 ? ps->sb_capacity : (uint64_t)(ps->pages - page) * f->geo.unit;
  }
  return n;
}

/* Fills the log buffer with log `lid`; 0 if there is no such log. */
static int build_log(struct ftl *f, uint32_t lid, uint8_t *buf) {
  const struct fdp *d = &f->pl.fdp;
  const struct ftl_geo *g = &f->geo;
  switch (lid) {
    case SSD_LID_FDP_CONFIGS: {
      struct ssd_fdp_config_log *h = (struct ssd_fdp_config_log *)buf;
      struct ssd_fdp_config_desc *c = (struct ssd_fdp_config_desc *)(h + 1);
      struct ssd_fdp_ruh_desc *r = (struct ssd_fdp_ruh_desc *)(c + 1);
      c->size = (uint16_t)(sizeof *c + d->handles * sizeof *r);
      h->n = 0;
      h->size = (uint32_t)sizeof *h + c->size;
      c->fdpa = (uint8_t)(d->rgif | SSD_FDPA_VALID | SSD_FDPA_FDPVWC);
      c->nrg = d->groups;
      c->nruh = (uint16_t)d->handles;
      c->maxpids = (uint16_t)(d->groups * d->handles - 1u);
      c->nnss = 1;
      c->runs = (uint64_t)f->pool[0].sb_capacity * d->dies_per_group * SECTOR_BYTES;
      for (uint32_t k = 0; k < d->handles; k++)
        r[k].ruht = (uint8_t)(d->persistent ? SSD_FDP_RUHT_PERSISTENTLY_ISOLATED : SSD_FDP_RUHT_INITIALLY_ISOLATED);
      return 1;
    }
    case SSD_LID_FDP_RUH_USAGE: {
      struct ssd_fdp_ruhu_log *h = (struct ssd_fdp_ruhu_log *)buf;
      struct ssd_fdp_ruhu_desc *u = (struct ssd_fdp_ruhu_desc *)(h + 1);
      h->nruh = (uint16_t)d->handles;
      for (uint32_t k = 0; k < d->handles; k++) u[k].ruha = d->n->ruha[k];
      return 1;
    }
    case SSD_LID_FDP_STATS: {
      struct ssd_fdp_stats_log *s = (struct ssd_fdp_stats_log *)buf;
      uint64_t host = 0;   /* every queue's host sectors, preconditioning's included */
      for (uint32_t q = 0; q < d->groups * d->handles; q++) host += d->n->host_sectors[q];
      s->hbmw[0] = host * SECTOR_BYTES;
      s->mbmw[0] = f->stats->flash_prog_sectors * SECTOR_BYTES;
      s->mbe[0] = f->stats->erases * f->pool[0].sb_capacity * SECTOR_BYTES;
      (void)g;
      return 1;
    }
    case SSD_LID_FDP_EVENTS: {
      struct ssd_fdp_events_log *h = (struct ssd_fdp_events_log *)buf;
      struct ssd_fdp_event *e = (struct ssd_fdp_event *)(h + 1);
      h->n = d->ev_count;
      for (uint32_t k = 0; k < d->ev_count; k++) e[k] = d->events[(d->ev_head + k) % SSD_FDP_EVENTS_MAX];
      return 1;
    }
    default:
      return 0;
  }
}

static void build_ruh_status(struct ftl *f, uint8_t *buf) {
  const struct fdp *d = &f->pl.fdp;
  struct ssd_fdp_ruh_status *h = (struct ssd_fdp_ruh_status *)buf;
  struct ssd_fdp_ruh_status_desc *s = (struct ssd_fdp_ruh_status_desc *)(h + 1);
  h->nruhsd = (uint16_t)(d->groups * d->handles);
  for (uint32_t grp = 0; grp < d->groups; grp++)
    for (uint32_t k = 0; k < d->handles; k++, s++) {
      s->pid = fdp_pid(f, grp, k);
      s->ruhid = (uint16_t)k;
      s->ruamw = ru_available(f, grp, k);
    }
}

/* Reclaim Unit Handle Update of one PID: the handle leaves its RU in the group (each die's open
 * superblock closes, the rest of it erased); its next write opens a new one.  An RU it had
 * written part of is logged (Reclaim Unit Not Fully Written). */
static int ruh_update(struct ftl *f, uint32_t pid) {
  struct fdp *d = &f->pl.fdp;
  const uint32_t group = d->rgif ? pid >> (16u - d->rgif) : 0u;
  const uint32_t handle = pid & ((1u << (16u - d->rgif)) - 1u);
  if (group >= d->groups || handle >= d->handles) return 0;
  const uint64_t left = ru_available(f, group, handle);
  int written = 0;
  for (uint32_t p = group * d->dies_per_group; p < (group + 1u) * d->dies_per_group; p++) {
    const uint32_t sb = *fdp_stream_sb(f, p, (int)(STREAM_FDP_HOST + handle));
    if (sb == NONE32) continue;
    written = 1;
    blocks_close(f, sb);
  }
  if (written)
    fdp_event(f, SSD_FDP_EVT_RU_NOT_FULLY_WRITTEN, SSD_FDP_EVF_PIV, (uint16_t)pid, group, handle, left * SECTOR_BYTES);
  return 1;
}

static void send_log(struct ftl *f, uint16_t slot) {
  struct fdp *d = &f->pl.fdp;
  struct hcmd *h = &f->hc[slot];
  uint8_t *buf = hal_dram_ptr(d->log_addr);
  zero(buf, SECTOR_BYTES);
  if (h->opcode == SSD_HOP_IO_MGMT_RECV) build_ruh_status(f, buf);
  else if (h->cdw1 != 0 || !build_log(f, h->cdw0 & 0xFFu, buf)) {   /* every log fits its first sector */
    hcmd_complete(f, slot, SSD_ST_INVALID_FIELD);
    return;
  }
  d->log_busy = 1;
  h->state = HC_DMA_LOG;
  hif_dma(f, slot, SSD_DMA_TO_HOST, SSD_DMAF_COMPLETE | SSD_DMAF_NOTIFY | SSD_DMAF_IRQ | SSD_DMAF_BYTES, 1,
          d->log_addr, SSD_ST_OK, slot);
}

int fdp_command(struct ftl *f, uint16_t slot) {
  struct fdp *d = &f->pl.fdp;
  struct hcmd *h = &f->hc[slot];
  switch (h->opcode) {
    case SSD_HOP_IO_MGMT_SEND: {
      const uint32_t n = h->cdw2;
      if ((h->cdw0 & 0xFFu) != SSD_IOMS_MO_RUH_UPDATE || n == 0 || n > 2u) {
        hcmd_complete(f, slot, SSD_ST_INVALID_FIELD);
        return 1;
      }
      int ok = 1;
      for (uint32_t k = 0; k < n; k++) ok &= ruh_update(f, (h->cdw1 >> (16u * k)) & 0xFFFFu);
      hcmd_complete(f, slot, ok ? SSD_ST_OK : SSD_ST_INVALID_FIELD);
      return 1;
    }
    case SSD_HOP_IO_MGMT_RECV:
    case SSD_HOP_FDP_LOG:
      if (h->nsect != 1u || (h->opcode == SSD_HOP_IO_MGMT_RECV && (h->cdw0 & 0xFFu) != SSD_IOMR_MO_RUH_STATUS)) {
        hcmd_complete(f, slot, SSD_ST_INVALID_FIELD);
        return 1;
      }
      if (d->log_busy) {   /* behind the log on its way */
        h->state = HC_WAIT_BUF;
        h->next = NONE32;
        if (d->log_wait_tail == NONE32) d->log_wait_head = slot;
        else f->hc[d->log_wait_tail].next = slot;
        d->log_wait_tail = slot;
        return 1;
      }
      send_log(f, slot);
      return 1;
    default:
      return 0;
  }
}

void fdp_log_sent(struct ftl *f, uint16_t slot) {
  struct fdp *d = &f->pl.fdp;
  f->hc[slot].state = HC_FREE;
  d->log_busy = 0;
  if (d->log_wait_head == NONE32) return;
  const uint16_t next = (uint16_t)d->log_wait_head;
  d->log_wait_head = f->hc[next].next;
  if (d->log_wait_head == NONE32) d->log_wait_tail = NONE32;
  send_log(f, next);
}
