/* The firmware's state: one struct per controller, reached from every module.
 *
 * Models: a page-mapping FTL with the whole map in DRAM ("OPT" in the papers) or demand-based
 * mapping (translation pages on flash, a mapping cache in DRAM: DFTL and the PTSD schemes,
 * map/), a DRAM write buffer, per-die superblocks (the same block index on every plane,
 * programmed a superpage — one page on every plane — at a time) grouped in pools (a die's
 * blocks of one cell mode: its native blocks, and its SLC-mode blocks when the device has a
 * pSLC cache), greedy/FIFO/cost-benefit garbage collection of data and translation blocks,
 * SLC/MLC placement on mixed devices and pSLC caches (place/) and functional preconditioning.
 * Power-on recovery is recovery/recovery.h's, bad blocks media/'s, wear levelling and the
 * erase counts wear/'s. */
#ifndef SSDVP_FTL_H
#define SSDVP_FTL_H

#include <stdint.h>
#include "hal/regs.h"
#include "place/placement.h"
#include "readahead/readahead.h"
#include "buffer/write_buffer.h"
#include "core/timer.h"
#include "core/fw_core.h"
#include "core/flash_port.h"
#include "core/host_port.h"
#include "core/device_ops.h"
#include "recovery/trim_log.h"
#include "recovery/power_fail.h"
#include "media/bad_blocks.h"
#include "media/program_retry.h"
#include "wear/erase_log.h"
#include "wear/static_wl.h"
#include "gc/victim_index.h"
#include "gc/pacing.h"

#define SECTOR_BYTES     4096u
#define NONE32           0xFFFFFFFFu
#define GC_RESERVE       1u      /* free superblocks per die only GC may take */
#define MAP_RESERVE      1u      /* demand-based mapping: one more that host data may not
                                    take: GC's erase waits for map updates, which may need
                                    translation pages written */
#define FOP_MAX          4096u   /* flash operations in flight */
#define FLASH_RING       1024u
/* Consumer indices are reported to the producer lazily, every quarter ring (one MMIO write
 * instead of one per pass).  The rings are sized so that what is in flight plus what has
 * been consumed but not yet reported always fits: */
#define FLASH_CPL_RING   8192u   /* >= FOP_MAX + FLASH_CPL_RING / 4 */
#define HIF_CMD_RING     4096u   /* >= SSD_HOST_SLOTS + HIF_CMD_RING / 4 */
#define HIF_DMA_RING     2048u   /* > SSD_HOST_SLOTS: each command has one DMA in flight */
#define HIF_DONE_RING    4096u   /* >= SSD_HOST_SLOTS + HIF_DONE_RING / 4 */

/* ---- geometry, derived once at boot */
struct ftl_geo {
  uint32_t channels, ways, planes, spp;
  uint32_t blocks;          /* superblock index stride per die: the most blocks per plane of
                               any die (SLC dies may have their own count) */
  uint32_t pages;           /* the most pages per block of any die */
  uint32_t slc_blocks, native_blocks;   /* blocks per plane of SLC / other dies (0: blocks) */
  uint32_t slc_pages, native_pages;     /* pages per block of SLC / other dies (0: pages) */
  uint32_t slc_mask_lo, slc_mask_hi;    /* bit per die: an SLC die (dies >= 64 never are) */
  uint32_t pslc_blocks, pslc_pages;     /* pSLC cache: the first pslc_blocks of each plane of
                                           every die run in SLC mode, pslc_pages per block */
  uint32_t dies;
  uint32_t pools;           /* dies, or 2 * dies with a pSLC cache: pool d < dies holds die d's
                               native blocks, pool dies + d die d's SLC-mode blocks */
  uint32_t unit;            /* sectors in a superpage: planes * spp */
  uint32_t sb_sectors;      /* address stride of a superblock: pages * unit (pages = the
                               largest pages per block of any die) */
  uint32_t superblocks;     /* dies * blocks */
  uint32_t phys_sectors;    /* address space: superblocks * sb_sectors */
  uint32_t usable_sectors;  /* sectors that exist (SLC dies and SLC-mode blocks have fewer
                               pages per block) */
  uint32_t logical_sectors;
};

