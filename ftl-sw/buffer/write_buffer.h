/* The DRAM write buffer: host writes are acknowledged once their data is in it; reads of data
 * still in it are served from DRAM; a writer drains it to flash a superpage at a time.
 *
 * Two kinds (ftl.write_buffer), chosen once at boot from wbuf_spaces[]; they differ only in
 * how entries are handed out and given back, everything else (the LPA index, the drain
 * order, the region fifos of SLC/MLC placement, program completion) is write_buffer.c's:
 *   slots  a pool of 4 KiB slots on a free list (buffer/slot_pool.c): a slot is reused as
 *          soon as its data is on flash and mapped, in any order;
 *   ring   pblk's ring buffer (buffer/ring.c): entries are taken at the memory (insert)
 *          pointer, submitted in order behind the submission pointer and given back only
 *          when the sync pointer passes them, in ring order: the oldest entry not yet on
 *          flash holds back all space behind it.  The writer waits for a full stripe (a
 *          superpage on every die), drains what it has after a timeout or a flush, and a
 *          rate limiter shares the ring between user and GC writes (ring.c says how).
 * With several firmware cores (core/fw_core.h) the buffer is split into equal parts, one per
 * core: a part is a kind's whole space (its own slot pool or ring, its region fifos, its
 * writer), a core's host writes take entries of its own part only, and only that core drains
 * it; the LPA index stays one for the whole buffer, so a write supersedes an older copy of
 * its LPA in any part and a read finds the newest copy wherever it is.
 * With the write cache off (write-through) every write completes once on flash, and the
 * writer programs only the pages that hold data (write_buffer.c).
 * Leaves out: FUA or flush with the cache on programming partial superpages (they pad). */
#ifndef SSDVP_BUFFER_WRITE_BUFFER_H
#define SSDVP_BUFFER_WRITE_BUFFER_H

#include <stdint.h>
#include "place/placement.h"

/* The buffer's queues: one per placement region, or per FDP reclaim group and handle. */
#define WBUF_QUEUES FDP_MAX_QUEUES

struct ftl;
struct fop;
struct wbuf_part;

enum slot_state { SL_FREE = 0, SL_FILLING, SL_LIVE, SL_PROGRAMMING, SL_DEAD, SL_MAPPING,
                  SL_SYNCED /* ring: on flash and mapped, still readable until reused */ };

/* How a kind of buffer hands out entries and takes them back. */
struct wbuf_space {
  const char *name;
  void (*init)(struct ftl *f, struct wbuf_part *p);
  /* n entries of the part for one host write (state SL_FILLING), or 0 when they must wait. */
  int  (*alloc)(struct ftl *f, struct wbuf_part *p, uint32_t n, uint32_t *slots_out);
  /* The entry's data is on flash and mapped (or dropped) and nobody reads it. */
  void (*release)(struct ftl *f, struct wbuf_part *p, uint32_t slot);
  /* What the part's writer should do now: 0 wait, 1 drain whole superpages, 2 drain
   * everything (padding the last superpage). */
  int  (*drain_mode)(struct ftl *f, struct wbuf_part *p);
  /* The part's core is about to sleep (NULL: nothing to do); 1 if the writer has work now. */
  int  (*idle)(struct ftl *f, struct wbuf_part *p);
  /* Entries overwritten while buffered are still written (pblk writes every ring entry;
   * the map ignores them) instead of being dropped before the flash. */
  uint8_t writes_superseded;
  /* An entry on flash stays readable from DRAM until its space is handed out again (pblk
   * points its map at the ring entry until the memory pointer needs it: the lazy l2p update),
   * instead of leaving the index as soon as it is mapped. */
  uint8_t keeps_synced;
};
extern const struct wbuf_space wbuf_slot_pool, wbuf_ring;
#define WBUF_KINDS 2u              /* SSD_WBUF_SLOTS, SSD_WBUF_RING */

struct wbuf_ring {                 /* ring.c */
  uint32_t mem;                    /* memory (insert) pointer: the next entry handed out */
  uint32_t sync;                   /* sync pointer: the oldest entry not yet given back */
  uint32_t used;                   /* entries from sync to mem */
  uint32_t inflight;               /* entries handed to the writer, not yet given back (the
                                      submission pointer is the region fifos' head) */
  uint32_t stripe;                 /* sectors in a full stripe: a superpage on every die */
  uint64_t wait_since_ns;          /* when the writer first went idle with whole superpages
                                      but less than a stripe (0: not waiting) */
  uint64_t timeout_ns;             /* then it drains them this much later (0: never) */
  uint8_t  timed_out;              /* draining whole superpages after the timeout */
  uint8_t  limited;                /* the rate limiter is holding a user write back */
};

