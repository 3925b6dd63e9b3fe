/* The write buffer's queues (buffer/write_buffer.h) and where each one's superpages go: the
 * seam between the buffer and placement.  One queue per SLC/MLC placement region
 * (place/placement.h; one without placement), or with FDP one per reclaim group and handle
 * (place/fdp.h).  Which queue a host sector waits in, which region and stream a queue's
 * superpages open and which pools may take them are answered here, inline (the buffer asks for
 * every superpage and pool it looks at).  Included by core/ftl.h after struct ftl.
 * Leaves out: nothing of its own; the policies are placement's and FDP's. */
#ifndef SSDVP_PLACE_QUEUES_H
#define SSDVP_PLACE_QUEUES_H

#include <stdint.h>

static inline int fdp_on(const struct ftl *f) { return f->pl.fdp.handles != 0; }
static inline uint32_t fdp_queues(const struct ftl *f) { return f->pl.fdp.groups * f->pl.fdp.handles; }
/* The host stream of an FDP queue's superpages (its handle's), and whether a pool may take them
 * (a die of its group). */
static inline int fdp_queue_stream(const struct ftl *f, uint32_t queue) {
  return (int)(STREAM_FDP_HOST + queue % f->pl.fdp.handles);
}
static inline int fdp_queue_takes_pool(const struct ftl *f, uint32_t queue, uint32_t pool) {
  return f->pool[pool].die / f->pl.fdp.dies_per_group == queue / f->pl.fdp.handles;
}

/* Queues in use. */
static inline uint32_t place_queues(const struct ftl *f) { return fdp_on(f) ? fdp_queues(f) : f->pl.regions; }
/* The queue a host sector waits in: its write's FDP queue, or its placement region. */
static inline uint32_t place_queue_of_write(struct ftl *f, uint32_t lpa, uint32_t nsect, uint32_t fdp_queue) {
  return fdp_on(f) ? fdp_queue : place_region_of_write(f, lpa, nsect);
}
/* The placement region a queue's superpages go to. */
static inline uint32_t place_queue_region(const struct ftl *f, uint32_t queue) { return fdp_on(f) ? 0u : queue; }
/* The stream (gc/blocks.h) a queue's superpages open. */
static inline int place_queue_stream(const struct ftl *f, uint32_t queue) {
  return fdp_on(f) ? fdp_queue_stream(f, queue) : STREAM_HOST;
}
/* Pool may take the queue's superpages. */
static inline int place_queue_takes_pool(const struct ftl *f, uint32_t queue, uint32_t pool) {
  return fdp_on(f) ? fdp_queue_takes_pool(f, queue, pool) : f->pl.pool_region[pool] == queue;
}

#endif /* SSDVP_PLACE_QUEUES_H */
