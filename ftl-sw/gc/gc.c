/* Garbage collection, per pool (a die's blocks of one cell mode, ftl.h): when a pool's free
 * superblocks fall below gc_low_blocks, pick a victim (greedy: fewest valid sectors; FIFO:
 * oldest; cost-benefit: Rosenblum's age*(1-u)/(2u)), copy its valid sectors a superpage at a
 * time into the pool's GC superblock (read, then program; the map moves only if the host did
 * not overwrite meanwhile), erase it, and keep going until gc_high_blocks are free.  Host
 * reads and writes interleave with GC operations in the die's queue.  Translation blocks
 * (demand-based mapping) are victims like data blocks: their pages (MAP_BIT in the reverse
 * map) move to the pool's translation-page superblock and the GTD follows; moved data
 * updates the map through the mapping cache (conditionally: only if the host did not write
 * the sector meanwhile), and the victim is erased once every update has been applied.
 * With SLC/MLC placement (place/placement.h) an SLC pool's victims (an SLC die's, or a die's
 * SLC-mode blocks in a pSLC cache) are taken oldest first (FIFO, whatever ftl.gc_policy says)
 * and their valid sectors migrate to MLC pools' migration superblocks, on any die, the same
 * one included (the copy waits while no MLC pool has space), or, when the policy keeps them
 * (combo), into the pool's own GC superblock; MLC pools clean inside themselves.  With combo's
 * unit-mapped MLC (place/unit_map.h) an MLC victim's data goes back into its unit's open
 * superblock, a unit at its quota hands its pool a victim that is cleaned first, and SLC GC
 * gathers a victim's data one unit at a time (passes over the victim, gc_taken marking what
 * was read) since a superpage holds one unit's data.  Pools
 * marked for idle-time migration (place/idle_migration.h) clean up to its target while the
 * host is idle and issue nothing once a host command has stopped them; slc-direct's SLC
 * pools are cleaned only then (and to retire a bad superblock), never on demand.
 * Bad blocks (media/bad_blocks.h): a superblock whose program failed is its pool's next
 * victim whatever it holds and is retired instead of erased; a failed erase retires the victim.
 * Static wear levelling (wear/static_wl.h): a pool whose erase counts spread too far takes its
 * least-erased full superblock as a victim once nothing more urgent is to be done.
 * Leaves out: copyback (no data over the channel). */
#include "gc/gc.h"
#include "core/ftl.h"
#include "hal/hal.h"

/* A superblock of the pool waiting to be retired that GC can take now (its programs done,
 * its data fits the room there is), NONE32 if none. */
static uint32_t pick_retiring(const struct ftl *f, uint32_t pool, uint32_t room, uint32_t map_room) {
  for (uint32_t sb = pool_sb_first(f, pool); sb != NONE32; sb = pool_sb_next(f, pool, sb))
    if (f->bb.retiring[sb] && f->sb_state[sb] == SB_FULL && !f->sb_progs_inflight[sb] &&
        f->sb_valid[sb] <= (f->sb_map[sb] ? map_room : room))
      return sb;
  return NONE32;
}

/* The scan: every superblock of the pool, the best score first (ties: the lowest number). */
static uint32_t scan_victim(const struct ftl *f, uint32_t pool, uint32_t policy, uint32_t room, uint32_t map_room) {
  const struct pool_state *ps = &f->pool[pool];
  const int slc = place_slc_pool(f, pool);
  const uint32_t capacity = ps->sb_capacity;
  uint32_t best = NONE32;
  uint64_t best_score = 0;
  for (uint32_t sb = pool_sb_first(f, pool); sb != NONE32; sb = pool_sb_next(f, pool, sb)) {
    if (f->sb_state[sb] != SB_FULL || f->sb_progs_inflight[sb]) continue;
    uint32_t valid = f->sb_valid[sb];
    if (valid >= capacity && !slc) continue;   /* nothing to gain (SLC data may move on) */
    if (valid > (f->sb_map[sb] ? map_room : room)) continue;
    uint64_t score;
    switch (policy) {
      case SSD_GC_FIFO: score = (uint64_t)(f->write_seq - f->sb_closed_seq[sb]) + 1u; break;
      case SSD_GC_COST_BENEFIT: {
        uint64_t age = (uint64_t)(f->write_seq - f->sb_closed_seq[sb]) + 1u;
        uint64_t invalid = capacity - valid;
        score = (age * invalid * 1024u) / (2u * (uint64_t)valid + 1u);
        break;
      }
      default: score = capacity - valid; break;
    }
    if (score > best_score) { best_score = score; best = sb; }
  }
  return best;
}

