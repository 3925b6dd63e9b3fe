/* Garbage collection's entry points (gc/gc.c says how it cleans: per pool, greedy / FIFO /
 * cost-benefit victims, copies through the pool's GC superblock, migration with SLC/MLC
 * placement, retiring bad superblocks, static wear levelling).  The pool state it works on
 * (struct pool_state) stays in core/ftl.h: blocks.c, placement and recovery share it.
 * Leaves out: copyback. */
#ifndef SSDVP_GC_GC_H
#define SSDVP_GC_GC_H

#include <stdint.h>

struct ftl;

int  gc_step(struct ftl *f);                   /* advances every pool that needs cleaning */
void gc_init(struct ftl *f);   /* registers GC's flash completions (core/flash_port.h) */
uint32_t gc_pick_victim(const struct ftl *f, uint32_t pool);
void gc_watch(struct ftl *f, uint32_t pool);   /* a pool may need cleaning */
void gc_dump(const struct ftl *f);             /* every pool's state, to the UART (a stuck run) */

#endif /* SSDVP_GC_GC_H */
