/* The trim log: what makes a trim hold across a power loss (docs/reliability.md).
 *
 * Recovery rebuilds the map from the data on flash, the newest version of each sector winning.
 * A trim leaves a sector's newest version invalid, so GC may erase it while an older version
 * still sits in a block not erased yet, and that older version would come back.  So each trim
 * takes a version (the OOB sequence, like a write) and becomes a record {lpa, sectors,
 * version}; before GC erases any superblock every record is on flash (write-ahead), and
 * recovery drops any version of a trimmed sector older than its record.
 *
 * The log lives in DRAM and is written whole (a generation) in log sectors (OOB lpa
 * TRIM_LOG_OOB, payload kept) into the GC superblock of the pool whose erase waits (in combo's
 * unit-mapped MLC, whose GC copies go into the victim's unit, where they go when the pool
 * has no GC superblock or free one; else the translation-page stream of a die with room): when GC is about to erase and a record is
 * newer than the last generation, or the victim holds the last generation.  Each
 * generation first drops the records no longer needed: those no older than every version
 * still on flash in a superblock with invalid (or unwritten) sectors (each superblock's
 * smallest OOB version is kept at program submission), and with the page map those whose
 * sectors have all been written since.  Log sectors are never valid (GC moves nothing),
 * older generations are simply left for GC.  Recovery applies every record of every
 * generation it finds (a record no longer needed only drops versions that no longer matter)
 * and takes them back into DRAM, where the next erase writes them afresh.
 *
 * A full log makes the drive ignore further trims (a deallocate is advisory in NVMe): their
 * data stays readable (ftl.trim_log.trims_ignored in run.json).
 * Leaves out: clipping a demand-based map's records by later writes (it would need their
 * translation pages loaded); incremental writes (the whole log is rewritten: fine for its
 * thousands of records, not for millions). */
#ifndef SSDVP_TRIM_LOG_H
#define SSDVP_TRIM_LOG_H

#include <stdint.h>

struct ftl;

#define TRIM_LOG_OOB 0xFFFFFFFEu   /* OOB lpa of a log sector (0xFFFFFFFF: padding) */

struct trim_rec {
  uint32_t lpa, n, ver;
};

struct trim_log {
  struct trim_rec *rec;     /* [cap], oldest first (versions ascending) */
  uint32_t cap, count;
  uint8_t  dirty;           /* a record was added since the last generation began */
  uint32_t gen;             /* the last complete generation's number (0: none) */
  uint32_t *sb_gen;         /* [superblocks] newest generation with a log sector there */
  uint32_t image;           /* DRAM address of the generation being written (sectors) */
  uint8_t  writing;         /* a generation is being written */
  uint32_t wgen;            /* its number */
  uint32_t wsectors, wnext; /* its sectors, and the next to place */
  uint32_t wprogs;          /* its programs in flight */
  uint32_t pool;            /* the pool whose erase waits for it (its GC stream first) */
  uint32_t next_die;        /* round robin of its programs elsewhere */
};

void trim_log_init(struct ftl *f);
/* Records a trim of [lpa, lpa + n) at version ver; 0 if the log is full (the trim is ignored). */
int  trim_log_add(struct ftl *f, uint32_t lpa, uint32_t n, uint32_t ver);
/* May GC erase superblock sb now?  If not, the write that makes it safe has been started. */
int  trim_log_erase_ok(struct ftl *f, uint32_t sb);
int  trim_log_step(struct ftl *f);                    /* issues the generation's programs */
static inline int trim_log_busy(const struct trim_log *l) { return l->writing && l->wnext < l->wsectors; }
/* A log program failed and goes again to superblock sb (media/program_retry.h). */
void trim_log_program_moved(struct ftl *f, uint32_t sb);

/* Recovery (recovery/recovery.c): a log sector read back; then, once the scan is done, every
 * record found is applied to the scanned map (l2p, its versions seq) and kept. */
void trim_log_found(struct ftl *f, const void *sector);
void trim_log_apply(struct ftl *f, uint32_t *l2p, const uint32_t *seq);

#endif /* SSDVP_TRIM_LOG_H */
