/* The FTL's work by host thread: see host_roles.h. */
#include "core/host_roles.h"
#include "core/ftl.h"
#include "hal/hal.h"

static struct fw_core *on_core(struct ftl *f, uint32_t k) {
  f->cur = f->core[k];
  return f->cur;
}

static int done_waiting(const struct fw_core *c) {
  return c->done_ring[c->done_pos.head & (c->done_pos.size - 1u)].phase == c->done_pos.phase;
}

/* Doorbells rung; the host moves data at once (its copies), so their done entries are taken
 * while the section lasts. */
static int commit_and_finish(struct ftl *f) {
  int n = 0;
  for (;;) {
    if (f->cur->fsub_dirty) flash_commit(f);
    hif_commit(f);
    if (!done_waiting(f->cur)) return n;
    n += hif_poll_done(f, f->cur);
  }
}

static int completions_waiting(const struct fw_core *c) {
  return c->fcpl[c->fcpl_pos.head & (c->fcpl_pos.size - 1u)].phase == c->fcpl_pos.phase;
}

static int finish(struct ftl *f, int n) {
  n += commit_and_finish(f);
  if (n) hal_cost(HAL_COST_LOOP, 1);
  return n;
}


/* Completions the section answered on the host (a read of a chunk's last units from the host's
 * copy) are in the ring at once: the section takes them itself. */
static int own_completions(struct ftl *f, int n) {
  n += commit_and_finish(f);
  if (completions_waiting(f->cur)) n += flash_poll(f) + commit_and_finish(f);
  if (n) hal_cost(HAL_COST_LOOP, 1);
  return n;
}

int host_role_submit(struct ftl *f, uint32_t k) {
  struct fw_core *c = on_core(f, k);
  int n = 0;
  if (*c->cmd_tail != c->cmd_pos.head) n += hif_poll_cmds(f);
  return own_completions(f, n);
}

int host_role_retry(struct ftl *f, uint32_t k) {
  on_core(f, k);
  int n = 0;
  if (f->writes_waiting || f->wait_read_head != NONE32) n += hcmd_retry_waiting(f);
  return own_completions(f, n);
}

int host_role_completions(struct ftl *f, uint32_t k) {
  struct fw_core *c = on_core(f, k);
  int n = 0;
  if (completions_waiting(c)) n += flash_poll(f);
  if (f->flush_head != NONE32) n += hcmd_flushes_done(f);
  return finish(f, n);
}

int host_role_writeback(struct ftl *f, uint32_t k, int idle) {
  struct fw_core *c = on_core(f, k);
  int n = 0;
  if (done_waiting(c)) n += hif_poll_done(f, c);
  const int write_stop = f->cfg.sched == SSD_SCHED_WRITE_STOP && dmap_reads_protected(f) && !f->flushes_draining;
  const int drain = write_stop ? 0 : wbuf_drain_mode(f, &c->wb);
  if (drain)
    while (wbuf_flush_step(f, &c->wb, drain == 2)) n++;
  if (!n && idle) n += wbuf_idle(f, &c->wb);
  if (f->flush_head != NONE32) n += hcmd_flushes_done(f);
  return finish(f, n);
}

int host_role_background(struct ftl *f) {
  on_core(f, 0);
  return finish(f, ftl_background_steps(f));
}

int host_role_writeback_due(struct ftl *f, uint32_t k) {
  struct fw_core *c = f->core[k];
  return done_waiting(c) || f->flush_head != NONE32 || wbuf_drain_mode(f, &c->wb);
}

int host_role_background_due(const struct ftl *f) {
  return f->ra.queued || f->ra.pend_nsect || program_retry_busy(&f->pr) || f->gc_npools || f->pl.cache.nlisted ||
         trim_log_busy(&f->tl) || (f->demand && dmap_has_work(f));
}
