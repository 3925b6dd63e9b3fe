/* Translation pages written afresh after a power cut: see map_rebuild.h. */
#include "recovery/map_rebuild.h"
#include "core/ftl.h"
#include "hal/hal.h"

void map_rebuild_translation_pages(struct ftl *f, const uint32_t *l2p) {
  struct dmap *d = &f->dm;
  const uint32_t n_lpa = f->geo.logical_sectors;
  uint32_t tp = 0, idle_passes = 0;
  d->tp_reserve = 1;   /* a die's last free superblock stays for its GC */
  for (;;) {
    int n = 0;
    for (; tp < d->n_tp; tp++) {
      const uint32_t first = tp * TP_ENTRIES;
      const uint32_t count = n_lpa - first < TP_ENTRIES ? n_lpa - first : TP_ENTRIES;
      uint32_t mapped = 0;
      for (uint32_t i = 0; i < count && !mapped; i++) mapped = l2p[first + i] != NONE32;
      if (!mapped) {   /* nothing to map: the page leaves the GTD (reads of it see unmapped) */
        if (d->gtd[tp] != NONE32) map_invalidate(f, d->gtd[tp]);
        d->gtd[tp] = NONE32;
        continue;
      }
      if (!dmap_write_page(f, tp, &l2p[first], count)) break;
      f->stats->recovery_tp_writes++;
      n++;
    }
    n += dmap_writer_step(f);
    flash_commit(f);
    if (tp == d->n_tp && d->wq_count == 0 && f->fops_inflight == 0) {
      d->tp_reserve = 0;
      return;
    }
    if (flash_poll(f)) n++;
    if (n) {
      idle_passes = 0;
    } else if (f->fops_inflight == 0 && ++idle_passes > 1) {
      hal_fatal("fw: no free superblock to write the recovered translation pages into\n",
                SSD_HALT_BAD_CONFIG | SSD_BADCFG_RECOVERY);
    } else if (f->fops_inflight) {
      hal_wait_for_event();
    }
  }
}
