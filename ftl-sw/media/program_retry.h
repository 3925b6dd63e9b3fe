/* Programs written again after a program failure (docs/reliability.md, "Bad blocks").
 *
 * A failed program's data is still in DRAM: write-buffer entries stay until their program
 * completes, GC keeps its buffer half, translation pages their cache slot, the trim log its
 * image.  So the operation itself is kept (same tag, scatter list and OOB: the versions stay
 * the sectors' own) and submitted again to the next superpage of the same stream (host, GC,
 * translation pages, migration) of the same pool, else of another pool of the same cell mode
 * that has room; while none has, it waits here, in failure order, and GC frees some.  Its
 * completion then goes to its owner as any program's does, at the new address.  The failed
 * superblock goes to bad-block management (media/bad_blocks.h).  A write-through program of
 * fewer planes than a superpage (buffer/write_buffer.c) is padded to a whole one when retried.
 * Leaves out: combo's unit-mapped MLC superblocks (a failure there halts the firmware with
 * its reason): a unit's data must stay in its unit's superblocks. */
#ifndef SSDVP_MEDIA_PROGRAM_RETRY_H
#define SSDVP_MEDIA_PROGRAM_RETRY_H

#include <stdint.h>

struct ftl;

struct program_retry {
  uint32_t head, tail;             /* failed programs waiting (fop tags, linked by next_free) */
};

struct flash_result;

void program_retry_init(struct ftl *f);
/* The program `tag` completed with SSD_FST_PROGRAM_FAIL. */
void program_failed(struct ftl *f, uint32_t tag, const struct flash_result *r);
/* Submits waiting programs where there is room; returns how many. */
int  program_retry_step(struct ftl *f);
static inline int program_retry_busy(const struct program_retry *r) { return r->head != 0xFFFFFFFFu; }

#endif /* SSDVP_MEDIA_PROGRAM_RETRY_H */
