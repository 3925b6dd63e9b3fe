/* Superblocks (gc/blocks.c says how they are allocated: per-pool free lists, the open host, GC,
 * translation-page, migration and wear-levelling superblocks of each pool, the reserves), and
 * the setters every module changes a superblock's state, valid count and programs in flight
 * through, so that GC's victim index (gc/victim_index.h) sees every change.  Included by
 * core/ftl.h after struct ftl.
 * Leaves out: nothing of its own; the arrays themselves stay in struct ftl. */
#ifndef SSDVP_GC_BLOCKS_H
#define SSDVP_GC_BLOCKS_H

#include <stdint.h>

struct ftl;

void blocks_init(struct ftl *f);
uint32_t blocks_take_free(struct ftl *f, uint32_t pool);
void blocks_put_free(struct ftl *f, uint32_t sb);
/* Next superpage of the pool's open host, GC or translation-page superblock; NONE32 when the
 * pool has no space for that user now. */
enum stream { STREAM_HOST = 0, STREAM_GC, STREAM_MAP, STREAM_MAP_GC /* GC copies of translation pages */,
              STREAM_MIGRATE /* SLC GC copies into an MLC pool (host reserve applies) */,
              STREAM_WEAR /* wear levelling's moves of cold data (wear/static_wl.h) */
              /* from STREAM_FDP_HOST on: an FDP handle's host data and GC copies (place/fdp.h) */ };
uint32_t blocks_next_superpage(struct ftl *f, uint32_t pool, int stream);
/* The pool's open superblock of `stream` now (NONE32: none). */
uint32_t blocks_stream_open(struct ftl *f, uint32_t pool, int stream);
/* Write-through (core/host_cmd.c: every write completes on flash): the next `want` planes (pages)
 * of the pool's open host superblock from its next free plane on, fewer where its superpage
 * ends; *planes gets how many.  A page is the smallest program: a write of one 4 KiB sector
 * programs one plane's page instead of a whole padded superpage.  blocks_next_superpage on the
 * host stream closes a superblock whose superpage is partly programmed so (the rest of it stays
 * erased: each plane's block takes its pages in order). */
uint32_t blocks_next_pages(struct ftl *f, uint32_t pool, uint32_t want, uint32_t *planes);
/* As blocks_next_superpage, and when the pool has no room, the same stream of another pool of
 * the same cell mode that can spare a superblock (more free than its reserves): where bad
 * blocks took a pool's spare, its GC copies and retried programs go elsewhere. */
uint32_t blocks_next_superpage_spill(struct ftl *f, uint32_t pool, int stream);
/* sb leaves the stream it is open for (a program there failed); no-op if it is closed. */
void blocks_close(struct ftl *f, uint32_t sb);
/* Recovery: sb, written up to superpage `page`, is the pool's open superblock of `stream`
 * again if that stream has none (returns 1), else it stays as it is (0). */
int blocks_reopen(struct ftl *f, uint32_t sb, int stream, uint32_t page);
/* Drops superblocks no longer free (found with data, or bad) from the free lists. */
void blocks_drop_unfree(struct ftl *f);
/* Takes free superblock sb out of its pool's free list (it is SB_OPEN after). */
void blocks_unfree(struct ftl *f, uint32_t sb);
/* Rebuilds every pool's free list and count from ftl.sb_owner (the NOR's modes, at power-on:
 * place/slc_cache.h). */
void blocks_regroup(struct ftl *f);
/* Next superpage of the translation-page stream on any die, round robin from *next_die: a die
 * whose free superblocks are down to `reserve` is skipped, and so is a die's last free one while
 * its GC runs (if no other die can take the page, while its victim's data does not fit GC's
 * open superblock).  NONE32: no die has room now. */
uint32_t blocks_next_map_superpage(struct ftl *f, uint32_t *next_die, uint32_t reserve);

/* Setters of a superblock's state (enum sb_state), valid sectors and programs in flight. */
static inline void sb_set_state(struct ftl *f, uint32_t sb, enum sb_state s) {
  f->sb_state[sb] = (uint8_t)s;
  victim_index_touch(f, sb);
}
static inline void sb_valid_inc(struct ftl *f, uint32_t sb) {
  f->sb_valid[sb]++;
  f->pool[sb_pool(f, sb)].valid++;
  victim_index_touch(f, sb);
}
static inline void sb_valid_dec(struct ftl *f, uint32_t sb) {
  f->sb_valid[sb]--;
  f->pool[sb_pool(f, sb)].valid--;
  victim_index_improved(f, sb);   /* (fewer valid: only better) */
}
static inline void sb_valid_clear(struct ftl *f, uint32_t sb) {
  f->pool[sb_pool(f, sb)].valid -= f->sb_valid[sb];
  f->sb_valid[sb] = 0;
  victim_index_touch(f, sb);
}
static inline void sb_progs_inc(struct ftl *f, uint32_t sb) {
  f->sb_progs_inflight[sb]++;
  victim_index_touch(f, sb);
}
static inline void sb_progs_dec(struct ftl *f, uint32_t sb) {
  f->sb_progs_inflight[sb]--;
  victim_index_touch(f, sb);
}

#endif /* SSDVP_GC_BLOCKS_H */