static inline int geo_die_is_slc(const struct ftl_geo *g, uint32_t die) {
  if (die >= 64) return 0;
  return (int)((die < 32 ? g->slc_mask_lo >> die : g->slc_mask_hi >> (die - 32)) & 1u);
}
static inline uint32_t geo_die_blocks(const struct ftl_geo *g, uint32_t die) {
  uint32_t b = geo_die_is_slc(g, die) ? g->slc_blocks : g->native_blocks;
  return b ? b : g->blocks;
}
static inline uint32_t geo_die_pages(const struct ftl_geo *g, uint32_t die) {
  uint32_t p = geo_die_is_slc(g, die) ? g->slc_pages : g->native_pages;
  return p ? p : g->pages;
}

/* ---- a bump allocator over the DRAM heap */
struct fw_heap {
  uint32_t base, size, used;
  uint32_t zero_from;   /* offset from base: from here up the heap still reads as zeros */
};

/* ---- superblock bookkeeping */
enum sb_state { SB_FREE = 0, SB_OPEN, SB_FULL, SB_VICTIM, SB_BAD /* media/bad_blocks.h */ };

/* A pool: the superblocks of one die in one cell mode, with their free list, open streams
 * and GC engine.  A die has one pool, or two with a pSLC cache (its SLC-mode blocks clean
 * and fill on their own while sharing the die's time). */
struct pool_state {
  uint32_t die;                    /* the die its blocks are on */
  uint32_t span_first, span;       /* the superblocks it may own: [span_first, + span) of its
                                      die's (its own are those sb_owner names it for) */
  uint32_t blocks;                 /* superblocks it owns now (a dynamic SLC cache's pool
                                      grows and shrinks: place/slc_cache.h) */
  uint32_t valid;                  /* valid sectors in them (gc/blocks.h's setters) */
  uint32_t pages;                  /* pages per block (SLC or MLC/TLC, or SLC mode) */
  uint32_t sb_capacity;            /* sectors in one of its superblocks: pages * unit */
  uint32_t free_head, free_tail, free_count;
  uint32_t host_sb, host_page;     /* open superblock for host data, next superpage */
  uint32_t gc_low, gc_high;        /* its GC starts below gc_low free superblocks and goes on
                                      until gc_high are free (ftl.gc_*_blocks, or an SLC pool's
                                      own: place_init) */
  uint32_t host_reserve;           /* free superblocks host data may not take (f->host_reserve,
                                      or an SLC pool's own) */
  uint32_t host_plane;             /* write-through: the next plane of that superpage (its
                                      lower planes are programmed; 0: none of it is) */
  uint32_t gc_sb, gc_page;         /* open superblock for GC copies */
  uint32_t map_sb, map_page;       /* open superblock for translation pages */
  uint32_t mig_sb, mig_page;       /* open superblock for data migrated from SLC (MLC pools) */
  uint32_t wl_sb, wl_page;         /* open superblock for cold data wear levelling moves */
  /* GC in progress in this pool */
  uint32_t victim;                 /* NONE32 when idle */
  uint32_t victim_cursor;          /* next sector of the victim to look at */
  uint32_t gc_group;               /* grouped gathering (placement.h): the group this pass
                                      over the victim takes (NONE32: the next one found) */
  uint32_t gc_rescan;              /* the first sector of another group this pass skipped
                                      (NONE32: none; the victim is done at the pass's end) */
  uint32_t gc_progs_inflight;
  uint32_t gc_gathered;            /* sectors read and waiting in gc_slots */
  uint32_t gc_pending_reads;       /* sectors read-submitted into gc_slots, not yet returned */
  uint32_t gc_half;                /* which half of the pool's GC buffers is being gathered */
  uint8_t  gc_half_busy[2];        /* a program owns that half */
  uint8_t  erase_inflight;
  uint8_t  gc_parked;              /* listed, but waits for one of its own flash operations
                                      (gc.c: gc_park); a completion wakes it */
  uint32_t gc_pos;                 /* its place in ftl.gc_pools while listed */
  uint8_t  slc_mode;               /* SLC-mode blocks of an MLC/TLC die: erased with
                                      SSD_FDF_SLC_MODE (the die keeps a block's mode per erase) */
  uint8_t  gc_active;              /* cleaning until gc_high_blocks are free */
  uint8_t  migrates_out;           /* an SLC pool whose GC only migrates data out (to MLC, never
                                      back) under its own thresholds (ftl.slc_gc_*_blocks) */
  uint8_t  gc_listed;              /* in ftl.gc_pools */
  uint8_t  idle_gc;                /* cleaning ahead of need while the host is idle
                                      (place/idle_migration.h) */
  uint32_t retiring;               /* its superblocks waiting to be retired (bad_blocks.h) */
  uint32_t wl_floor;               /* static wear levelling (wear/static_wl.h): its least
                                      erase count when last looked at */
  uint8_t  wl_due;                 /* an erase made the spread too wide: move cold data */
  uint8_t  wl_uneven;              /* the spread was too wide at the last look: free
                                      superblocks are taken by erase count (gc/blocks.c) */
  uint8_t  wl_victim;              /* the victim is being moved for wear levelling */
  struct gc_pace pace;             /* GC pacing (gc/pacing.h) */
};

