/* How ssdvp's flash is laid out as zones (device.interface = zns; docs/zns.md): a zone is one or
 * more stripes, a stripe the same block index on every plane of a group of dies (dies_per_zone
 * dies, consecutive in the firmware's die numbering, way by way across the channels: a group
 * of 8 on an 8-channel drive is one way on every channel).  Within a zone, logical blocks run
 * through a write unit (one page on every plane of a die: planes x sectors per page), then the
 * next die of the group, then the next page, then the next stripe: consecutive writes keep
 * every die of the group programming, as zoned drives stripe a zone.  Zones go round the die
 * groups (zone z on group z mod groups), so neighbouring zones do not share dies.
 * Derived (zns_layout_derive) from the media's shape: the zone capacity (stripes_per_zone
 * stripes: sectors the zone holds), the zone size (the capacity rounded up to a power of two
 * when pow2_zone_size is set, as Linux requires of zoned block devices; else the capacity: the
 * LBAs between a zone's capacity and its size are never writable), the zones (the stripes of
 * each group after spare_stripes spare blocks per plane, kept to stand in for bad blocks), and
 * the Identify structures (hal/zns_formats.h).
 * Leaves out: the zone state machine (zns_zones.h), mapping around bad blocks (the device's),
 * zones of mixed cell types (one cell type per device: refused), variable zone capacity. */
#ifndef SSDVP_ZNS_ZNS_LAYOUT_H
#define SSDVP_ZNS_ZNS_LAYOUT_H

#include <stdint.h>
#include "hal/zns_formats.h"

/* The media and the zone choices (device configuration zns.*). */
struct zns_media {
  uint32_t dies, planes;                    /* dies = channels x ways */
  uint32_t blocks_per_plane, pages_per_block, sectors_per_page;
  uint32_t dies_per_zone;                   /* 0: every die */
  uint32_t stripes_per_zone;                /* >= 1 */
  uint32_t spare_stripes;                   /* blocks per plane kept back as spares */
  uint32_t pow2_zone_size;                  /* 1: zone size a power of two */
  uint32_t max_open, max_active;            /* 0: no limit */
  uint32_t zasl_sectors;                    /* Zone Append's largest transfer: a power of two */
  uint32_t mixed_cells;                     /* nonzero: SLC dies or a pSLC cache beside the rest */
};

struct zns_layout {
  uint32_t dies, planes, spp, pages, blocks;   /* the media's (blocks per plane) */
  uint32_t unit;                   /* sectors in a write unit: planes x spp */
  uint32_t group_dies;             /* dies per zone */
  uint32_t groups;                 /* die groups: dies / group_dies */
  uint32_t stripes;                /* stripes per zone */
  uint32_t nr_zones;
  uint64_t zsze, zcap;             /* zone size and capacity, logical blocks */
  uint32_t zsze_shift;             /* log2(zsze) when a power of two, else 0 */
  uint32_t max_open, max_active;   /* 0: no limit */
  uint32_t zasl_sectors;
};

/* Why a media cannot be laid out as zones. */
enum zns_layout_error {
  ZNS_LAYOUT_OK = 0,
  ZNS_LAYOUT_MIXED_CELLS,   /* more than one cell type */
  ZNS_LAYOUT_EMPTY,         /* a count of zero */
  ZNS_LAYOUT_DIE_GROUPS,    /* dies_per_zone does not divide the dies */
  ZNS_LAYOUT_NO_ZONES,      /* spares and stripes per zone leave no zone */
  ZNS_LAYOUT_LIMITS,        /* max_open above max_active, or either above the zones */
  ZNS_LAYOUT_ZASL,          /* zasl_sectors zero, not a power of two, or above a zone */
};

enum zns_layout_error zns_layout_derive(const struct zns_media *m, struct zns_layout *l);
/* A short text for an error (for the platform's configuration check). */
const char *zns_layout_error_text(enum zns_layout_error e);

/* Where a zone's logical block lives: the die (firmware numbering), the block on every plane,
 * the page, and the sector within the write unit (plane = off / spp). */
struct zns_flash_addr {
  uint32_t die, block, page, off;
};

/* The zone of an LBA and the LBA's sector in it (sec may be >= zcap: in the zone's gap). */
static inline uint32_t zns_zone_of(const struct zns_layout *l, uint64_t lba, uint64_t *sec) {
  const uint64_t z = l->zsze_shift ? lba >> l->zsze_shift : lba / l->zsze;
  *sec = lba - z * l->zsze;
  return (uint32_t)z;
}

/* Sector `sec` (< zcap) of zone `z`. */
struct zns_flash_addr zns_flash_of(const struct zns_layout *l, uint32_t z, uint32_t sec);
/* The inverse: the zone and sector a flash location holds (1), or 0 for a block no zone uses
 * (a spare). */
int zns_zone_at(const struct zns_layout *l, const struct zns_flash_addr *a, uint32_t *z, uint32_t *sec);

/* Fills the namespace and controller Identify structures (each zeroed first). */
void zns_identify(const struct zns_layout *l, struct ssd_zns_id_ns *ns, struct ssd_zns_id_ctrl *ctrl);

#endif /* SSDVP_ZNS_ZNS_LAYOUT_H */
