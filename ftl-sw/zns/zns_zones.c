/* The zone state machine of a zoned namespace: see zns_zones.h. */
#include "zns/zns_zones.h"
#include "hal/regs.h"

#define NO_ZONE 0xFFFFFFFFu

static void set_state(struct zns_zones *t, uint32_t z, uint8_t s) { t->desc[z].zs = (uint8_t)(s << 4); }

static int is_open(uint8_t s) { return s == SSD_ZNS_ZS_IMPL_OPEN || s == SSD_ZNS_ZS_EXPL_OPEN; }
static int is_active(uint8_t s) { return is_open(s) || s == SSD_ZNS_ZS_CLOSED; }

void zns_zones_init(struct zns_zones *t, const struct zns_layout *l, struct ssd_zns_zone_desc *desc, uint64_t *written,
                    uint32_t *opened_at, uint32_t *resets) {
  t->l = l;
  t->desc = desc;
  t->written = written;
  t->opened_at = opened_at;
  t->resets = resets;
  t->nr_open = t->nr_active = t->clock = 0;
  for (uint32_t z = 0; z < l->nr_zones; z++) {
    uint8_t *raw = (uint8_t *)&desc[z];
    for (uint32_t i = 0; i < sizeof(desc[z]); i++) raw[i] = 0;
    desc[z].zt = SSD_ZNS_ZT_SEQ_WRITE_REQUIRED;
    set_state(t, z, SSD_ZNS_ZS_EMPTY);
    desc[z].zcap = l->zcap;
    desc[z].zslba = (uint64_t)z * l->zsze;
    desc[z].wp = desc[z].zslba;
    written[z] = 0;
    opened_at[z] = 0;
    resets[z] = 0;
  }
}

/* Leaves zone z's resources (it is leaving state `from`). */
static void release(struct zns_zones *t, uint8_t from) {
  if (is_open(from)) t->nr_open--;
  if (is_active(from)) t->nr_active--;
}

/* The oldest implicitly opened zone, or NO_ZONE. */
static uint32_t oldest_implicit(const struct zns_zones *t) {
  uint32_t best = NO_ZONE;
  for (uint32_t z = 0; z < t->l->nr_zones; z++)
    if (zns_state(t, z) == SSD_ZNS_ZS_IMPL_OPEN && (best == NO_ZONE || t->opened_at[z] < t->opened_at[best])) best = z;
  return best;
}

static void close_zone(struct zns_zones *t, uint32_t z) {
  t->nr_open--;
  if (t->written[z] == 0) {   /* nothing written: back to empty, no longer active */
    t->nr_active--;
    set_state(t, z, SSD_ZNS_ZS_EMPTY);
  } else {
    set_state(t, z, SSD_ZNS_ZS_CLOSED);
  }
}

/* Zone z (empty or closed) opens: implicitly for a write, explicitly for Open Zone. */
static uint16_t open_zone(struct zns_zones *t, uint32_t z, uint8_t to, uint32_t *auto_closed) {
  const struct zns_layout *l = t->l;
  const uint8_t s = zns_state(t, z);
  const uint32_t act = s == SSD_ZNS_ZS_EMPTY ? 1u : 0u;
  *auto_closed = NO_ZONE;
  if (s == SSD_ZNS_ZS_IMPL_OPEN) {   /* to explicitly opened: no new resource */
    set_state(t, z, to);
    return SSD_ST_OK;
  }
  if (l->max_active && t->nr_active + act > l->max_active) return SSD_ZNS_ST_TOO_MANY_ACTIVE;
  if (l->max_open && t->nr_open >= l->max_open) {
    const uint32_t victim = oldest_implicit(t);
    if (victim == NO_ZONE) return SSD_ZNS_ST_TOO_MANY_OPEN;
    close_zone(t, victim);
    *auto_closed = victim;
  }
  t->nr_active += act;
  t->nr_open++;
  t->opened_at[z] = ++t->clock;
  set_state(t, z, to);
  return SSD_ST_OK;
}

