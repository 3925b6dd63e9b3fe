/* The zones over the flash: see zns_layout.h. */
#include "zns/zns_layout.h"

static uint32_t log2_exact(uint64_t v) {
  uint32_t s = 0;
  while ((1ull << s) < v) s++;
  return (1ull << s) == v ? s : 0u;
}

static uint64_t pow2_at_least(uint64_t v) {
  uint64_t p = 1;
  while (p < v) p <<= 1;
  return p;
}

enum zns_layout_error zns_layout_derive(const struct zns_media *m, struct zns_layout *l) {
  uint8_t *raw = (uint8_t *)l;
  for (uint32_t i = 0; i < sizeof(*l); i++) raw[i] = 0;
  if (m->mixed_cells) return ZNS_LAYOUT_MIXED_CELLS;
  if (!m->dies || !m->planes || !m->blocks_per_plane || !m->pages_per_block || !m->sectors_per_page ||
      !m->stripes_per_zone)
    return ZNS_LAYOUT_EMPTY;
  l->dies = m->dies;
  l->planes = m->planes;
  l->spp = m->sectors_per_page;
  l->pages = m->pages_per_block;
  l->blocks = m->blocks_per_plane;
  l->unit = m->planes * m->sectors_per_page;
  l->group_dies = m->dies_per_zone ? m->dies_per_zone : m->dies;
  if (l->group_dies > m->dies || m->dies % l->group_dies) return ZNS_LAYOUT_DIE_GROUPS;
  l->groups = m->dies / l->group_dies;
  l->stripes = m->stripes_per_zone;
  if (m->spare_stripes >= m->blocks_per_plane) return ZNS_LAYOUT_NO_ZONES;
  const uint32_t per_group = (m->blocks_per_plane - m->spare_stripes) / m->stripes_per_zone;
  if (per_group == 0) return ZNS_LAYOUT_NO_ZONES;
  l->nr_zones = per_group * l->groups;
  l->zcap = (uint64_t)l->stripes * l->group_dies * l->pages * l->unit;
  l->zsze = m->pow2_zone_size ? pow2_at_least(l->zcap) : l->zcap;
  l->zsze_shift = log2_exact(l->zsze);
  if ((m->max_open && m->max_open > l->nr_zones) || (m->max_active && m->max_active > l->nr_zones) ||
      (m->max_open && m->max_active && m->max_open > m->max_active))
    return ZNS_LAYOUT_LIMITS;
  l->max_open = m->max_open;
  l->max_active = m->max_active;
  if (!m->zasl_sectors || (m->zasl_sectors & (m->zasl_sectors - 1u)) || m->zasl_sectors > l->zcap)
    return ZNS_LAYOUT_ZASL;
  l->zasl_sectors = m->zasl_sectors;
  return ZNS_LAYOUT_OK;
}

const char *zns_layout_error_text(enum zns_layout_error e) {
  switch (e) {
    case ZNS_LAYOUT_OK: return "ok";
    case ZNS_LAYOUT_MIXED_CELLS: return "a zoned device has one cell type (no SLC dies or pSLC cache beside the rest)";
    case ZNS_LAYOUT_EMPTY: return "a count of the media or device.zns.stripes_per_zone is zero";
    case ZNS_LAYOUT_DIE_GROUPS: return "device.zns.dies_per_zone must divide the dies (channels x ways)";
    case ZNS_LAYOUT_NO_ZONES: return "device.zns.spare_stripes and device.zns.stripes_per_zone leave no zone";
    case ZNS_LAYOUT_LIMITS:
      return "device.zns.max_open must be at most device.zns.max_active, and both at most the zones (0: no limit)";
    case ZNS_LAYOUT_ZASL: return "device.zns.zasl_kib must be a power of two of 4 KiB sectors, at most a zone's capacity";
  }
  return "unknown";
}

struct zns_flash_addr zns_flash_of(const struct zns_layout *l, uint32_t z, uint32_t sec) {
  struct zns_flash_addr a;
  const uint32_t u = sec / l->unit;                        /* write unit in the zone */
  const uint32_t stripe_units = l->group_dies * l->pages;
  const uint32_t stripe = u / stripe_units, in = u % stripe_units;
  a.die = (z % l->groups) * l->group_dies + in % l->group_dies;
  a.page = in / l->group_dies;
  a.block = (z / l->groups) * l->stripes + stripe;
  a.off = sec % l->unit;
  return a;
}

int zns_zone_at(const struct zns_layout *l, const struct zns_flash_addr *a, uint32_t *z, uint32_t *sec) {
  const uint32_t per_group = l->nr_zones / l->groups;
  const uint32_t zi = a->block / l->stripes;
  if (a->die >= l->dies || zi >= per_group || a->page >= l->pages || a->off >= l->unit) return 0;
  const uint32_t stripe = a->block % l->stripes;
  *z = zi * l->groups + a->die / l->group_dies;
  const uint32_t u = (stripe * l->pages + a->page) * l->group_dies + a->die % l->group_dies;
  *sec = u * l->unit + a->off;
  return 1;
}

void zns_identify(const struct zns_layout *l, struct ssd_zns_id_ns *ns, struct ssd_zns_id_ctrl *ctrl) {
  uint8_t *raw = (uint8_t *)ns;
  for (uint32_t i = 0; i < sizeof(*ns); i++) raw[i] = 0;
  raw = (uint8_t *)ctrl;
  for (uint32_t i = 0; i < sizeof(*ctrl); i++) raw[i] = 0;
  ns->mar = l->max_active ? l->max_active - 1u : 0xFFFFFFFFu;
  ns->mor = l->max_open ? l->max_open - 1u : 0xFFFFFFFFu;
  ns->lbafe[0].zsze = l->zsze;
  struct ssd_zns_vs vs = {l->nr_zones, l->zcap, l->zasl_sectors, l->group_dies};
  const uint8_t *v = (const uint8_t *)&vs;
  for (uint32_t i = 0; i < sizeof(vs); i++) ns->vs[i] = v[i];
  uint8_t s = 0;
  while ((1u << s) < l->zasl_sectors) s++;
  ctrl->zasl = s;
}