/* ftl.gc_check_victims: the index's pick against the scan's; a difference is a firmware bug
 * (a change of a superblock that did not reach victim_index_touch). */
static void check_index_pick(const struct ftl *f, uint32_t pool, uint32_t picked) {
  const uint32_t scanned = scan_victim(f, pool, SSD_GC_GREEDY, NONE32, NONE32);
  if (picked == scanned) return;
  hal_puts("fw: GC victim index disagrees with the scan: ");
  hal_put_u32("pool", pool);
  hal_put_u32("index", picked);
  hal_put_u32("scan", scanned);
  if (picked != NONE32) hal_put_u32("index_valid", f->sb_valid[picked]);
  if (scanned != NONE32) hal_put_u32("scan_valid", f->sb_valid[scanned]);
  hal_puts("\n");
  hal_halt(0x6C300000u | (pool & 0xFFFFu));
}

uint32_t gc_pick_victim(const struct ftl *f, uint32_t pool) {
  const struct ftl_geo *g = &f->geo;
  const struct pool_state *ps = &f->pool[pool];
  const int slc = place_slc_pool(f, pool);
  const uint32_t policy = slc ? SSD_GC_FIFO : f->cfg.gc_policy;
  /* No free superblock left (GC took the reserve for a victim it did not finish: after a power
   * loss): only a victim whose valid data fits the open GC (or translation) superblock can be
   * cleaned. */
  const uint32_t room = ps->free_count || ps->migrates_out ? NONE32   /* its data leaves for MLC */
                        : ps->gc_sb == NONE32 ? 0u : (ps->pages - ps->gc_page) * g->unit;
  const uint32_t map_room = ps->free_count ? NONE32 : ps->map_sb == NONE32 ? 0u : (ps->pages - ps->map_page) * g->unit;
  if (ps->retiring) {   /* a superblock whose program failed goes first, whatever it holds */
    const uint32_t sb = pick_retiring(f, pool, room, map_room);
    if (sb != NONE32) return sb;
  }
  if (policy == SSD_GC_GREEDY && ps->free_count) {   /* unconstrained greedy: the index's root */
    const uint32_t sb = victim_index_best(f, pool);
    if (sb != NONE32) f->stats->gc_index_picks++;
    if (f->cfg.gc_check_victims) {
      check_index_pick(f, pool, sb);
      f->stats->gc_index_checks++;
    }
    return sb;
  }
  return scan_victim(f, pool, policy, room, map_room);
}

/* Every GC flash operation: those of a pool cleaning for idle migration after a host command
 * stopped it are counted (they must not happen: gc_step pauses such a pool). */
static void note_gc_op(struct ftl *f, const struct pool_state *ps) {
  if (ps->idle_gc && !idle_migration_running(&f->pl.idle)) f->stats->idle_ops_while_stopped++;
}

static uint32_t gc_index(const struct ftl *f, uint32_t pool, uint32_t half, uint32_t k) {
  return (pool * 2u + half) * f->geo.unit + k;
}

/* Grouped gathering (a victim whose data migrates into a region that groups data): one pass
 * over the victim takes the sectors of one group; sectors of other groups wait for a later
 * pass, which starts at the first of them.  Returns 1 if `ppa` is taken in this pass. */
static int gc_take_in_group(struct ftl *f, uint32_t pool, uint32_t ppa, uint32_t off) {
  struct pool_state *ps = &f->pool[pool];
  uint32_t *taken = f->gc_taken + pool * f->gc_taken_words;
  if (taken[off / 32u] >> (off % 32u) & 1u) return 0;
  const uint32_t group = place_group_of(f, REGION_MLC, f->p2l[ppa]);
  if (ps->gc_group == NONE32) ps->gc_group = group;
  if (group != ps->gc_group) {
    if (ps->gc_rescan == NONE32) ps->gc_rescan = off;
    return 0;
  }
  taken[off / 32u] |= 1u << (off % 32u);
  return 1;
}

/* The victim has been looked at to the end (every pass of a grouped gathering included). */
static int victim_scanned(const struct pool_state *ps) {
  return ps->victim_cursor == ps->sb_capacity && ps->gc_rescan == NONE32;
}