/* ---- host commands */
enum hcmd_state { HC_FREE = 0, HC_WAIT_BUF, HC_DMA_IN, HC_READING, HC_DMA_OUT, HC_FLUSHING, HC_MAP_WAIT,
                  HC_DMA_LOG /* an FDP log on its way to the host (place/fdp.h) */ };

struct hcmd {
  uint8_t  state;
  uint8_t  opcode;
  uint16_t status;
  uint32_t lba, nsect;
  uint32_t pending;                /* flash reads outstanding */
  uint32_t next;                   /* wait-queue link */
  uint32_t *sgl;                   /* SSD_MDTS_SECTORS sector buffer addresses */
  uint32_t *slot_of;               /* which write-buffer slot each sector uses (or NONE32) */
  uint32_t *unreadable;            /* reads: [SSD_MDTS_SECTORS / 32] sectors ECC could not
                                      correct (valid once status is SSD_ST_MEDIA_ERROR) */
  struct drain_barrier flush;      /* flush, durable write: what it waits for (write_buffer.h) */
  uint8_t  core;                   /* the core whose queue it came from (its rings, its part) */
  uint8_t  durable;                /* a write that completes only once on flash (FUA, or the
                                      write cache is off): it waits like a flush after its DMA */
  uint8_t  waited;                 /* reads: SSD_CPLI_* of the extra work it waited for */
  uint16_t map_pending;            /* reads: translation page loads it waits for */
  uint32_t trim_ver;               /* trims: the version it took (recovery/trim_log.h) */
  uint32_t cdw0;                   /* the command's cdw[0] (a zoned device's action, option, CNS) */
  uint32_t cdw1, cdw2;             /* its cdw[1], cdw[2] (a write's placement directive) */
  uint8_t  fdp_queue;              /* writes with FDP: the write-buffer queue (place/fdp.h) */
};

/* ---- flash operations in flight */
enum fop_kind { FOP_FREE = 0, FOP_HOST_READ, FOP_HOST_PROG, FOP_GC_READ, FOP_GC_PROG, FOP_ERASE,
                FOP_MAP_READ, FOP_MAP_PROG, FOP_PREFETCH, FOP_RECOVERY_READ, FOP_TRIM_LOG_PROG,
                FOP_BBT_READ /* the factory scan's (media/bad_blocks.h) */,
                FOP_MODE_ERASE /* a dynamic SLC cache's borrow (place/slc_cache.h) */,
                FOP_OC_READ, FOP_OC_PROG, FOP_OC_RESET, FOP_OC_SCAN /* an Open-Channel device's
                                                                      (ocssd/oc_device.h) */,
                FOP_ZNS_READ, FOP_ZNS_PROG, FOP_ZNS_ERASE /* a zoned device's (zns/zns_device.h) */,
                FOP_ZNS_DUMP /* its power-loss dump and its reading at power-on (zns/zns_power.c) */,
                FOP_KINDS };

struct fop {
  uint8_t  kind;
  uint8_t  reason;                 /* SSD_FRSN_*: from the kind (fop_alloc); GC sets migration
                                      and wear levelling (gc/gc.c) */
  uint16_t host_slot;              /* FOP_HOST_READ; FOP_HOST_PROG: the core whose part it writes */
  uint32_t die;
  uint32_t ppa;                    /* first sector (programs: of the superpage) */
  uint32_t nsect;
  uint32_t next_free;
  uint32_t gc_index;               /* FOP_GC_READ: first GC buffer entry it fills;
                                      FOP_GC_PROG: the victim's pool;
                                      FOP_MAP_READ: the load it serves;
                                      FOP_HOST_READ: the command's first sector it reads;
                                      FOP_PREFETCH: the die queue it came from;
                                      FOP_RECOVERY_READ: its GC buffer entry */
  uint32_t prog_id;                /* FOP_HOST_PROG: its write-buffer program id */
  uint32_t flags;                  /* programs: the descriptor's SSD_FDF_* (a retry repeats them) */
  uint32_t *sgl;                   /* programs: unit sector addresses */
  struct ssd_oob *oob;             /* programs: unit OOB entries */
  uint32_t *slots;                 /* programs: write-buffer slot of each sector (NONE32 pad);
                                      FOP_MAP_PROG: mapping-cache slot of each page */
};

