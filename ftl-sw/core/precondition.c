/* Functional preconditioning: writes the logical space sequentially, then overwrites random
 * sectors, through the normal write buffer, GC and flash paths, with the flash controller in
 * functional mode (operations complete at once, no simulated time passes) and the firmware's
 * time not charged.  The drive ends in the steady state its GC policy produces; every
 * sector carries the tag (lba, seq 0) that host reads check.  It runs on the core that
 * received the command, through that core's part of the buffer, holding the firmware lock
 * throughout.  Then the drive is parked: GC (which may be mid-cycle, its victim half copied:
 * all of that is DRAM state, no flash operation is in flight), buffer drains and timers wait
 * for the host's next command, so the cores sleep and the platform can save the drive there
 * (platforms/drive_snapshot.h) and a run's workload meets the same drive, GC debt included,
 * whether it was saved, loaded or neither. */
#include "core/ftl.h"
#include "hal/hal.h"

#define PRECOND_AHEAD 16u

static uint64_t next_random(uint64_t *s) {  /* xorshift64* */
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ull;
}

/* One pass of the drain; a long run of passes without any work done is a firmware bug:
 * report the state and halt rather than spin. */
static void drain_once(struct ftl *f, int force) {
  int n = 0;
  while (wbuf_flush_step(f, &f->cur->wb, force)) n++;
  if (program_retry_busy(&f->pr)) n += program_retry_step(f);
  n += gc_step(f);
  if (f->pl.cache.nlisted) n += slc_cache_step(f);
  if (f->demand) n += dmap_step(f);
  flash_commit(f);
  n += flash_poll(f);
  if (n) { f->precond_idle_passes = 0; return; }
  if (++f->precond_idle_passes < 100000u) return;
  hal_puts("fw: preconditioning makes no progress\n");
  if (f->demand) dmap_dump(f);
  gc_dump(f);
  hal_halt(0x9C000001u);
  for (;;) hal_sleep();
}

void precondition_run(struct ftl *f, uint16_t slot, const struct ssd_host_cmd *cmd) {
  const uint32_t logical = f->geo.logical_sectors;
  if (cmd->cdw[0] > 1000u || cmd->cdw[1] > 100000u) {
    hcmd_complete(f, slot, SSD_ST_INVALID_FIELD);
    return;
  }
  hal_write32(SSD_SYSCTL_BASE + SYSCTL_FW_STATE, SSD_FW_STATE_PRECOND);
  fw_long_hold(f, 1);
  hal_write32(SSD_FCTL_BASE + FCTL_FUNCTIONAL, 1);
  uint64_t fill = (uint64_t)logical * cmd->cdw[0] / 1000u;
  uint64_t over = (uint64_t)logical * cmd->cdw[1] / 1000u;
  place_check_fill(f, fill);
  uint64_t rng = 0x9E3779B97F4A7C15ull ^ cmd->cdw[2];
  if (rng == 0) rng = 1;
  /* The same sequence PRECOND_AHEAD overwrites ahead, whose page-map entries are fetched into
   * the cache while the writes before them go through (a hint: it changes nothing else). */
  uint64_t ahead = rng, nearer = rng;   /* ... and the reverse map's entries, half as far */
  for (uint32_t k = 0; k < PRECOND_AHEAD; k++) next_random(&ahead);
  for (uint32_t k = 0; k < PRECOND_AHEAD / 2u; k++) next_random(&nearer);
  uint16_t status = SSD_ST_OK;
  for (uint64_t i = 0; i < fill + over; i++) {
    if (bbt_read_only(&f->bb)) {   /* the spare blocks ran out (media/bad_blocks.h) */
      status = SSD_ST_WRITE_PROTECTED;
      break;
    }
    uint32_t lpa = i < fill ? (uint32_t)i : (uint32_t)(next_random(&rng) % logical);
    if (i >= fill) {
      map_prefetch(f, (uint32_t)(next_random(&ahead) % logical));
      map_prefetch_old(f, (uint32_t)(next_random(&nearer) % logical));
    }
    uint32_t s;
    while (!wbuf_alloc(f, &f->cur->wb, 1, &s)) drain_once(f, 0);
    struct ssd_sector_tag *t = hal_dram_ptr(wbuf_slot_addr(f, s));
    t->lba = lpa;
    t->seq = 0;
    /* sequential, random; with FDP as writes without a directive */
    wbuf_commit_sector(f, s, lpa, i < fill ? SSD_MDTS_SECTORS : 1u, fdp_on(f) ? fdp_queue_of_write(f, 0, 1) : 0u);
    if (f->cur->wb.live_count >= f->geo.unit) drain_once(f, 0);
  }
  while (wbuf_queued(&f->cur->wb) || f->fops_inflight || program_retry_busy(&f->pr) || (f->demand && dmap_has_work(f)))
    drain_once(f, 1);
  hal_write32(SSD_FCTL_BASE + FCTL_FUNCTIONAL, 0);
  f->background_parked = 1;
  hal_write32(SSD_SYSCTL_BASE + SYSCTL_FW_STATE, SSD_FW_STATE_READY);
  fw_long_hold(f, 0);
  hcmd_complete(f, slot, status);
}