/* Why GC moves the victim's data (the descriptors' reason): wear levelling, migration of an
 * SLC victim's data to MLC, or plain cleaning. */
static uint8_t gc_copy_reason(const struct ftl *f, uint32_t pool, const struct pool_state *ps) {
  if (ps->wl_victim) return SSD_FRSN_WEAR;
  if (!f->sb_map[ps->victim] && place_gc_migrates(f, pool, ps->victim)) return SSD_FRSN_MIGRATE;
  return SSD_FRSN_GC;
}

/* Reads valid sectors of the victim into the gathering half; returns work done. */
static int gc_issue_reads(struct ftl *f, uint32_t pool) {
  struct pool_state *ps = &f->pool[pool];
  const struct ftl_geo *g = &f->geo;
  int n = 0;
  uint32_t half = ps->gc_half;
  if (ps->gc_half_busy[half]) return 0;
  const int grouped = place_gc_groups(f, pool, ps->victim);
  if (grouped && ps->victim_cursor == ps->sb_capacity && ps->gc_rescan != NONE32 && ps->gc_gathered == 0 &&
      ps->gc_pending_reads == 0) {                 /* this pass's group is out: the next one */
    ps->victim_cursor = ps->gc_rescan;
    ps->gc_rescan = ps->gc_group = NONE32;
  }
  while (ps->victim_cursor < ps->sb_capacity && ps->gc_gathered + ps->gc_pending_reads < g->unit &&
         flash_can_submit(f)) {
    uint32_t ppa = ps->victim * g->sb_sectors + ps->victim_cursor;
    ps->victim_cursor++;
    if (f->p2l[ppa] == NONE32) continue;
    if (grouped && !gc_take_in_group(f, pool, ppa, ps->victim_cursor - 1u)) continue;
    uint32_t k = ps->gc_gathered + ps->gc_pending_reads;
    uint32_t first = gc_index(f, pool, half, k);
    uint32_t tag = fop_alloc(f, FOP_GC_READ);
    f->fop[tag].reason = gc_copy_reason(f, pool, ps);
    uint32_t nsect = 1;
    f->gc_src_ppa[first] = ppa;
    f->gc_lpa[first] = f->p2l[ppa];
    map_prefetch(f, f->gc_lpa[first]);   /* updated when the copy is programmed */
    /* Take the following valid sectors of the same page and plane in the same read. */
    while (k + nsect < g->unit && ps->victim_cursor < ps->sb_capacity &&
           (ppa + nsect) % g->spp != 0 && f->p2l[ppa + nsect] != NONE32 &&
           (!grouped || gc_take_in_group(f, pool, ppa + nsect, ps->victim_cursor))) {
      f->gc_src_ppa[first + nsect] = ppa + nsect;
      f->gc_lpa[first + nsect] = f->p2l[ppa + nsect];
      nsect++;
      ps->victim_cursor++;
    }
    ps->gc_pending_reads += nsect;
    note_gc_op(f, ps);
    f->fop[tag].gc_index = first;
    flash_submit(f, tag, SSD_FOP_READ, ppa, nsect, hal_dram_addr(&f->gc_sgl[first]),
                 hal_dram_addr(&f->gc_oob[first]), SSD_FDF_SGL | (f->sb_map[ps->victim] ? SSD_FDF_PAYLOAD : 0u));
    n++;
  }
  return n;
}

/* The OOB version of the copy of GC buffer entry i.  A copy keeps its source's version plus a
 * copy count (copy_version): a newer write of the sector made while the copy was under way must
 * still win when the OOB is scanned after a power loss, and the copy must beat its source,
 * whose victim may not be erased yet.  Once the count is used up (a fourth copy: cold data in
 * a full drive is copied over and over) the copy would tie with its source, and the scan keeps
 * whichever it finds last: the victim GC was cleaning when the power failed comes back with
 * the sectors it had already copied still valid in it while their copies are invalid, and a
 * pool that GC had left without a free superblock (gc_pick_victim) may then have no victim
 * whose data fits its open GC superblock, ever: no GC, no host data, no migration into it, and
 * the other pools run full.  So such a copy takes a new version (plus one: still recognisably
 * a copy, recovery.c) when no newer version of its sector exists yet: its source is still the
 * mapping, no newer write is in the write buffer (its index holds a write until it is mapped),
 * no trim waits for the map.  Writes that follow take newer versions still.  Otherwise the
 * copy keeps the count (it loses to that newer write anyway once it is on flash).
 * Only with the page map: a demand-based map may hold a sector's newest mapping in a dirty
 * entry or a page not in DRAM, with its old location still valid for GC until the page is
 * loaded, so there a renewed copy could beat a newer write; its copies keep the count (and
 * translation pages are written afresh by recovery anyway). */