/* ---- read buffers: 4 KiB slots in DRAM (the write buffer: buffer/write_buffer.h) */
struct rbuf {
  uint32_t nslots, base_addr;
  uint32_t *free_list;
  uint32_t free_count;
};

/* ---- demand-based mapping (map/demand_map.c, map/dirty_entries.c, map/cache_adapt.c) */
#define TP_ENTRIES   (SECTOR_BYTES / 4u)   /* mapping entries in a translation page */
#define MAP_BIT      0x80000000u           /* reverse map / OOB: the sector holds translation
                                              page (value & ~MAP_BIT), not host data */
#define REG_CLEAN    0u                    /* cache regions: clean pages (dftl: every page) */
#define REG_DIRTY    1u                    /*   dirty pages (part, part-sched) */
#define REG_BATCH    2u                    /*   images of batch updates (writeopt) */
#define MAP_BATCH_BUFS 8u

enum tps_state { TPS_FREE = 0, TPS_LOADING, TPS_CLEAN, TPS_DIRTY, TPS_WRITING };

struct tp_slot {
  uint32_t tp;
  uint8_t  state;                  /* TPS_* */
  uint8_t  region;                 /* REG_* whose quota it uses */
  uint8_t  pinned;                 /* writeopt: a batch update programs it in place */
  uint8_t  rsvd;
  uint32_t prev, next;             /* LRU of its region (resident slots), NONE32 ends */
};

struct cache_region {
  uint32_t cap, count;             /* quota and slots using it (resident, loading, writing) */
  uint32_t writing;                /* of which written back (freed when the program is done) */
  uint32_t lru_head, lru_tail;     /* head = most recently used */
  uint32_t wait_head, wait_tail;   /* loads waiting for a slot in this region */
};

enum load_state { LD_FREE = 0, LD_WAIT_WRITE, LD_WAIT_SLOT, LD_WAIT_SUBMIT, LD_READING, LD_READY };
enum load_kind { LK_PAGE = 0, LK_BATCH };

struct map_load {
  uint32_t tp;
  uint8_t  state, region, kind, flags;   /* LD_*, REG_*, LK_*, SSD_CPLI_* met on the way */
  uint32_t slot;
  uint32_t wfirst, wlast;          /* waiters to resume when it is in */
  uint32_t next;                   /* region wait list / ready list / free list */
};

enum waiter_kind { WK_READ = 1, WK_UPDATE, WK_TRIM };
struct map_waiter {
  uint8_t  kind, rsvd[3];
  uint32_t next;
  uint32_t lpa, ppa, cond;         /* WK_UPDATE: set lpa to ppa (if it is at cond);
                                      WK_TRIM: unmap ppa sectors from lpa */
  uint32_t cookie;                 /* WK_READ, WK_TRIM: host slot; WK_UPDATE: write-buffer slot;
                                      NONE32: nobody to tell */
};

struct dirty_entry {
  uint32_t lpa, ppa;
  uint32_t next;                   /* next entry of the same translation page; bit 31: the
                                      page's old value for lpa is not yet invalidated */
};

struct dmap {
  uint32_t n_tp;
  uint32_t *gtd;                   /* [n_tp] where each translation page is (NONE32: never
                                      written: every entry unmapped) */
  uint32_t *tp_where;              /* [n_tp] slot holding it: resident, loading or writing */
  uint32_t *tp_load;               /* [n_tp] load record in progress, NONE32 */
  uint8_t  *tp_writing;            /* [n_tp] a program of it is in flight */
  uint32_t nslots, slot_base;      /* cache slots and the DRAM address of slot 0's page */
  struct tp_slot *slot;
  uint32_t *free_slots, nfree;
  struct cache_region reg[3];
  struct map_load *load;
  uint32_t nloads, load_free, ready_head, ready_tail, submit_wait;
  struct map_waiter *w;
  uint32_t nwaiters, w_free;
  uint32_t upd_waiters;            /* map updates queued, not yet applied */
  uint32_t upd_limit;              /* more than this: no new programs (flow control) */
  uint32_t upd_head, upd_tail;     /* writeopt: updates waiting for dirty-entry space */
  uint32_t *wq;                    /* slots waiting to be programmed */
  uint32_t wq_size, wq_head, wq_count;
  uint32_t next_map_die;           /* round robin of translation page programs */
  uint32_t tp_reserve;             /* free superblocks a die keeps from translation pages (1
                                      while recovery rewrites them: GC has not run yet) */
  /* writeopt dirty entries */
  struct dirty_entry *e;
  uint32_t e_cap, e_used, e_free;
  uint32_t e_high;                 /* entries allowed (adaptive moves it) */
  uint32_t e_start;                /* batch updates start from this many */
  uint32_t *e_hash, e_hash_mask;   /* lpa -> entry index, open addressing */
  uint32_t *tp_ehead;              /* [n_tp] first dirty entry of the page */
  uint16_t *tp_ecount;             /* [n_tp] dirty entries of the page */
  uint32_t *b_next, *b_prev, *b_head, b_max;   /* pages bucketed by dirty-entry count */
  uint32_t batches_inflight;
  /* adaptive split (map/cache_adapt.c) */
  uint32_t win_accesses, win_read_miss, win_write_cost;
  int32_t  pid_integral, pid_prev_err;
  uint32_t clean_permille, budget_bytes;
};

