/* The chunks of an Open-Channel SSD 2.0 device and the rules of the spec's chunk model: a chunk
 * is free, open, closed or offline; it is written sequentially at its write pointer in multiples
 * of ws_min (the first write opens it, the write that fills it closes it); a logical block below
 * the write pointer is readable, except the last mw_cunits of an open chunk, which the host must
 * still serve from its own cache; a closed chunk may be reset (a free one only if the device
 * reports multiple resets in mccap; an open one not at all: early reset is not in the spec);
 * a reset frees the chunk and counts a wear; an offline chunk answers every command with its
 * status.  Each check returns the status the command completes with (hal/oc_formats.h) and
 * changes nothing; the note functions apply what the flash has done.  The table is the chunk
 * information log itself (one `struct ssd_oc_chunk` per chunk, in log order: group, parallel
 * unit, chunk).
 * Rules taken from the Open-Channel SSD 2.0 specification's chunk model as public
 * implementations (Linux lightnvm, FEMU's OCSSD 2.0 device) apply it; docs/ocssd.md.
 * Leaves out: issuing the flash operations, vector commands (each LBA list entry is checked as
 * its own range), the open-chunk limit (maxocpu is reported, not enforced: the spec leaves the
 * device's answer open), random-write chunks. */
#ifndef SSDVP_OCSSD_OC_CHUNKS_H
#define SSDVP_OCSSD_OC_CHUNKS_H

#include <stdint.h>
#include "ocssd/oc_geometry.h"

struct oc_chunks {
  const struct ssd_oc_geometry *geo;
  struct ssd_oc_chunk *desc;      /* [num_grp * num_pu * num_chk], the chunk log */
  uint32_t count;
};

/* Every chunk free, written nowhere, its first LBA and size set; `desc` has room for them. */
void oc_chunks_init(struct oc_chunks *t, const struct ssd_oc_geometry *geo, struct ssd_oc_chunk *desc);
/* The chunk log's index of an address's chunk (its fields within the geometry). */
uint32_t oc_chunk_index(const struct ssd_oc_geometry *geo, const struct oc_addr *a);

/* A write of `nsect` logical blocks from sector `sec` of chunk `c`. */
uint16_t oc_check_write(const struct oc_chunks *t, uint32_t c, uint32_t sec, uint32_t nsect);
/* ... programmed: the write pointer moves on; the chunk opens, or closes once full. */
void oc_note_written(struct oc_chunks *t, uint32_t c, uint32_t nsect);
/* A read of `nsect` logical blocks from sector `sec` of chunk `c`. */
uint16_t oc_check_read(const struct oc_chunks *t, uint32_t c, uint32_t sec, uint32_t nsect);
/* A reset of chunk `c`. */
uint16_t oc_check_reset(const struct oc_chunks *t, uint32_t c);
/* ... erased: free, write pointer at its start, one more wear. */
void oc_note_reset(struct oc_chunks *t, uint32_t c);
/* A program failed in chunk `c`: it is closed early (what was written stays readable). */
void oc_note_closed(struct oc_chunks *t, uint32_t c);
/* Chunk `c` failed (a program or erase the media refused): offline from now on. */
void oc_note_offline(struct oc_chunks *t, uint32_t c);

#endif /* SSDVP_OCSSD_OC_CHUNKS_H */
