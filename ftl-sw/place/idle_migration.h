/* Idle-time migration: SLC GC ahead of need while the host is idle (the LAPT paper's future
 * work).
 *
 * Models: when no host command has arrived for ftl.idle_migration_us and none is waiting in
 * the drive, every SLC pool (an SLC die, or a die's SLC-mode blocks) with fewer free
 * superblocks than ftl.idle_migration_free_ratio of its superblocks is cleaned (its oldest blocks, the placement policy deciding migration as
 * for any SLC GC) until it has that many.  The first host command to arrive stops it: no
 * further flash operation is issued for it (those in flight complete; a half-cleaned victim
 * waits, still readable, until the next idle period or until the pool needs cleaning).
 * The firmware arms the timer for the moment the host will have been idle long enough, so a
 * sleeping core wakes up for it.
 * Leaves out: predicting idle periods (it waits the whole threshold every time), migrating
 * MLC-bound data of a policy that keeps it in SLC (combo copies as its GC would). */
#ifndef SSDVP_PLACE_IDLE_MIGRATION_H
#define SSDVP_PLACE_IDLE_MIGRATION_H

#include <stdint.h>

struct ftl;

struct idle_migration {
  uint64_t idle_ns;          /* 0: off */
  uint64_t last_cmd_ns;      /* arrival of the last host command */
  uint8_t  active;           /* cleaning SLC pools now */
  uint8_t  done_this_period; /* started (or found nothing to do) since the last command */
  uint32_t pools_left;       /* SLC pools still cleaning in this period */
};

/* After place_init: reads the config; returns the interrupt lines it needs (SSD_IRQ_TIMER
 * when on, else 0). */
uint32_t idle_migration_init(struct ftl *f);
/* One or more host commands arrived now. */
void idle_note_command(struct ftl *f);
/* The event loop found no work: starts migrating if the host has been idle long enough, or
 * arms the timer for when it will have been; returns 1 if it started work. */
int idle_poll(struct ftl *f);
/* SLC GC in pools marked pool_state.idle_gc may issue operations. */
static inline int idle_migration_running(const struct idle_migration *m) { return m->active; }
/* The free superblocks an idle-cleaned pool is cleaned up to. */
uint32_t idle_target_free(const struct ftl *f, uint32_t pool);
/* An idle-cleaned pool reached its target. */
void idle_pool_done(struct ftl *f);

#endif /* SSDVP_PLACE_IDLE_MIGRATION_H */