/* Where a queue's last walk over the pools (buffer/write_buffer.c, pick_pool) stopped at a pool
 * whose die had its programs queued: from next_host_pool `from`, `skip` pools passed over, at
 * pool_epoch `epoch`.  The next walk from the same place at the same epoch starts there. */
struct pool_walk {
  uint32_t epoch, from, skip;
};

struct ftl {
  /* cores (core/fw_core.h) */
  volatile uint32_t lock;          /* the firmware lock: 0 free, 1 held */
  volatile uint32_t long_hold;     /* its holder keeps it long (fw_long_hold) */
  volatile uint32_t lock_waiters;  /* bit per core asleep until the lock is released */
  struct fw_core *cur;             /* the core holding it */
  uint32_t ncores;
  uint32_t progress;               /* bumped by passes that completed flash work or started a
                                      flush (what may unblock another core's writer) */
  uint8_t  background_parked;      /* after preconditioning until the host's next command:
                                      GC, drains and timers wait (core/precondition.c) */
  struct fw_core *core[SSD_MAX_CORES];
  const struct device_ops *dev;    /* the device interface's event-loop hooks (core/device_ops.h) */
  struct oc_device *oc;            /* an Open-Channel device's state (ocssd/oc_device.h), else 0 */
  struct zns_device *zns;          /* a zoned device's state (zns/zns_device.h), else 0 */

  struct ssd_fw_config cfg;
  struct ftl_geo geo;
  struct fw_heap heap;
  struct ssd_fw_stats *stats;

  /* mapping */
  uint8_t  demand;                 /* ftl.mapping is demand-based (map in translation pages) */
  uint32_t host_reserve;           /* free superblocks per die host data may not take */
  struct dmap dm;
  struct trim_log tl;              /* trims made to hold across power loss */
  struct bad_blocks bb;            /* bad-block table, read-only mode (media/bad_blocks.h) */
  struct program_retry pr;         /* failed programs to write again (media/program_retry.h) */
  struct erase_log elog;           /* erase counts kept in the NOR (wear/erase_log.h) */
  struct power_fail pf;            /* power-loss protection (recovery/power_fail.h) */
  uint32_t *l2p;                   /* opt: logical sector -> physical sector */
  uint32_t *p2l;                   /* physical sector -> logical sector, or MAP_BIT | translation
                                      page (NONE32: not valid): GC's valid-page table */
  uint32_t *sb_valid;              /* valid sectors per superblock */
  uint8_t  *sb_state;
  uint32_t *sb_next;               /* free-list link */
  uint32_t *sb_erases;             /* erases per superblock (recovered: wear/erase_log.h) */
  uint32_t *sb_closed_seq;         /* when the superblock was filled (FIFO / cost-benefit age) */
  uint16_t *sb_progs_inflight;     /* programs submitted, not completed: never a GC victim */
  uint8_t  *sb_map;                /* holds translation pages (a translation block) */
  uint8_t  *sb_stream;             /* the stream (enum stream) that opened it */
  uint16_t *sb_owner;              /* the pool it belongs to (sb_pool) */
  uint32_t *sb_min_ver;            /* smallest OOB version programmed there since its erase
                                      (NONE32: none; recovery/trim_log.h) */
  struct pool_state *pool;         /* [pools] */
  struct victim_index vix;         /* greedy GC's victims (gc/victim_index.h) */
  uint32_t *die_progs;             /* [dies] write-buffer programs queued on the die */
  uint16_t *die_ops;               /* [dies] flash operations of any kind in flight on the die */
  struct place pl;                 /* SLC/MLC placement (place/placement.h) */
  uint32_t *next_host_pool;        /* [WBUF_QUEUES] round robin of host superpages, per buffer queue */
  uint32_t *gc_pools;              /* pools that are cleaning or below gc_low_blocks */
  uint32_t gc_npools;
  uint32_t *gc_parked_bits;        /* bit i: the pool at gc_pools[i] is parked */
  uint32_t space_epoch;            /* bumped whenever a superblock is freed */
  uint32_t free_superblocks;       /* free superblocks of every pool (blocks.c keeps it) */
  uint32_t *blocked_epoch;         /* [WBUF_QUEUES] space_epoch when no pool of the queue could
                                      take host data */
  uint32_t pool_epoch;             /* bumped by whatever can let a pool take host data that
                                      pick_pool passed over (pool_may_take_more) */
  struct pool_walk *walk;          /* [WBUF_QUEUES] where each queue's last pick stopped */
  uint32_t write_seq;              /* sectors programmed (host, GC, padding, map): the clock of
                                      superblock ages (sb_closed_seq) */
  uint32_t version_seq;            /* the OOB sequence number (next_version): a host sector's
                                      version, taken when the write buffer takes it; a padding
                                      sector's or translation page's when programmed.  A GC copy
                                      carries its source's plus one (copy_version), or a new one
                                      plus one once that count is used up (gc.c) */

