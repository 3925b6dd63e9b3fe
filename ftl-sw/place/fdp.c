/* Flexible Data Placement's state: placement identifiers, each handle's streams and its
 * counters (place/fdp.h). */
#include "core/ftl.h"
#include "hal/hal.h"

static void bad_config(const char *why) {
  hal_puts(why);
  hal_halt(SSD_HALT_BAD_CONFIG | SSD_BADCFG_FDP);
  for (;;) hal_sleep();
}

void fdp_init(struct ftl *f) {
  struct fdp *d = &f->pl.fdp;
  const struct ftl_geo *g = &f->geo;
  d->handles = f->cfg.fdp_handles;
  if (d->handles == 0) return;
  d->groups = f->cfg.fdp_groups ? f->cfg.fdp_groups : 1u;
  if (d->handles > FDP_MAX_HANDLES || d->groups * d->handles > FDP_MAX_QUEUES || g->dies % d->groups != 0)
    bad_config("fw: FDP: more handles or queues than kept, or groups that do not divide the dies\n");
  if (f->cfg.placement != SSD_PLACE_NONE || g->pools != g->dies || f->cfg.write_through)
    bad_config("fw: FDP with SLC/MLC placement, a pSLC cache or write-through is not built\n");
  d->dies_per_group = g->dies / d->groups;
  d->rgif = 0;
  while ((1u << d->rgif) < d->groups) d->rgif++;
  d->persistent = f->cfg.fdp_isolation == SSD_FDP_RUHT_PERSISTENTLY_ISOLATED;
  const uint32_t n = g->pools * 2u * d->handles;
  d->open_sb = fw_alloc(f, n * 4u, 64);
  d->open_page = fw_alloc(f, n * 4u, 64);
  for (uint32_t i = 0; i < n; i++) d->open_sb[i] = NONE32;
  d->n = fw_alloc(f, (uint32_t)sizeof *d->n, 64);
  d->events = fw_alloc(f, SSD_FDP_EVENTS_MAX * (uint32_t)sizeof(struct ssd_fdp_event), 64);
  d->log_addr = hal_dram_addr(fw_alloc(f, SECTOR_BYTES, SECTOR_BYTES));
  d->log_wait_head = d->log_wait_tail = NONE32;
}

uint16_t fdp_pid(const struct ftl *f, uint32_t group, uint32_t handle) {
  const struct fdp *d = &f->pl.fdp;
  return (uint16_t)(group << (16u - d->rgif) | handle);
}

uint32_t fdp_queue_of_write(struct ftl *f, uint32_t cdw1, uint32_t nsect) {
  struct fdp *d = &f->pl.fdp;
  const uint32_t dtype = (cdw1 >> SSD_WRITE_DTYPE_SHIFT) & 0xFu;
  if (dtype == SSD_FDP_DTYPE_PLACEMENT) {
    const uint32_t pid = cdw1 & SSD_WRITE_DSPEC_MASK;
    const uint32_t group = d->rgif ? pid >> (16u - d->rgif) : 0u;
    const uint32_t handle = pid & ((1u << (16u - d->rgif)) - 1u);
    if (group < d->groups && handle < d->handles) {
      d->n->ruha[handle] |= SSD_FDP_RUHA_HOST;
      d->n->host_sectors[group * d->handles + handle] += nsect;
      return group * d->handles + handle;
    }
    d->n->invalid_pids++;
    fdp_event(f, SSD_FDP_EVT_INVALID_PID, SSD_FDP_EVF_PIV, (uint16_t)pid, NONE32, NONE32, 0);
  }
  /* No directive (or an invalid one): handle 0, the groups in turn. */
  d->n->ruha[0] |= SSD_FDP_RUHA_CTRL;
  const uint32_t group = d->next_group;
  d->next_group = (group + 1u) % d->groups;
  d->n->host_sectors[group * d->handles] += nsect;
  return group * d->handles;
}

uint32_t fdp_handle_of_sb(const struct ftl *f, uint32_t sb) {
  const uint32_t s = f->sb_stream[sb];
  if (s >= STREAM_FDP_HOST && s < STREAM_FDP_HOST + f->pl.fdp.handles) return s - STREAM_FDP_HOST;
  if (s >= STREAM_FDP_GC && s < STREAM_FDP_GC + f->pl.fdp.handles) return s - STREAM_FDP_GC;
  return NONE32;
}

int fdp_gc_stream(struct ftl *f, uint32_t victim, uint32_t nsect) {
  struct fdp *d = &f->pl.fdp;
  const uint32_t h = d->persistent ? fdp_handle_of_sb(f, victim) : NONE32;
  if (h == NONE32) return STREAM_GC;
  d->n->gc_sectors[h] += nsect;
  return (int)(STREAM_FDP_GC + h);
}

static uint32_t stream_index(const struct ftl *f, uint32_t pool, int stream) {
  const struct fdp *d = &f->pl.fdp;
  const uint32_t s = (uint32_t)stream;
  const uint32_t k = s >= STREAM_FDP_GC ? d->handles + (s - STREAM_FDP_GC) : s - STREAM_FDP_HOST;
  return pool * 2u * d->handles + k;
}

uint32_t *fdp_stream_sb(struct ftl *f, uint32_t pool, int stream) {
  return &f->pl.fdp.open_sb[stream_index(f, pool, stream)];
}

uint32_t *fdp_stream_page(struct ftl *f, uint32_t pool, int stream) {
  return &f->pl.fdp.open_page[stream_index(f, pool, stream)];
}

void fdp_event(struct ftl *f, uint8_t type, uint8_t flags, uint16_t pid, uint32_t group, uint32_t handle,
               uint64_t info) {
  struct fdp *d = &f->pl.fdp;
  const uint32_t i = (d->ev_head + d->ev_count) % SSD_FDP_EVENTS_MAX;
  struct ssd_fdp_event *e = &d->events[i];
  uint8_t *raw = (uint8_t *)e;
  for (uint32_t k = 0; k < sizeof *e; k++) raw[k] = 0;
  e->type = type;
  e->flags = flags;
  e->pid = pid;
  e->timestamp = hal_now_ns() / 1000000u;
  e->nsid = 1;
  e->flags |= SSD_FDP_EVF_NSIDV;
  e->rgid = (uint16_t)(group == NONE32 ? 0u : group);
  e->ruhid = (uint8_t)(handle == NONE32 ? 0u : handle);
  for (uint32_t k = 0; k < 8u; k++) e->type_specific[k] = (uint8_t)(info >> (8u * k));
  if (d->ev_count < SSD_FDP_EVENTS_MAX) d->ev_count++;
  else d->ev_head = (d->ev_head + 1u) % SSD_FDP_EVENTS_MAX;
  d->ev_total++;
}
