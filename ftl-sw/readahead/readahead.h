/* Read-ahead: the one seam where the FTL asks what to keep in the read cache and what to
 * read before the host asks for it (ftl.readahead), after the predictive read-ahead paper
 * (dtree-readahead: LRU, dTree, dTree+LRU) and the plain sequential read-ahead drives and
 * operating systems do.
 *
 * Models: a policy, picked once at boot from a table, says
 *   - whether sectors the host read (brought from flash for it, or read ahead) stay in
 *     the read cache (LRU) or leave it once sent;
 *   - whether a new prediction drops the unread sectors of earlier ones (the paper's dTree:
 *     the buffer holds the predicted next request);
 *   - what to read ahead after each host read: the pattern analyser's prediction
 *     (pattern_tree.h) in read-cache items (ftl.read_cache.item_kib), or the next window
 *     of a detected sequential stream.
 *       none       no read cache;
 *       lru        read cache only;
 *       dtree      prediction only: the predicted next request, replaced by each new one;
 *       dtree-lru  both: predictions land in the LRU cache with the host's reads;
 *       seq        next-N: after ftl.seq_readahead.trigger sequential reads, keep
 *                  ftl.seq_readahead.window_kib read ahead of the stream.
 * The analyser learns each read as it arrives; the prediction is read from flash while the
 * read's data goes to the host (the paper's overlap).  Read-ahead runs at lower priority
 * than everything else: a die gets a read-ahead only while it has no flash operation in
 * flight (host, GC or map), one at a time, so a host read arriving behind it waits for at
 * most that one flash read (the firmware measures the wait: ra_prefetch_delay_*).  Sectors the write buffer holds,
 * unmapped ones and (demand-based mapping) ones whose translation page is not cached are
 * not read ahead.
 * Leaves out: several streams (one analyser for all reads), read-ahead of data still in the
 * write buffer, translation-page loads for read-ahead, adapting the window to hit rates. */
#ifndef SSDVP_READAHEAD_READAHEAD_H
#define SSDVP_READAHEAD_READAHEAD_H

#include <stdint.h>

#include "readahead/pattern_tree.h"
#include "readahead/read_cache.h"

struct ftl;

struct ra_policy {
  const char *name;
  uint8_t keep_read;     /* sectors the host read (from flash or read ahead) stay cached */
  uint8_t replace;       /* a new prediction drops the unread sectors of earlier ones */
  /* A host read of [lba, lba + nsect) arrived: learn it, and say what to read ahead once
   * its data goes to the host (1 and *lpa, *nsect), or 0. */
  int (*note_read)(struct ftl *f, uint32_t lba, uint32_t nsect, uint32_t *lpa, uint32_t *count);
};

struct readahead {
  const struct ra_policy *policy;   /* NULL: off (ftl.readahead = none) */
  struct read_cache rc;
  struct pattern_tree pt;
  uint32_t item_sectors;            /* the analyser's and read-ahead's unit */
  uint32_t gen;                     /* the current prediction (replacing policies) */
  uint32_t want_lpa, want_nsect;    /* prediction waiting for its read's data to go out */
  uint8_t  want;
  uint32_t pend_lpa, pend_nsect;    /* the current prediction's sectors not yet given a cache
                                       entry: every entry was pinned (by host reads); placed
                                       as entries come back, dropped by the next prediction */
  uint8_t  pend_waited;             /* it found every entry pinned once (counted once) */
  /* seq */
  uint32_t seq_end, seq_count, seq_ahead;   /* stream end, reads in a row, read ahead up to */
  /* read-ahead waiting for its die, per die (FIFO of cache entries through qnext) */
  uint32_t *q_head, *q_tail;
  uint32_t queued;
  uint8_t  *die_pf;                 /* a read-ahead in flight on the die */
  uint64_t *die_wait_t0;            /* when the first host read queued behind it (0: none) */
  uint32_t *pf_sgl, *pf_entry;      /* [die][spp]: the in-flight read-ahead's sectors */
};

/* Boot: the policy from the configuration, the cache and the analyser in DRAM. */
void ra_init(struct ftl *f);
/* A host read arrived (before it starts). */
void ra_note_read(struct ftl *f, uint32_t lba, uint32_t nsect);
/* A host read's data starts going to the host: its prediction is read ahead now. */
void ra_read_sent(struct ftl *f);
/* A host read was sent to a die (measures its wait behind a read-ahead there). */
void ra_host_read_submitted(struct ftl *f, uint32_t die);
/* Places what waits of the current prediction where cache entries came back, then submits
 * queued read-ahead where dies allow; returns work done. */
int  ra_prefetch_step(struct ftl *f);
/* A host read wants queued read-ahead entry i: it leaves the queue and the host read
 * reads it itself, at host priority. */
void ra_take_queued(struct ftl *f, uint32_t i);
/* Host writes and trims of [lpa, lpa + n). */
void ra_invalidate(struct ftl *f, uint32_t lpa, uint32_t n);

#endif /* SSDVP_READAHEAD_READAHEAD_H */