  /* buffers */
  struct wbuf wb;
  struct rbuf rb;
  struct readahead ra;             /* read cache and read-ahead (readahead/readahead.h) */
  uint32_t zero_sector_addr;       /* a zeroed sector: unmapped reads and padding */
  /* GC buffers: per pool, two halves of one superpage each (gather one, program the other) */
  uint32_t *gc_sgl;                /* [pool][2][unit] sector buffer addresses */
  uint32_t *gc_src_ppa;            /* [pool][2][unit] where each sector came from */
  uint32_t *gc_lpa;                /* [pool][2][unit] its LPA (from the reverse map) */
  struct ssd_oob *gc_oob;          /* [pool][2][unit] OOB read with the sector */
  uint32_t *gc_taken;              /* [pool][gc_taken_words] victim sectors already gathered
                                      (grouped gathering only, else NULL) */
  uint32_t gc_taken_words;

  /* host commands (the table itself is at the end of the struct) */
  uint32_t writes_waiting;                     /* commands in the cores' write wait lists */
  uint32_t wait_read_head, wait_read_tail;     /* reads waiting for read buffers */
  uint32_t flush_waiters;                      /* flush commands waiting */
  uint32_t reads_active;                       /* host reads started, data not yet sent */
  uint32_t trim_head;                          /* trims waiting for their map updates */
  uint32_t precond_idle_passes;                /* drain passes without work (a stuck firmware) */
  uint32_t flush_head;                         /* list of waiting flush commands */
  uint32_t flushes_draining;                   /* of which still draining the buffer */
  uint32_t prog_next;              /* id of the next write-buffer program */
  uint32_t prog_oldest;            /* every program with a smaller id has completed */
  uint8_t  *prog_done;             /* [FOP_MAX] completion flags by id % FOP_MAX */

  /* flash operations (the table itself is at the end of the struct) */
  uint32_t fop_free;
  uint32_t fops_inflight;

  /* Large tables last, so that the fields above sit at small offsets (one instruction to
   * reach on RV32 instead of three). */
  struct hcmd hc[SSD_HOST_SLOTS];
  struct fop fop[FOP_MAX];
  const struct flash_owner *flash_owner[FOP_KINDS];   /* by kind (core/flash_port.h) */
  const struct host_owner *host_owner;               /* host commands (core/host_port.h) */

};

/* OOB versions (recovery/recovery.h): new versions step by 4; the two low bits count how many
 * times GC copied that version (at most 3), so after a power loss a copy beats the original
 * it was made from (the victim may not have been erased yet) and any newer write beats both.
 * With the page map a fourth copy takes a new version plus one instead while no newer write
 * of its sector exists (gc_copy_version, gc/gc.c): at 3 it would tie with its source. */
#define VERSION_STEP 4u
/* Versions are 32 bits and all ones is erased flash's OOB: past this the scan could no longer
 * order them (2^30 versions since the format: 4 TiB written, less what trims, padding and
 * GC's renewed copies take): the firmware halts with that
 * reason instead of ever recovering an older version (versions_exhausted, recovery.c). */