uint16_t zns_write(struct zns_zones *t, uint64_t slba, uint32_t nlb, int append, struct zns_write_effect *e) {
  const struct zns_layout *l = t->l;
  e->auto_closed = NO_ZONE;
  e->filled = 0;
  e->zone = NO_ZONE;
  if (nlb == 0) return SSD_ST_INVALID_FIELD;
  const uint64_t end = (uint64_t)l->nr_zones * l->zsze;
  if (slba >= end || nlb > end - slba) return SSD_ST_LBA_RANGE;
  uint64_t sec;
  const uint32_t z = zns_zone_of(l, slba, &sec);
  struct ssd_zns_zone_desc *d = &t->desc[z];
  e->zone = z;
  switch (zns_state(t, z)) {
    case SSD_ZNS_ZS_FULL: return SSD_ZNS_ST_ZONE_FULL;
    case SSD_ZNS_ZS_READ_ONLY: return SSD_ZNS_ST_ZONE_READ_ONLY;
    case SSD_ZNS_ZS_OFFLINE: return SSD_ZNS_ST_ZONE_OFFLINE;
    default: break;
  }
  if (append) {
    if (slba != d->zslba || nlb > l->zasl_sectors) return SSD_ST_INVALID_FIELD;
  } else if (slba != d->wp) {
    return SSD_ZNS_ST_INVALID_WRITE;
  }
  const uint64_t at = d->wp;
  if (at - d->zslba + nlb > d->zcap) return SSD_ZNS_ST_BOUNDARY_ERROR;
  const uint8_t s = zns_state(t, z);
  if (s == SSD_ZNS_ZS_EMPTY || s == SSD_ZNS_ZS_CLOSED) {
    const uint16_t st = open_zone(t, z, SSD_ZNS_ZS_IMPL_OPEN, &e->auto_closed);
    if (st != SSD_ST_OK) return st;
  }
  d->wp = at + nlb;
  t->written[z] = d->wp - d->zslba;
  e->lba = at;
  if (t->written[z] == d->zcap) {
    release(t, zns_state(t, z));
    set_state(t, z, SSD_ZNS_ZS_FULL);
    e->filled = 1;
  }
  return SSD_ST_OK;
}

uint16_t zns_check_read(const struct zns_zones *t, uint64_t slba, uint32_t nlb, uint32_t *zone) {
  const struct zns_layout *l = t->l;
  *zone = NO_ZONE;
  if (nlb == 0) return SSD_ST_INVALID_FIELD;
  const uint64_t end = (uint64_t)l->nr_zones * l->zsze;
  if (slba >= end || nlb > end - slba) return SSD_ST_LBA_RANGE;
  uint64_t sec;
  const uint32_t z = zns_zone_of(l, slba, &sec);
  *zone = z;
  if (sec + nlb > l->zsze) return SSD_ZNS_ST_BOUNDARY_ERROR;
  if (zns_state(t, z) == SSD_ZNS_ZS_OFFLINE) return SSD_ZNS_ST_ZONE_OFFLINE;
  return SSD_ST_OK;
}

uint16_t zns_manage(struct zns_zones *t, uint32_t z, uint8_t action, uint32_t *auto_closed) {
  struct ssd_zns_zone_desc *d = &t->desc[z];
  const uint8_t s = zns_state(t, z);
  *auto_closed = NO_ZONE;
  switch (action) {
    case SSD_ZNS_ZSA_OPEN:
      if (s == SSD_ZNS_ZS_EXPL_OPEN) return SSD_ST_OK;
      if (s == SSD_ZNS_ZS_EMPTY || s == SSD_ZNS_ZS_CLOSED || s == SSD_ZNS_ZS_IMPL_OPEN)
        return open_zone(t, z, SSD_ZNS_ZS_EXPL_OPEN, auto_closed);
      return SSD_ZNS_ST_INVALID_TRANSITION;
    case SSD_ZNS_ZSA_CLOSE:
      if (s == SSD_ZNS_ZS_CLOSED) return SSD_ST_OK;
      if (!is_open(s)) return SSD_ZNS_ST_INVALID_TRANSITION;
      close_zone(t, z);
      return SSD_ST_OK;
    case SSD_ZNS_ZSA_FINISH:
      if (s == SSD_ZNS_ZS_FULL) return SSD_ST_OK;
      if (!(s == SSD_ZNS_ZS_EMPTY || is_active(s))) return SSD_ZNS_ST_INVALID_TRANSITION;
      release(t, s);
      d->wp = d->zslba + d->zcap;
      set_state(t, z, SSD_ZNS_ZS_FULL);
      return SSD_ST_OK;
    case SSD_ZNS_ZSA_RESET:
      if (s == SSD_ZNS_ZS_EMPTY) return SSD_ST_OK;
      if (!(is_active(s) || s == SSD_ZNS_ZS_FULL)) return SSD_ZNS_ST_INVALID_TRANSITION;
      release(t, s);
      d->wp = d->zslba;
      t->written[z] = 0;
      t->resets[z]++;
      set_state(t, z, SSD_ZNS_ZS_EMPTY);
      return SSD_ST_OK;
    case SSD_ZNS_ZSA_OFFLINE:
      if (s == SSD_ZNS_ZS_OFFLINE) return SSD_ST_OK;
      if (s != SSD_ZNS_ZS_READ_ONLY) return SSD_ZNS_ST_INVALID_TRANSITION;
      set_state(t, z, SSD_ZNS_ZS_OFFLINE);
      return SSD_ST_OK;
    default:
      return SSD_ST_INVALID_FIELD;
  }
}

