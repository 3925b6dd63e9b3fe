/* ftl.write_buffer = slots: the buffer as a pool of 4 KiB slots on a free list
 * (buffer/write_buffer.h).  A slot is reused as soon as its data is on flash and mapped (or
 * was overwritten while buffered and dropped), in whatever order that happens; the writer
 * drains whenever a superpage's worth of live data is buffered.
 * Leaves out: a drain timeout (a partial superpage waits for more data or a flush). */
#include "core/ftl.h"

static void slots_init(struct ftl *f, struct wbuf_part *p) {
  p->free_list = fw_alloc(f, p->nslots * 4u, 64);
  for (uint32_t i = 0; i < p->nslots; i++) p->free_list[i] = p->first + p->nslots - 1u - i;
  p->free_count = p->nslots;
}

static int slots_alloc(struct ftl *f, struct wbuf_part *p, uint32_t n, uint32_t *slots_out) {
  struct wbuf *w = &f->wb;
  if (p->free_count < n) return 0;
  for (uint32_t i = 0; i < n; i++) {
    const uint32_t s = p->free_list[--p->free_count];
    w->state[s] = SL_FILLING;
    slots_out[i] = s;
  }
  return 1;
}

static void slots_release(struct ftl *f, struct wbuf_part *p, uint32_t s) {
  f->wb.state[s] = SL_FREE;
  p->free_list[p->free_count++] = s;
}

static int slots_drain_mode(struct ftl *f, struct wbuf_part *p) { return p->live_count >= f->geo.unit; }

const struct wbuf_space wbuf_slot_pool = {"slots", slots_init, slots_alloc, slots_release, slots_drain_mode, 0, 0, 0};