#define VERSION_LIMIT (0xFFFFFFFFu - 64u * VERSION_STEP)
void versions_exhausted(struct ftl *f);
static inline uint32_t next_version(struct ftl *f) {
  if (f->version_seq >= VERSION_LIMIT) versions_exhausted(f);
  return f->version_seq += VERSION_STEP;
}
static inline uint32_t copy_version(uint32_t seq) { return (seq & (VERSION_STEP - 1u)) == VERSION_STEP - 1u ? seq : seq + 1u; }

/* Something that can make a pool take host data it could not take before happened: a free
 * superblock, a stream's superblock opened, GC's pace or victim changed (struct pool_walk). */
static inline void pool_may_take_more(struct ftl *f) { f->pool_epoch++; }

/* heap.c */
void *fw_alloc(struct ftl *f, uint32_t bytes, uint32_t align);

/* Every module's entry points. */
void fw_main(void);                                 /* core 0: boot, then the event loop; never returns */
void secondary_main(void);                          /* the other cores: wait for core 0, then the loop */
int  ftl_poll(struct ftl *f);                       /* one pass; returns work done */
int  ftl_background_steps(struct ftl *f);           /* its background steps (GC, ...) */

/* map + blocks (map/page_map.c, gc/blocks.c) */
void map_init(struct ftl *f);
void map_invalidate(struct ftl *f, uint32_t ppa);
void map_set(struct ftl *f, uint32_t lpa, uint32_t ppa);
void map_set_in(struct ftl *f, uint32_t *l2p, uint32_t lpa, uint32_t ppa);
/* The mapping seen by everyone, whichever scheme:
 * map_lookup: the physical sector of lpa, NONE32 if unmapped, MAP_MISS if its translation
 *   page is not in DRAM (demand-based: map_load_for_read starts or joins its load);
 * map_update: points lpa at ppa (NONE32: trim), only if it is at cond (cond = NONE32: always);
 *   returns 1 if done now, 0 if queued: then wbuf_map_applied(cookie) follows when it is done
 *   (cookie = write-buffer slot, NONE32: no callback). */
#define MAP_MISS 0xFFFFFFFEu
uint32_t map_lookup(struct ftl *f, uint32_t lpa, int count_stats);
int  map_update(struct ftl *f, uint32_t lpa, uint32_t ppa, uint32_t cond, uint32_t cookie);
/* A hint that lpa's page-map entry is wanted soon (a GC copy's update, preconditioning's next
 * overwrites): on a large drive each random update otherwise waits for memory.  No effect on
 * what the FTL does; nothing on a core without prefetch instructions (RV32 without Zicbop). */
static inline void map_prefetch(const struct ftl *f, uint32_t lpa) {
  if (!f->demand) __builtin_prefetch(&f->l2p[lpa], 1);
}
/* ... and the reverse-map entry of where lpa is now (read from the page map, which
 * map_prefetch asked for earlier), invalidated when lpa is written again. */
static inline void map_prefetch_old(const struct ftl *f, uint32_t lpa) {
  if (f->demand) return;
  const uint32_t old = f->l2p[lpa];
  if (old != NONE32) __builtin_prefetch(&f->p2l[old], 1);
}
#include "map/demand_map.h"   /* demand-based mapping: dmap_*, dent_*, adapt_* */
static inline uint32_t ppa_sb(const struct ftl *f, uint32_t ppa) { return ppa / f->geo.sb_sectors; }
static inline uint32_t sb_die(const struct ftl *f, uint32_t sb) { return sb / f->geo.blocks; }
/* The pool superblock sb belongs to now. */
static inline uint32_t sb_pool(const struct ftl *f, uint32_t sb) { return f->sb_owner[sb]; }
/* The pool sb leaves the factory in, and returns to: a pSLC cache's first blocks of each die
 * are its SLC-mode pool's, the rest its native pool's (a dynamic SLC cache lends them). */
static inline uint32_t sb_home_pool(const struct ftl *f, uint32_t sb) {
  const struct ftl_geo *g = &f->geo;
  const uint32_t die = sb / g->blocks;
  return g->pools > g->dies && sb % g->blocks < g->pslc_blocks ? g->dies + die : die;
}
/* A pool's superblocks, in order: for (sb = pool_sb_first(f, p); sb != NONE32;
 * sb = pool_sb_next(f, p, sb)). */