static uint32_t gc_copy_version(struct ftl *f, uint32_t i) {
  const uint32_t seq = f->gc_oob[i].seq, lpa = f->gc_lpa[i], copy = copy_version(seq);
  if (copy != seq || f->demand || f->l2p[lpa] != f->gc_src_ppa[i] || wbuf_lookup(f, lpa) != NONE32 ||
      hcmd_trim_pending(f, lpa))
    return copy;
  return next_version(f) + 1u;
}

static int gc_issue_program(struct ftl *f, uint32_t pool) {
  struct pool_state *ps = &f->pool[pool];
  const struct ftl_geo *g = &f->geo;
  int victim_drained = ps->victim_cursor == ps->sb_capacity && ps->gc_pending_reads == 0;   /* (or this pass) */
  if (ps->gc_gathered == 0 || ps->gc_pending_reads) return 0;
  if (ps->gc_gathered < g->unit && !victim_drained) return 0;
  if (!flash_can_submit(f)) return 0;
  if (f->demand && f->dm.upd_waiters >= f->dm.upd_limit) return 0;   /* map updates behind */
  const int map = f->sb_map[ps->victim];
  const int migrate = !map && place_gc_migrates(f, pool, ps->victim);
  uint32_t half = ps->gc_half;
  uint32_t dst;
  if (map) {
    dst = blocks_next_superpage_spill(f, pool, STREAM_MAP_GC);
    if (dst == NONE32) {
      hal_puts("fw: GC found no free translation superblock\n");
      hal_halt(0x6C000000u | pool);
      return 0;
    }
  } else {
    /* Cold data moved for wear levelling goes to its own worn superblock while the pool can
     * spare one beyond GC's reserve, else with GC's copies. */
    dst = ps->wl_victim && (ps->wl_sb != NONE32 || ps->free_count > GC_RESERVE)
              ? blocks_next_superpage(f, pool, STREAM_WEAR) : NONE32;
    if (dst == NONE32) dst = place_gc_destination(f, pool, ps->victim, f->gc_lpa[gc_index(f, pool, half, 0)], migrate);
    if (dst == NONE32) return 0;   /* no MLC space for migrated data yet: MLC GC runs first */
  }
  uint32_t tag = fop_alloc(f, FOP_GC_PROG);
  struct fop *op = &f->fop[tag];
  op->reason = gc_copy_reason(f, pool, ps);
  for (uint32_t k = 0; k < g->unit; k++) {
    uint32_t i = gc_index(f, pool, half, k);
    op->slots[k] = k;
    f->write_seq++;
    if (k < ps->gc_gathered) {
      op->sgl[k] = f->gc_sgl[i];
      op->oob[k].lpa = f->gc_lpa[i];
      op->oob[k].seq = gc_copy_version(f, i);
    } else {
      op->oob[k].seq = next_version(f);
      op->sgl[k] = f->zero_sector_addr;
      op->oob[k].lpa = NONE32;
      f->stats->pad_sectors++;
    }
  }
  op->host_slot = (uint16_t)(half | (ps->gc_gathered << 1));
  op->gc_index = pool;              /* the victim's pool (the program may be on another) */
  f->stats->flash_prog_sectors += g->unit;
  f->stats->gc_prog_sectors += ps->gc_gathered;
  gc_pace_copied(f, pool, ps->gc_gathered);
  if (ps->wl_victim) f->stats->wear_level_sectors += ps->gc_gathered;
  if (migrate) {
    f->stats->migrated_sectors += ps->gc_gathered;
    if (ps->idle_gc) f->stats->idle_migrated_sectors += ps->gc_gathered;
  } else if (!map && place_slc_pool(f, pool)) {
    f->stats->slc_kept_sectors += ps->gc_gathered;
    place_gc_copied(f, ps->victim, dst);
  }
  hal_cost(HAL_COST_GC_SECTOR, ps->gc_gathered);
  sb_progs_inc(f, ppa_sb(f, dst));
  ps->gc_half_busy[half] = 1;
  ps->gc_half ^= 1u;
  ps->gc_gathered = 0;
  ps->gc_progs_inflight++;
  note_gc_op(f, ps);
  flash_submit(f, tag, SSD_FOP_PROGRAM, dst, g->unit, hal_dram_addr(op->sgl),
               hal_dram_addr(op->oob), SSD_FDF_SGL | (map ? SSD_FDF_PAYLOAD : 0u));
  return 1;
}

