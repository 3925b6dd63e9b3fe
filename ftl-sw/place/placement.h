/* SLC/MLC placement: the one seam where the FTL asks which region a host write goes to.
 *
 * Models: two regions on a mixed device (nand.slc_dies): SLC dies and the other (MLC/TLC)
 * dies.  A policy, picked once at boot from a table (ftl.placement), answers for every host
 * sector committed to the write buffer and is told of every host request:
 *   none      one region: host data striped over every die (the FTL as it was);
 *   lapt      SLC if the sector's logical block ranks below the number of SLC superblocks
 *             in the LAPT table (place/lapt.h), else MLC;
 *   slc-only  every host write to SLC first (a plain SLC write cache).
 * The write buffer drains each region to its own dies; SLC GC is FIFO and migrates the
 * victim's valid data to MLC dies, never back (gc/gc.c); MLC GC is ftl.gc_policy inside MLC.
 * The rest of the FTL sees only place_region_of_write() and the region of a die.
 * Leaves out (issue 11, later steps): SLC-mode blocks on MLC/TLC dies (pSLC), idle-time
 * migration, ComboFTL, demand-based mapping together with placement. */
#ifndef SSDVP_PLACE_PLACEMENT_H
#define SSDVP_PLACE_PLACEMENT_H

#include <stdint.h>

#include "place/lapt.h"

#define REGION_SLC 0u
#define REGION_MLC 1u
#define PLACE_REGIONS 2u

struct ftl;

struct place_policy {
  const char *name;
  /* The region of a host sector being committed to the write buffer. */
  uint8_t (*region_of_write)(struct ftl *f, uint32_t lpa);
  /* A host request arrived (SSD_HOP_READ / SSD_HOP_WRITE); NULL: nothing to learn. */
  void (*note_request)(struct ftl *f, uint8_t opcode, uint32_t lba, uint32_t nsect);
};

struct place {
  const struct place_policy *policy;   /* NULL: placement off (one region) */
  uint32_t regions;                    /* 1 when off, else PLACE_REGIONS */
  uint8_t *die_region;                 /* [dies] REGION_* (all 0 when off) */
  uint32_t slc_superblocks;            /* the SLC region's size: LAPT's rank threshold */
  uint32_t next_migration_die;         /* round robin of SLC GC copies over MLC dies */
  struct lapt lapt;
};

/* After the dies' geometry is known (blocks_init and their page counts). */
void place_init(struct ftl *f);
uint8_t place_region_of_write(struct ftl *f, uint32_t lpa);
void place_note_request(struct ftl *f, uint8_t opcode, uint32_t lba, uint32_t nsect);
/* SLC GC on `die` copies into another region's dies (migration). */
int place_gc_migrates(const struct ftl *f, uint32_t die);
/* The next MLC die whose migration stream can take a superpage now; NONE32: none can. */
uint32_t place_migration_die(struct ftl *f);

#endif /* SSDVP_PLACE_PLACEMENT_H */