static inline uint32_t pool_sb_next(const struct ftl *f, uint32_t pool, uint32_t sb) {
  const struct pool_state *ps = &f->pool[pool];
  for (sb = sb == NONE32 ? ps->span_first : sb + 1u; sb < ps->span_first + ps->span; sb++)
    if (f->sb_owner[sb] == pool) return sb;
  return NONE32;
}
static inline uint32_t pool_sb_first(const struct ftl *f, uint32_t pool) { return pool_sb_next(f, pool, NONE32); }
/* GC operations are queued on the die now: a read sent there waits behind them. */
static inline int pool_gc_busy(const struct pool_state *ps) {
  return ps->gc_pending_reads || ps->gc_progs_inflight || ps->erase_inflight;
}
static inline int die_gc_busy(const struct ftl *f, uint32_t die) {
  return pool_gc_busy(&f->pool[die]) || (f->geo.pools > f->geo.dies && pool_gc_busy(&f->pool[f->geo.dies + die]));
}
#include "gc/blocks.h"   /* superblocks: free lists, open superblocks, state setters */
#include "place/queues.h"   /* the write buffer's queues: placement regions or FDP handles */

/* flash submission (core/flash_queue.c) */
uint32_t fop_alloc(struct ftl *f, uint8_t kind);
void fop_release(struct ftl *f, uint32_t tag);
int  flash_can_submit(struct ftl *f);
uint32_t flash_ring_space(struct ftl *f, uint32_t want);  /* free submission entries */
void flash_submit(struct ftl *f, uint32_t tag, uint8_t opcode, uint32_t ppa, uint32_t nsect,
                  uint32_t dram_addr, uint32_t oob_addr, uint32_t flags);
int  flash_poll(struct ftl *f);
void flash_commit(struct ftl *f);

/* host interface (core/host_queue.c) */
void hif_dma(struct ftl *f, uint16_t slot, uint8_t dir, uint8_t flags, uint32_t nsect,
             uint32_t dram_addr, uint16_t status, uint32_t cookie);
/* ... with the sectors' metadata (SSD_DMAF_META: nsect struct ssd_oob at meta_addr) */
void hif_dma_meta(struct ftl *f, uint16_t slot, uint8_t dir, uint8_t flags, uint32_t nsect,
                  uint32_t dram_addr, uint32_t meta_addr, uint16_t status, uint32_t cookie);
int  hif_poll_done(struct ftl *f, struct fw_core *c);   /* c's DMA done entries */
int  hif_poll_cmds(struct ftl *f);
void hif_commit(struct ftl *f);                     /* rings the doorbells of every core's DMA ring posted to */

/* host commands (core/host_cmd.c) */
void hcmd_init(struct ftl *f);   /* owns host commands (core/host_port.h) and host reads' flash completions */
int  hcmd_retry_waiting(struct ftl *f);
int  hcmd_flushes_done(struct ftl *f);   /* the flushes whose data is on flash complete */
void hcmd_complete(struct ftl *f, uint16_t slot, uint16_t status);
/* ... with a command-specific result (SSD_DMAF_RESULT: NVMe's completion dwords 0 and 1). */
void hif_complete_result(struct ftl *f, uint16_t slot, uint16_t status, uint64_t result);
void hcmd_map_ready(struct ftl *f, uint16_t slot);   /* a read's translation pages are in */
void hcmd_trim_done(struct ftl *f, uint16_t slot);   /* one part of a trim is in the map */
int  hcmd_trim_pending(const struct ftl *f, uint32_t lpa);   /* in a trim not yet in the map */
/* A read-cache sector a host read waited for has landed (status: SSD_FST_*). */
void hcmd_sector_ready(struct ftl *f, uint16_t slot, uint32_t sector, uint16_t status);

/* write buffer (buffer/write_buffer.h) */
static inline uint32_t wbuf_slot_addr(const struct ftl *f, uint32_t slot) {
  return f->wb.base_addr + slot * SECTOR_BYTES;
}

/* read buffers (buffer/read_buffer.c) */
void rbuf_init(struct ftl *f);
int  rbuf_alloc(struct ftl *f, uint32_t n, uint32_t *addrs);
void rbuf_free(struct ftl *f, uint32_t addr);

#include "gc/gc.h"   /* garbage collection: gc_* */

/* preconditioning (core/precondition.c) */
void precondition_run(struct ftl *f, uint16_t slot, const struct ssd_host_cmd *cmd);

#endif /* SSDVP_FTL_H */