/* The pool's victim is erased or retired: a pace that held host data for it holds none now. */
static void victim_done(struct ftl *f, struct pool_state *ps) {
  ps->victim = NONE32;
  pool_may_take_more(f);
}

static int gc_issue_erase(struct ftl *f, uint32_t pool) {
  struct pool_state *ps = &f->pool[pool];
  if (ps->erase_inflight || !victim_scanned(ps) || ps->gc_pending_reads ||
      ps->gc_gathered || ps->gc_progs_inflight || !flash_can_submit(f))
    return 0;
  if (f->sb_valid[ps->victim] != 0) {
    if (f->demand) return 0;           /* map updates of moved sectors still queued */
    hal_puts("fw: GC victim still holds valid data\n");
    hal_halt(0x6C100000u | ps->victim);
    return 0;
  }
  if (!trim_log_erase_ok(f, ps->victim)) return 0;   /* the trim log goes to flash first */
  if (f->bb.retiring[ps->victim]) {    /* its data is out: retired, not erased */
    slc_cache_erased(f, ps->victim, 0);   /* a borrowed one at home */
    bbt_retire(f, ps->victim);
    victim_done(f, ps);
    return 1;
  }
  uint32_t tag = fop_alloc(f, FOP_ERASE);
  ps->erase_inflight = 1;
  note_gc_op(f, ps);
  flash_submit(f, tag, SSD_FOP_ERASE, ps->victim * f->geo.sb_sectors, 0, 0, 0, slc_cache_erase_flags(f, pool, ps->victim));
  return 1;
}

static void gc_start_victim(struct ftl *f, struct pool_state *ps, uint32_t v) {
  ps->victim = v;
  ps->wl_victim = 0;
  ps->victim_cursor = 0;
  ps->gc_group = ps->gc_rescan = NONE32;
  sb_set_state(f, v, SB_VICTIM);
  gc_pace_victim(f, sb_pool(f, v), v);
  if (place_slc_pool(f, sb_pool(f, v))) place_slc_gc_starts(f);
  if (f->gc_taken) {
    uint32_t *taken = f->gc_taken + sb_pool(f, v) * f->gc_taken_words;
    for (uint32_t i = 0; i < f->gc_taken_words; i++) taken[i] = 0;
  }
}

/* Parking: a listed pool that has nothing to issue until one of its own flash operations
 * completes (the two waits in gc_step) is parked, and gc_step passes it over at the cost of one
 * test, or returns at once when every listed pool is parked: the event loop calls gc_step on
 * every pass, a drive has a pool per die, and on the ISS those visits were a third of a host
 * write's instructions.  The parked pools are bits over the list's positions, so gc_step
 * finds the next unparked pool in list order (the order pools issue in) a word at a time.
 * Its completions (gc_read_done, gc_program_done, gc_erase_done, gc_erase_failed) and idle
 * migration's start (gc_watch) wake it.  A parked pool's visit would have changed nothing: its
 * idle_gc is clear (idle migration sets it through gc_watch), it has a victim, and what it
 * waits for changes only in its own completions. */
static void gc_park(struct ftl *f, struct pool_state *ps) {
  ps->gc_parked = 1;
  f->gc_parked_bits[ps->gc_pos / 32u] |= 1u << (ps->gc_pos % 32u);
}

static void gc_wake(struct ftl *f, struct pool_state *ps) {
  if (!ps->gc_parked) return;
  ps->gc_parked = 0;
  f->gc_parked_bits[ps->gc_pos / 32u] &= ~(1u << (ps->gc_pos % 32u));
}

/* The index of x's lowest set bit (x != 0), by de Bruijn multiplication: RV32IMAC has no
 * count-trailing-zeros instruction, and __builtin_ctz would call libgcc. */
static uint32_t lowest_bit(uint32_t x) {
  static const uint8_t pos[32] = {0,  1,  28, 2,  29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4,  8,
                                  31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6,  11, 5,  10, 9};
  return pos[((x & (0u - x)) * 0x077CB531u) >> 27];
}

