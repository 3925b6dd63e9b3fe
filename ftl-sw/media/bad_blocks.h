/* Bad-block management: which superblocks the FTL never uses again, and the drive going
 * read-only when too few are left (docs/reliability.md, "Bad blocks").
 *
 * The unit of retirement is the superblock (the same block on every plane of a die, ftl.h):
 * a bad block on any plane takes its superblock out.  The table is the superblock state
 * SB_BAD in DRAM and, persisted, a bit per superblock in the controller's SPI NOR (media/nor.h;
 * 1 = good, so a new part means every block good and marking one bad is a single program
 * that only clears a bit).
 *   - Factory bad blocks: when the drive is formatted, the first page of every block of every
 *     plane is read for the bad-block marker (a spare area that is not all ones), in the
 *     controller's functional mode (the factory's format: no simulated time).
 *   - A program failure (media/program_retry.h) makes the superblock *retiring*: it leaves its
 *     stream, GC takes it as its pool's next victim whatever its valid count, moves the valid
 *     data out, and retires it instead of erasing it (the trim log goes to flash first, as
 *     before an erase: recovery skips a retired superblock as if it were erased).
 *   - An erase failure retires the superblock at once (gc/gc.c).
 * Retiring writes the NOR bit before the superblock is out of use.  At power-on a used drive
 * reads the table from the NOR before its recovery scan, which skips bad superblocks.
 * Read-only: when the good superblocks hold less than the logical space plus, per pool,
 * gc_low_blocks + 1 superblocks (what GC needs to keep cleaning), the drive refuses writes
 * and trims (SSD_ST_WRITE_PROTECTED) and keeps serving reads; data already acknowledged still
 * goes to flash.  (Failures faster than GC restores its reserve, or piling up on some dies,
 * can still leave a pool without a free superblock before that: preconditioning then halts
 * naming every pool's state.)
 * Leaves out: remapping a bad plane's block to a spare on the same plane (a whole superblock
 * goes), a mirrored table, wear of the NOR. */
#ifndef SSDVP_MEDIA_BAD_BLOCKS_H
#define SSDVP_MEDIA_BAD_BLOCKS_H

#include <stdint.h>

struct ftl;

struct bad_blocks {
  uint8_t  *retiring;              /* [superblocks] a program failed there: retire after GC */
  uint8_t  read_only;
  uint32_t nor_bytes;              /* the NOR's size: its layout (media/nor.h) */
};

/* After blocks_init: the table's DRAM part, every superblock good. */
void bbt_init(struct ftl *f);
/* A new drive: the factory scan, its result into the NOR. */
void bbt_format(struct ftl *f);
/* A used drive, before the recovery scan: the table from the NOR. */
void bbt_load(struct ftl *f);
/* A program failed in sb: it leaves its stream and waits for GC to move its data out. */
void bbt_program_failed(struct ftl *f, uint32_t sb);
/* sb goes out of use for good (GC moved its data out, or its erase failed). */
void bbt_retire(struct ftl *f, uint32_t sb);
/* The table in the NOR itself, for a device that keeps no superblock state of the FTL's (an
 * Open-Channel device's offline chunks: ocssd/oc_device.h): superblock sb marked bad (and
 * bad from the factory); the 32 bits of the table's word holding sb (1 = bad). */
void bbt_nor_mark_bad(uint32_t nor_bytes, uint32_t sb, int factory);
uint32_t bbt_nor_bad_word(uint32_t nor_bytes, int factory, uint32_t sb);
/* A factory scan read completed (flash_queue.c's completion switch). */
static inline int bbt_read_only(const struct bad_blocks *b) { return b->read_only; }

#endif /* SSDVP_MEDIA_BAD_BLOCKS_H */
