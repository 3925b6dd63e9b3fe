/* adaptive: the clean/dirty split of the mapping cache follows the workload (the PTSD
 * paper's future work).  Every adapt_window mapping accesses a PID controller compares what
 * the two parts cost in that window, in translation page flash work:
 *   read side  = clean-region misses x 1 (each a translation page read a host read waits for)
 *   write side = batch updates x (map_write_cost / 1000, + 1 if the page had to be read)
 * error = (read - write) / (read + write), in per mille: positive when reads pay more, so the
 * clean share grows; negative when batch updates pay more, so the dirty-entry share grows.
 * Output: the clean share, 10%..90% of the budget, moved at most 5% a step; the integral is
 * clamped (it can move the share by 5% at most) and does not wind up against a bound, so the
 * split turns within a few steps when the mix changes.  A smaller clean region drops its LRU
 * clean pages at once; a smaller entry limit starts batch updates. */
#include "core/ftl.h"
#include "hal/hal.h"

#define KP_DIV   8    /* proportional: err / 8 per mille */
#define KI_DIV   64   /* integral:     sum(err) / 64    */
#define KD_DIV   16   /* derivative:   d(err) / 16      */
#define STEP_MAX 50
#define SHARE_MIN 100
#define SHARE_MAX 900
#define INTEGRAL_MAX 3200   /* anti-windup: the integral moves the share by 5% at most */

static void apply_split(struct ftl *f) {
  struct dmap *d = &f->dm;
  uint32_t clean = (uint32_t)((uint64_t)d->budget_bytes * d->clean_permille / 1000u / SECTOR_BYTES);
  uint32_t max_clean = d->nslots - d->reg[REG_BATCH].cap;
  if (clean > max_clean) clean = max_clean;
  if (clean < 2u) clean = 2u;
  d->reg[REG_CLEAN].cap = clean;
  dmap_shrink_region(f, REG_CLEAN);
  uint64_t used = (uint64_t)(clean + d->reg[REG_BATCH].cap) * SECTOR_BYTES;
  uint64_t rest = d->budget_bytes > used ? d->budget_bytes - used : 0;
  dent_set_limit(f, (uint32_t)(rest / (sizeof(struct dirty_entry) + 8u)));
  f->stats->cmt_clean_slots = clean;
  f->stats->cmt_slots = clean;
  f->stats->cmt_bytes = (uint32_t)used;
  f->stats->dirty_entry_bytes = (uint32_t)rest;
}

void adapt_init(struct ftl *f) {
  struct dmap *d = &f->dm;
  d->pid_integral = d->pid_prev_err = 0;
  d->win_accesses = d->win_read_miss = d->win_write_cost = 0;
  apply_split(f);
}

void adapt_note_read_miss(struct ftl *f) { f->dm.win_read_miss++; }

/* A batch update: one program, plus a read if the page was not cached. */
void adapt_note_write_cost(struct ftl *f, uint32_t reads) {
  f->dm.win_write_cost += f->cfg.map_write_cost + reads * 1000u;
}

void adapt_access(struct ftl *f) {
  struct dmap *d = &f->dm;
  if (f->cfg.mapping != SSD_MAP_ADAPTIVE || ++d->win_accesses < f->cfg.adapt_window) return;
  int64_t rd = (int64_t)d->win_read_miss * 1000, wr = d->win_write_cost;
  int32_t err = (int32_t)((rd - wr) * 1000 / (rd + wr + 1));
  /* Anti-windup: no integration against a bound the share already sits on. */
  const int at_bound = (err > 0 && d->clean_permille >= SHARE_MAX) || (err < 0 && d->clean_permille <= SHARE_MIN);
  if (!at_bound) d->pid_integral += err;
  if (d->pid_integral > INTEGRAL_MAX) d->pid_integral = INTEGRAL_MAX;
  if (d->pid_integral < -INTEGRAL_MAX) d->pid_integral = -INTEGRAL_MAX;
  int32_t u = err / KP_DIV + d->pid_integral / KI_DIV + (err - d->pid_prev_err) / KD_DIV;
  d->pid_prev_err = err;
  if (u > STEP_MAX) u = STEP_MAX;
  if (u < -STEP_MAX) u = -STEP_MAX;
  int32_t share = (int32_t)d->clean_permille + u;
  if (share < SHARE_MIN) share = SHARE_MIN;
  if (share > SHARE_MAX) share = SHARE_MAX;
  d->clean_permille = (uint32_t)share;
  d->win_accesses = d->win_read_miss = d->win_write_cost = 0;
  f->stats->adapt_steps++;
  apply_split(f);
}
