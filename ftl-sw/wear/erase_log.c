/* The erase-count log in the SPI NOR: see erase_log.h. */
#include "core/ftl.h"
#include "hal/hal.h"
#include "media/nor.h"

#define LEVEL_MAX 4093u
#define REC_NATIVE 4094u   /* a record's level field: the superblock's mode from now on */
#define REC_SLC    4095u
#define TABLE_SLC  0x8000u /* a table entry's SLC-mode bit */
#define EMPTY 0xFFFFFFFFu

#define SECTOR_WORDS (SSD_NOR_SECTOR_BYTES / 4u)

static uint32_t bank_addr(const struct erase_log *l, uint32_t bank, uint32_t word) {
  return l->bank_base[bank] + word * 4u;
}

/* Erases the other bank's next stale sector (waiting for an erase still running). */
static void erase_next_stale(struct erase_log *l) {
  nor_erase_sector(bank_addr(l, l->active ^ 1u, l->stale_sector * SECTOR_WORDS));
  if (++l->stale_sector == l->bank_words / SECTOR_WORDS) l->stale_sector = NONE32;
}

static uint32_t level_of(const struct ftl *f, uint32_t sb) {
  const uint32_t v = f->sb_erases[sb] / f->elog.step;
  return v > LEVEL_MAX ? LEVEL_MAX : v;
}

static void raise_to(struct ftl *f, uint32_t sb, uint32_t level) {
  if (sb < f->geo.superblocks && level * f->elog.step > f->sb_erases[sb]) f->sb_erases[sb] = level * f->elog.step;
}

/* The mode a table entry or record gives sb: a block a dynamic SLC cache may lend (one of
 * its die's native blocks) belongs to the die's SLC-mode pool while in SLC mode.  The free
 * lists are regrouped once the log is read (blocks_regroup). */
static void set_mode(struct ftl *f, uint32_t sb, int slc) {
  const struct ftl_geo *g = &f->geo;
  if (sb >= g->superblocks || !slc_cache_dynamic(f) || sb_home_pool(f, sb) >= g->dies) return;
  f->sb_owner[sb] = (uint16_t)(slc ? g->dies + sb / g->blocks : sb / g->blocks);
}

/* A table entry: the level, and SLC mode for a borrowed superblock. */
static uint32_t table_entry(const struct ftl *f, uint32_t sb) {
  if (sb >= f->geo.superblocks) return 0;
  return level_of(f, sb) | (sb_home_pool(f, sb) != sb_pool(f, sb) ? TABLE_SLC : 0u);
}

void erase_log_init(struct ftl *f) {
  struct erase_log *l = &f->elog;
  const uint32_t nor_bytes = f->bb.nor_bytes;   /* checked against the geometry by bbt_init */
  l->bank_base[0] = nor_log_bank_offset(nor_bytes, 0);
  l->bank_base[1] = nor_log_bank_offset(nor_bytes, 1);
  l->bank_words = nor_log_bank_words(nor_bytes);
  l->table_words = nor_log_table_words(f->geo.superblocks);
  l->step = f->cfg.wear_record_step ? f->cfg.wear_record_step : 1u;
  l->active = 0;
  l->generation = 0;
  l->next_word = 1u + l->table_words;
  l->stale_sector = NONE32;
}

/* Starts erasing the other bank's next stale sector if the NOR is free (a record's time). */
static void erase_in_background(struct erase_log *l) {
  if (l->stale_sector != NONE32 && !nor_busy()) erase_next_stale(l);
}

/* Rewrites every level into the other bank, which becomes the active one. */
static void compact(struct ftl *f) {
  struct erase_log *l = &f->elog;
  const uint32_t other = l->active ^ 1u;
  while (l->stale_sector != NONE32) erase_next_stale(l);   /* the rest, each waiting for the last */
  for (uint32_t w = 0; w < l->table_words; w++) {
    const uint32_t sb = 2u * w;
    const uint32_t lo = table_entry(f, sb), hi = table_entry(f, sb + 1u);
    const uint32_t v = ~(lo | hi << 16);
    if (v != EMPTY) nor_program(bank_addr(l, other, 1u + w), v);
  }
  nor_program(bank_addr(l, other, 0), l->generation + 1u);   /* last: the bank is complete */
  l->active = other;
  l->generation++;
  l->next_word = 1u + l->table_words;
  l->stale_sector = 0;                                       /* the old bank goes next */
  f->stats->erase_log_compactions++;
}

void erase_log_format(struct ftl *f) {
  struct erase_log *l = &f->elog;
  for (uint32_t b = 0; b < 2u; b++)   /* a part that held another drive's log: start clean */
    if (nor_read(bank_addr(l, b, 0)) != EMPTY)
      for (uint32_t w = 0; w < l->bank_words; w += SECTOR_WORDS) nor_erase_sector(bank_addr(l, b, w));
  l->active = 0;
  l->generation = 1;
  nor_program(bank_addr(l, 0, 0), l->generation);
  l->next_word = 1u + l->table_words;
  l->stale_sector = NONE32;
}

void erase_log_load(struct ftl *f) {
  struct erase_log *l = &f->elog;
  const uint32_t h0 = nor_read(bank_addr(l, 0, 0)), h1 = nor_read(bank_addr(l, 1, 0));
  if (h0 == EMPTY && h1 == EMPTY) {   /* formatted before the log existed: counts from zero */
    hal_puts("fw: no erase-count log in the NOR: erase counts start from zero\n");
    erase_log_format(f);
    return;
  }
  l->active = h1 != EMPTY && (h0 == EMPTY || h1 > h0) ? 1u : 0u;
  l->generation = l->active ? h1 : h0;
  for (uint32_t w = 0; w < l->table_words; w++) {
    const uint32_t v = ~nor_read(bank_addr(l, l->active, 1u + w));
    for (uint32_t h = 0; h < 2u; h++) {
      const uint32_t e = v >> (16u * h) & 0xFFFFu;
      raise_to(f, 2u * w + h, e & 0xFFFu);
      set_mode(f, 2u * w + h, (e & TABLE_SLC) != 0);
    }
  }
  uint32_t w = 1u + l->table_words;
  for (; w < l->bank_words; w++) {
    const uint32_t v = nor_read(bank_addr(l, l->active, w));
    if (v == EMPTY) break;
    const uint32_t level = v & 0xFFFu;
    if (level >= REC_NATIVE) set_mode(f, v >> 12, level == REC_SLC);
    else raise_to(f, v >> 12, level);
  }
  l->next_word = w;
  l->stale_sector = 0;   /* whatever the other bank holds is older: erase it as records go */
}

/* Appends a record, or compacts a full bank (its table has what the record would say). */
static void append(struct ftl *f, uint32_t record) {
  struct erase_log *l = &f->elog;
  if (l->next_word == l->bank_words) {
    compact(f);
    return;
  }
  nor_program(bank_addr(l, l->active, l->next_word++), record);
  f->stats->erase_log_records++;
  erase_in_background(l);
}

void erase_log_erased(struct ftl *f, uint32_t sb) {
  if (f->sb_erases[sb] % f->elog.step) return;
  append(f, sb << 12 | level_of(f, sb));
}

void erase_log_mode(struct ftl *f, uint32_t sb, int slc) {
  append(f, sb << 12 | (slc ? REC_SLC : REC_NATIVE));
}
