/* The erase counts of the superblocks, kept across power loss in the SPI NOR (media/nor.h),
 * so that wear levelling (static_wl.h) still knows after a power cut which blocks are worn.
 *
 * The counts live in DRAM (ftl.sb_erases); a superblock's count goes to the NOR every
 * ftl.wear_record_step erases as a record: one word, superblock << 12 | count / step (the
 * "level", at most 4093).  The log also keeps the cell mode of the superblocks a dynamic SLC
 * cache lends (place/slc_cache.h): a record whose level field is 4094 says "native" from
 * then on, 4095 "SLC mode"; the latest record of a superblock wins.  Records are appended to the active one of two banks; a full bank
 * is compacted into the other: its sectors erased (in the background, while the active bank
 * fills), a table of every superblock's level written (two bytes each, stored inverted so that
 * an erased table reads level 0 and native mode; bit 15 is SLC mode), then the bank's header
 * (its generation) last.  A level only
 * grows, so at power-on the counts are the largest level found: the table of the bank with the
 * highest generation whose header is written, then its records; a cut during a compaction
 * leaves that bank without a header and the old one in charge.  A recovered count is at most
 * step - 1 erases low.
 * Leaves out: wear of the NOR itself (a bank is erased once per compaction), levels past
 * 4093 (a count saturates at 4093 x step in the NOR, not in DRAM). */
#ifndef SSDVP_WEAR_ERASE_LOG_H
#define SSDVP_WEAR_ERASE_LOG_H

#include <stdint.h>

struct ftl;

struct erase_log {
  uint32_t bank_base[2];      /* the banks' NOR byte addresses (media/nor.h) */
  uint32_t bank_words, table_words;
  uint32_t active;            /* the bank records go to */
  uint32_t generation;        /* its header */
  uint32_t next_word;         /* the next record's word in it */
  uint32_t stale_sector;      /* the other bank's next sector to erase (NONE32: all erased) */
  uint32_t step;              /* erases per level */
};

/* After bbt_init (which checks the NOR holds the tables): the layout. */
void erase_log_init(struct ftl *f);
/* A new drive: bank 0 becomes the active bank, every count 0. */
void erase_log_format(struct ftl *f);
/* A used drive, before the recovery scan: the counts from the NOR (and the modes of a dynamic
 * SLC cache's superblocks: the FTL regroups its free lists after, blocks_regroup). */
void erase_log_load(struct ftl *f);
/* sb's count went up by one erase (gc.c): a record if it reached a step. */
void erase_log_erased(struct ftl *f, uint32_t sb);
/* sb of a dynamic SLC cache is in SLC mode (slc = 1) or native from now on: a record. */
void erase_log_mode(struct ftl *f, uint32_t sb, int slc);

#endif /* SSDVP_WEAR_ERASE_LOG_H */