/* The first list position at or after i whose pool is not parked; gc_npools if none. */
static uint32_t next_unparked(const struct ftl *f, uint32_t i) {
  while (i < f->gc_npools) {
    const uint32_t word = f->gc_parked_bits[i / 32u] | ((1u << (i % 32u)) - 1u);   /* below i: passed */
    if (word != 0xFFFFFFFFu) {
      const uint32_t j = (i & ~31u) + lowest_bit(~word);
      return j < f->gc_npools ? j : f->gc_npools;
    }
    i = (i & ~31u) + 32u;
  }
  return f->gc_npools;
}

/* The pool at list position i leaves the list (it is not parked: it has no victim); the last
 * one takes its place, parked or not. */
static void gc_unlist(struct ftl *f, uint32_t i) {
  const uint32_t last = --f->gc_npools;
  const uint32_t moved = f->gc_pools[last];
  uint32_t *bits = f->gc_parked_bits;
  f->gc_pools[i] = moved;
  f->pool[moved].gc_pos = i;
  if (bits[last / 32u] >> (last % 32u) & 1u) bits[i / 32u] |= 1u << (i % 32u);
  else bits[i / 32u] &= ~(1u << (i % 32u));
  bits[last / 32u] &= ~(1u << (last % 32u));
}

void gc_watch(struct ftl *f, uint32_t pool) {
  struct pool_state *ps = &f->pool[pool];
  gc_wake(f, ps);
  if (ps->gc_listed) return;
  if (!ps->idle_gc && !ps->retiring && !place_cleaned_on_demand(f, pool)) return;   /* slc-direct's cache */
  ps->gc_listed = 1;
  ps->gc_pos = f->gc_npools;
  f->gc_pools[f->gc_npools++] = pool;
}

/* A pool with a victim whose reads, program and erase would all issue nothing until one of
 * its own flash operations completes: its erase is in flight; or nothing is read or gathered
 * and a program is in flight while the half to gather into is still being programmed, or the
 * victim has been read to its end (the erase waits for the programs).  Completions reach GC
 * through its owners (gc_read_done, gc_program_done, gc_erase_done), and the pool is visited
 * again on the next pass. */
static int gc_waits_for_flash(const struct pool_state *ps) {
  if (ps->erase_inflight) return 1;
  return !ps->gc_pending_reads && !ps->gc_gathered && ps->gc_progs_inflight &&
         (ps->gc_half_busy[ps->gc_half] || victim_scanned(ps));
}

/* Advances cleaning on every pool that needs it; a pool leaves the list once it has
 * gc_high_blocks free and no victim. */