int zns_select_all_applies(const struct zns_zones *t, uint32_t z, uint8_t action) {
  const uint8_t s = zns_state(t, z);
  switch (action) {
    case SSD_ZNS_ZSA_CLOSE: return is_open(s);
    case SSD_ZNS_ZSA_FINISH: return is_active(s);
    case SSD_ZNS_ZSA_OPEN: return s == SSD_ZNS_ZS_CLOSED;
    case SSD_ZNS_ZSA_RESET: return is_active(s) || s == SSD_ZNS_ZS_FULL;
    case SSD_ZNS_ZSA_OFFLINE: return s == SSD_ZNS_ZS_READ_ONLY;
    default: return 0;
  }
}

void zns_note_read_only(struct zns_zones *t, uint32_t z) {
  const uint8_t s = zns_state(t, z);
  if (s == SSD_ZNS_ZS_OFFLINE || s == SSD_ZNS_ZS_READ_ONLY) return;
  release(t, s);
  set_state(t, z, SSD_ZNS_ZS_READ_ONLY);
}

void zns_note_offline(struct zns_zones *t, uint32_t z) {
  const uint8_t s = zns_state(t, z);
  if (s == SSD_ZNS_ZS_OFFLINE) return;
  release(t, s);
  t->written[z] = 0;
  set_state(t, z, SSD_ZNS_ZS_OFFLINE);
}

static int selected(uint8_t s, uint8_t option) {
  switch (option) {
    case SSD_ZNS_ZRAS_ALL: return 1;
    case SSD_ZNS_ZRAS_EMPTY: return s == SSD_ZNS_ZS_EMPTY;
    case SSD_ZNS_ZRAS_IMPL_OPEN: return s == SSD_ZNS_ZS_IMPL_OPEN;
    case SSD_ZNS_ZRAS_EXPL_OPEN: return s == SSD_ZNS_ZS_EXPL_OPEN;
    case SSD_ZNS_ZRAS_CLOSED: return s == SSD_ZNS_ZS_CLOSED;
    case SSD_ZNS_ZRAS_FULL: return s == SSD_ZNS_ZS_FULL;
    case SSD_ZNS_ZRAS_READ_ONLY: return s == SSD_ZNS_ZS_READ_ONLY;
    case SSD_ZNS_ZRAS_OFFLINE: return s == SSD_ZNS_ZS_OFFLINE;
    default: return 0;   /* SSD_ZNS_ZRAS_NOT_WP: every zone has a write pointer */
  }
}

uint32_t zns_report(const struct zns_zones *t, uint64_t slba, uint8_t option, int partial,
                    struct ssd_zns_report_header *hdr, struct ssd_zns_zone_desc *out, uint32_t max) {
  const struct zns_layout *l = t->l;
  if (option > SSD_ZNS_ZRAS_OFFLINE && option != SSD_ZNS_ZRAS_NOT_WP) return 0xFFFFFFFFu;
  if (slba >= (uint64_t)l->nr_zones * l->zsze) return 0xFFFFFFFFu;
  uint64_t sec;
  uint32_t n = 0;
  uint64_t matching = 0;
  for (uint32_t z = zns_zone_of(l, slba, &sec); z < l->nr_zones; z++) {
    if (!selected(zns_state(t, z), option)) continue;
    matching++;
    if (n < max) out[n++] = t->desc[z];
    else if (partial) break;
  }
  uint8_t *raw = (uint8_t *)hdr;
  for (uint32_t i = 0; i < sizeof(*hdr); i++) raw[i] = 0;
  hdr->nr_zones = partial ? n : matching;
  return n;
}

void zns_zones_restore(struct zns_zones *t, uint32_t z, uint8_t state, uint64_t written, uint32_t resets) {
  set_state(t, z, state);
  t->written[z] = written;
  t->resets[z] = resets;
  t->desc[z].wp = t->desc[z].zslba + (state == SSD_ZNS_ZS_FULL ? t->l->zcap : written);
  if (is_active(state)) t->nr_active++;
}
