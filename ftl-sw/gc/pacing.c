/* GC pacing (gc/pacing.h says what and why). */
#include "gc/pacing.h"
#include "core/ftl.h"

void gc_pace_consumed(struct ftl *f, uint32_t pool, uint32_t sectors) {
  if (f->cfg.gc_pacing && f->pool[pool].gc_listed) f->pool[pool].pace.consumed += sectors;
}

void gc_pace_victim(struct ftl *f, uint32_t pool, uint32_t sb) {
  struct pool_state *ps = &f->pool[pool];
  struct gc_pace *p = &ps->pace;
  pool_may_take_more(f);   /* a new victim's debt (or a victim at all) decides gc_pace_host_waits */
  if (!f->cfg.gc_pacing) return;
  /* What the last victim paid for: copied x I / V sectors of consumption, or its I sectors if
   * it held nothing valid (none if there was no last victim).  The rest, at most a superpage,
   * is owed by this one: a larger debt would hold host data at the reserve until GC had
   * copied V / I times it (with a superblock, seconds of programs on a TLC die; measured in
   * docs/ftl-guide.md), and the pool's free count already says how far behind GC is. */
  const uint64_t paid = p->valid ? p->copied * p->invalid / p->valid : p->invalid;
  uint64_t owed = p->consumed > paid ? p->consumed - paid : 0u;
  if (owed > f->geo.unit) owed = f->geo.unit;
  p->consumed = owed;
  p->copied = 0;
  p->valid = f->sb_valid[sb];
  p->invalid = ps->sb_capacity > p->valid ? ps->sb_capacity - p->valid : 0u;
}

void gc_pace_copied(struct ftl *f, uint32_t pool, uint32_t sectors) {
  if (!f->cfg.gc_pacing) return;
  f->pool[pool].pace.copied += sectors;
  pool_may_take_more(f);
  f->space_epoch++;   /* host data that waited for this pool may go (buffer/write_buffer.c) */
}

void gc_pace_idle(struct ftl *f, uint32_t pool) {
  struct gc_pace *p = &f->pool[pool].pace;
  pool_may_take_more(f);
  p->consumed = p->copied = 0;
  p->valid = p->invalid = 0;
  p->held = p->host_held = 0;
}

int gc_pace_hold(struct ftl *f, uint32_t pool) {
  struct pool_state *ps = &f->pool[pool];
  struct gc_pace *p = &ps->pace;
  /* Paced: not urgent, nothing that must not wait, and GC has copied more than
   * consumption x V / I (the first superpage of a victim never waits). */
  const int hold = f->cfg.gc_pacing && ps->free_count >= ps->gc_low && !ps->idle_gc &&
                   !ps->retiring && !ps->wl_victim && !slc_cache_over_lent(f, pool) &&
                   p->copied * p->invalid > p->consumed * p->valid;
  if (hold && !p->held) f->stats->gc_pace_holds++;
  p->held = (uint8_t)hold;
  return hold;
}

int gc_pace_host_waits(struct ftl *f, uint32_t pool) {
  struct pool_state *ps = &f->pool[pool];
  struct gc_pace *p = &ps->pace;
  /* At the host reserve, a victim with data to copy, and consumption x V > copied x I + a
   * superpage x V: the writes are more than a superpage ahead of what GC reclaimed. */
  const int wait = f->cfg.gc_pacing && ps->free_count <= ps->host_reserve && ps->victim != NONE32 &&
                   p->valid && p->consumed * p->valid > p->copied * p->invalid + (uint64_t)f->geo.unit * p->valid;
  if (wait && !p->host_held) f->stats->gc_pace_host_waits++;
  p->host_held = (uint8_t)wait;
  return wait;
}