int gc_step(struct ftl *f) {
  int n = 0;
  /* After `i++; continue;` the next unparked pool; after `continue;` alone (this position
   * now holds the list's last pool) this position again, unless that pool is parked. */
  for (uint32_t i = next_unparked(f, 0); i < f->gc_npools; i = next_unparked(f, i)) {
    const uint32_t pool = f->gc_pools[i];
    struct pool_state *ps = &f->pool[pool];
    if (ps->idle_gc && !idle_migration_running(&f->pl.idle)) {   /* a host command stopped it */
      const int on_demand = place_cleaned_on_demand(f, pool);
      if (ps->victim != NONE32 &&
          ((ps->free_count >= ps->gc_low && !slc_cache_over_lent(f, pool)) || !on_demand)) {
        i++;                               /* paused, its victim half cleaned */
        continue;
      }
      ps->idle_gc = 0;                     /* needed now (or nothing begun): plain GC */
      if (!on_demand && !ps->retiring) {   /* slc-direct's cache waits for the next idle period */
        ps->gc_active = 0;
        ps->gc_listed = 0;
        gc_unlist(f, i);
        continue;
      }
    }
    if (ps->victim == NONE32) {                /* an over-lent SLC cache gives back first (place/slc_cache.h) */
      const uint32_t v = slc_cache_victim(f, pool);
      if (v != NONE32) gc_start_victim(f, ps, v);
    }
    if (ps->victim == NONE32) {                /* a unit's own cleaning first (place/unit_map.h) */
      const uint32_t v = unit_take_victim(f, pool);
      if (v != NONE32) gc_start_victim(f, ps, v);
    }
    if (ps->victim == NONE32) {
      uint32_t v;
      uint32_t threshold = ps->gc_active ? ps->gc_high : ps->gc_low;
      if (ps->idle_gc && idle_target_free(f, pool) > threshold) threshold = idle_target_free(f, pool);
      const int done = ps->free_count >= threshold || !(ps->idle_gc || place_cleaned_on_demand(f, pool));
      if (done && ps->retiring) {   /* only to retire a superblock */
        v = pick_retiring(f, pool, NONE32, NONE32);
        if (v == NONE32) {                 /* its programs are still in flight */
          i++;
          continue;
        }
        gc_start_victim(f, ps, v);
      } else if (ps->wl_due && !ps->idle_gc && ps->free_count > ps->host_reserve &&
                 (v = wl_take_victim(f, pool)) != NONE32) {
        /* wear levelling (static_wl.h), in place of the next victim or when the pool is done */
        gc_start_victim(f, ps, v);
        ps->wl_victim = 1;
        f->stats->wear_level_runs++;
      } else if (done) {
        if (ps->idle_gc) {
          ps->idle_gc = 0;
          idle_pool_done(f);
        }
        ps->gc_active = 0;
        ps->gc_listed = 0;
        gc_pace_idle(f, pool);
        gc_unlist(f, i);
        continue;
      } else {
        if (!ps->idle_gc || ps->free_count < ps->gc_low) ps->gc_active = 1;   /* needed */
        v = gc_pick_victim(f, pool);
        if (v != NONE32) gc_start_victim(f, ps, v);
      }
    }
    /* A pool waiting for its reads with its gathering half busy or full has nothing to issue
     * (reads, program and erase all wait for those reads): skipped without the three calls.
     * A drive has a pool per die, and the event loop polls them all on every pass. */
    if (ps->victim != NONE32 && ps->gc_pending_reads &&
        (ps->gc_half_busy[ps->gc_half] || ps->gc_gathered + ps->gc_pending_reads >= f->geo.unit)) {
      if (!ps->idle_gc) gc_park(f, ps);
      i++;
      continue;
    }
    /* Nor a pool waiting for its own program or erase (gc_waits_for_flash): only pacing's
     * bookkeeping runs, as it would have (so with pacing such a pool is visited, not parked). */
    if (ps->victim != NONE32 && gc_waits_for_flash(ps)) {
      if (f->cfg.gc_pacing) (void)gc_pace_hold(f, pool);
      else if (!ps->idle_gc) gc_park(f, ps);
      i++;
      continue;
    }
    if (ps->victim != NONE32) {
      if (!gc_pace_hold(f, pool)) {   /* paced: copies wait for the writes to catch up */
        n += gc_issue_reads(f, pool);
        n += gc_issue_program(f, pool);
      }
      n += gc_issue_erase(f, pool);
    }
    i++;
  }
  return n;
}

static void gc_read_done(struct ftl *f, uint32_t tag, const struct flash_result *r) {
  (void)r;
  struct fop *op = &f->fop[tag];
  const uint32_t first = op->gc_index;
  const uint32_t pool = first / (2u * f->geo.unit);
  struct pool_state *ps = &f->pool[pool];
  for (uint32_t k = 0; k < op->nsect; k++) {
    if (f->gc_oob[first + k].lpa != f->gc_lpa[first + k]) {
      hal_puts("fw: GC read OOB disagrees with the reverse map\n");
      hal_halt(0x6C200000u | pool);
    }
  }
  ps->gc_gathered += op->nsect;
  ps->gc_pending_reads -= op->nsect;
  gc_wake(f, ps);
  fop_release(f, tag);
}

static void gc_program_done(struct ftl *f, uint32_t tag, const struct flash_result *r) {
  (void)r;
  struct fop *op = &f->fop[tag];
  const uint32_t vpool = op->gc_index;          /* the victim's pool */
  struct pool_state *ps = &f->pool[vpool];
  uint32_t half = op->host_slot & 1u, count = op->host_slot >> 1;
  for (uint32_t k = 0; k < count; k++) {
    uint32_t i = gc_index(f, vpool, half, k);
    uint32_t lpa = f->gc_lpa[i];
    if (lpa & MAP_BIT) {
      dmap_page_placed(f, lpa & ~MAP_BIT, op->ppa + k, f->gc_src_ppa[i]);
      f->stats->map_gc_moves++;
    } else {
      map_update(f, lpa, op->ppa + k, f->gc_src_ppa[i], NONE32);
    }
  }
  sb_progs_dec(f, ppa_sb(f, op->ppa));
  ps->gc_half_busy[half] = 0;
  ps->gc_progs_inflight--;
  gc_wake(f, ps);
  fop_release(f, tag);
}

