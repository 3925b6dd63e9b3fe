/* How ssdvp's flash appears through the Open-Channel SSD 2.0 interface (hal/oc_formats.h):
 * group = channel, parallel unit = die (a way on the channel), chunk = one block on every plane
 * of the die (the same block index, as a multi-plane program and erase take them), logical
 * block = 4 KiB sector.  Within a chunk, sectors run plane by plane within a page, then page
 * by page: a write of ws_min sectors programs one page on every plane.
 * Derived from the media's shape and timing (struct oc_media): the counts, the LBA format
 * (each field as many bits as its count needs), ws_min = ws_opt = a page on every plane,
 * mw_cunits from the cell type (a page is safe from a power loss only once the other pages of
 * its word line are programmed: bits per cell - 1 pages on every plane, 0 for SLC), maxoc and
 * maxocpu from the open chunks the device keeps per parallel unit, the typical and maximum
 * times from the media's per-page-type timing, and mccap with multiple resets (a free chunk may
 * be reset again: erasing an erased block is harmless).
 * Leaves out: SLC dies beside others and pSLC caches (one cell type per device: refused), bad
 * chunks (a device reports them offline in its chunk log), the device itself. */
#ifndef SSDVP_OCSSD_OC_GEOMETRY_H
#define SSDVP_OCSSD_OC_GEOMETRY_H

#include <stdint.h>
#include "hal/oc_formats.h"

/* The media an Open-Channel device exposes. */
struct oc_media {
  uint32_t channels, ways, planes;
  uint32_t blocks_per_plane, pages_per_block, sectors_per_page;
  uint32_t bits_per_cell;                  /* 1 SLC, 2 MLC, 3 TLC */
  uint32_t open_chunks_per_pu;             /* chunks the device keeps open per parallel unit */
  uint32_t t_read_ns[2], t_prog_ns[2], t_erase_ns;   /* typical, max */
  uint32_t mixed_cells;                    /* nonzero: SLC dies or a pSLC cache beside the rest */
};

/* Why a media cannot be exposed (oc_geometry_derive). */
enum oc_geometry_error {
  OC_GEO_OK = 0,
  OC_GEO_MIXED_CELLS,      /* more than one cell type */
  OC_GEO_TOO_MANY,         /* a count beyond its field (groups, units: 16 bits) */
  OC_GEO_EMPTY,            /* a count of zero */
  OC_GEO_ADDRESS_BITS,     /* the LBA's fields need more than 64 bits */
  OC_GEO_OPEN_CHUNKS,      /* open chunks per unit zero or more than it has chunks */
};

/* Fills `g` (zeroed first); returns OC_GEO_OK or why not. */
enum oc_geometry_error oc_geometry_derive(const struct oc_media *m, struct ssd_oc_geometry *g);

/* An LBA's fields. */
struct oc_addr {
  uint32_t grp, pu, chk, sec;
};

/* The LBA of an address (its fields within the geometry's counts). */
uint64_t oc_lba(const struct ssd_oc_geometry *g, const struct oc_addr *a);
/* The fields of an LBA; returns 1 if every field lies within the geometry (an LBA the device
 * has), 0 if not (the spec's invalid LBA). */
int oc_lba_split(const struct ssd_oc_geometry *g, uint64_t lba, struct oc_addr *a);

#endif /* SSDVP_OCSSD_OC_GEOMETRY_H */