/* One core's part: slots [first, first + nslots) of the buffer. */
struct wbuf_part {
  uint32_t core;
  uint32_t first, nslots;
  uint32_t *free_list;             /* slots: stack of free slots */
  uint32_t free_count;             /* entries that can be handed out now */
  uint32_t used_counted;           /* entries in use as last added to stats->wbuf_used */
  struct wbuf_ring ring;           /* ring only */
  struct wfifo {                   /* one per queue (place_queues: a placement region, an FDP
                                      group's handle; one in use without either) */
    uint32_t *ring;                /* [nslots] LIVE/DEAD slots of the region in arrival order */
    uint32_t head, count;
    uint32_t live;                 /* LIVE slots in it */
    uint32_t pushed, drained;      /* slots ever put into / taken out of it */
  } q[WBUF_QUEUES];
  uint32_t queues;                 /* fifos in use (struct wbuf's queues) */
  uint32_t live_count;             /* LIVE slots in all fifos */
  uint32_t next_queue;             /* round robin of the queues' drains */
  uint32_t progs_inflight;         /* its writer's programs not yet completed */
};

/* What the parts share. */
struct wbuf {
  const struct wbuf_space *space;
  uint32_t nslots;                 /* all parts */
  uint32_t part_slots;             /* each part's */
  uint32_t base_addr;              /* DRAM address of slot 0 */
  uint32_t *lpa;
  uint32_t *seq;                   /* version of the slot's data (ftl.write_seq when it was
                                      committed): its OOB sequence number on flash, so a
                                      power-loss scan sees versions in the order the host's
                                      writes were taken, whatever order they are programmed in */
  uint8_t  *state;
  uint16_t *pins;                  /* host reads in progress from this slot */
  uint8_t  *queue;                 /* [nslots] the queue of the slot's data */
  uint32_t queues;                 /* queues in use */
  uint32_t *hash_key, *hash_val;   /* lpa -> slot, open addressing */
  uint32_t hash_mask;
};

/* Sets up the shared part; then wbuf_init_part for each core's. */
void wbuf_init(struct ftl *f, uint32_t parts);
void wbuf_init_part(struct ftl *f, struct wbuf_part *p, uint32_t core);
/* The part a slot belongs to. */
struct wbuf_part *wbuf_part_of(struct ftl *f, uint32_t slot);
/* A full stripe: one superpage on every die. */
uint32_t wbuf_stripe_sectors(const struct ftl *f);
uint32_t wbuf_lookup(const struct ftl *f, uint32_t lpa);
int  wbuf_alloc(struct ftl *f, struct wbuf_part *p, uint32_t n, uint32_t *slots_out);
/* req_nsect: the sectors of the host request it belongs to (placement may look at it);
 * fdp_queue: its FDP queue (place/fdp.h) when FDP is on. */
void wbuf_commit_sector(struct ftl *f, uint32_t slot, uint32_t lpa, uint32_t req_nsect, uint32_t fdp_queue);
void wbuf_discard_lpa(struct ftl *f, uint32_t lpa);
void wbuf_unpin(struct ftl *f, uint32_t slot);
/* Issues one superpage program of the part when a full one is buffered (or, with force, any
 * data is). */
int  wbuf_flush_step(struct ftl *f, struct wbuf_part *p, int force);
/* Sectors [from, to) of the host program op are padding: the zero sector, no LPA, a version of
 * their own (counted in pad_sectors and host_pad_sectors). */
void wbuf_pad(struct ftl *f, struct fop *op, uint32_t from, uint32_t to);
/* The part's writer's mode now (struct wbuf_space.drain_mode), flushes included. */
int  wbuf_drain_mode(struct ftl *f, struct wbuf_part *p);
/* Slots (live or dead) of the part still queued for the flash, all regions. */
uint32_t wbuf_queued(const struct wbuf_part *p);
/* What a flush waits for: every part's every region's fifo drained past what it held when the
 * wait began (its `pushed` then), then every host program issued until that moment complete.
 * A host flush or durable write (core/host_cmd.c) and the dump at power failure
 * (recovery/power_fail.h) wait so. */
struct drain_barrier {
  uint32_t *drain_mark;            /* [cores][queues] (the owner allocates drain_barrier_bytes) */
  uint32_t barrier;                /* the program id every earlier one must reach */
  uint8_t  draining;               /* still draining the buffer (counted in flushes_draining:
                                      every writer drains its part meanwhile) */
};
/* The bytes of a barrier's drain_mark. */
uint32_t drain_barrier_bytes(const struct ftl *f);
void drain_barrier_begin(struct ftl *f, struct drain_barrier *b);
/* 1 once everything buffered at the beginning is on flash. */
int  drain_barrier_passed(struct ftl *f, struct drain_barrier *b);
/* The slot's data is on flash and its mapping in place. */
void wbuf_map_applied(struct ftl *f, uint32_t slot);
/* keeps_synced kinds: a SL_SYNCED entry is about to be reused: reads of its LPA go to flash
 * from now (it leaves the index if it is still the newest copy). */
void wbuf_forget(struct ftl *f, uint32_t slot);
/* The part's core is about to sleep: a kind with a drain timeout looks at its clock (1: the
 * writer has work now). */
int  wbuf_idle(struct ftl *f, struct wbuf_part *p);

#endif /* SSDVP_BUFFER_WRITE_BUFFER_H */