/* The victim's erase failed: it is retired (media/bad_blocks.h). */
static void gc_erase_failed(struct ftl *f, uint32_t tag, const struct flash_result *r) {
  (void)r;
  struct pool_state *ps = &f->pool[sb_pool(f, ppa_sb(f, f->fop[tag].ppa))];
  f->stats->erase_failures++;
  f->sb_erases[ps->victim]++;
  slc_cache_erased(f, ps->victim, 0);   /* a borrowed one at home */
  bbt_retire(f, ps->victim);
  victim_done(f, ps);
  ps->erase_inflight = 0;
  gc_wake(f, ps);
  fop_release(f, tag);
}

static void gc_erase_done(struct ftl *f, uint32_t tag, const struct flash_result *r) {
  (void)r;
  struct fop *op = &f->fop[tag];
  const uint32_t pool = sb_pool(f, ppa_sb(f, op->ppa));
  struct pool_state *ps = &f->pool[pool];
  uint32_t sb = ps->victim;
  f->sb_erases[sb]++;
  erase_log_erased(f, sb);
  wl_erased(f, pool, sb);
  place_sb_erased(f, sb);
  f->stats->erases++;
  f->stats->gc_runs++;
  if (f->sb_map[sb]) f->stats->map_gc_runs++;
  if (f->pl.regions > 1) {
    if (f->pl.pool_region[pool] == REGION_SLC) f->stats->slc_gc_runs++;
    else f->stats->mlc_gc_runs++;
  }
  slc_cache_erased(f, sb, op->flags);   /* a borrowed one erased native goes home */
  blocks_put_free(f, sb);
  victim_done(f, ps);
  ps->erase_inflight = 0;
  gc_wake(f, ps);
  fop_release(f, tag);
}

void gc_dump(const struct ftl *f) {
  for (uint32_t p = 0; p < f->geo.pools; p++) {
    const struct pool_state *ps = &f->pool[p];
    uint32_t least = NONE32, bad = 0;
    for (uint32_t sb = pool_sb_first(f, p); sb != NONE32; sb = pool_sb_next(f, p, sb)) {
      if (f->sb_state[sb] == SB_BAD) bad++;
      else if (f->sb_state[sb] == SB_FULL && f->sb_valid[sb] < least) least = f->sb_valid[sb];
    }
    hal_put_u32("pool ", p);
    hal_put_u32(" free ", ps->free_count);
    hal_put_u32(" bad ", bad);
    hal_put_u32(" retiring ", ps->retiring);
    hal_put_u32(" victim ", ps->victim);
    hal_put_u32(" least_valid ", least);
    hal_put_u32(" gc_sb ", ps->gc_sb);
    hal_put_u32(" gc_page ", ps->gc_page);
    hal_put_u32(" host_sb ", ps->host_sb);
    hal_put_u32(" gathered ", ps->gc_gathered);
    hal_put_u32(" reads ", ps->gc_pending_reads);
    hal_put_u32(" progs ", ps->gc_progs_inflight);
    hal_puts("\n");
  }
  hal_put_u32("gc pools listed ", f->gc_npools);
  hal_put_u32(" retry head ", f->pr.head);
  hal_put_u32(" flash ops in flight ", f->fops_inflight);
  hal_puts("\n");
}

/* GC's flash completions (core/flash_port.h): its copies' reads and programs (a failed program
 * goes to media/program_retry.h) and its erases (a failed erase retires the superblock). */
static const struct flash_owner gc_read_owner = {SSD_FRSN_GC, 0, gc_read_done, 0};
static const struct flash_owner gc_program_owner = {SSD_FRSN_GC, SSD_FST_PROGRAM_FAIL, gc_program_done, program_failed};
static const struct flash_owner gc_erase_owner = {SSD_FRSN_GC, SSD_FST_ERASE_FAIL, gc_erase_done, gc_erase_failed};

void gc_init(struct ftl *f) {
  flash_register(f, FOP_GC_READ, &gc_read_owner);
  flash_register(f, FOP_GC_PROG, &gc_program_owner);
  flash_register(f, FOP_ERASE, &gc_erase_owner);
}
