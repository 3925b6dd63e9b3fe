/* The SPI NOR (regs.h) as the firmware uses it: four quarters, and the word accesses.
 *   [0, N/4)       bad-block table: a bit per superblock, 1 = good (media/bad_blocks.h)
 *   [N/4, N/2)     erase-count log, bank 0 (wear/erase_log.h)
 *   [N/2, 3N/4)    factory bad-block table: the same bits for those bad from the factory
 *   [3N/4, N)      erase-count log, bank 1
 * A bank is a header word, a table of two bytes per superblock and the log's records; it
 * needs room for NOR_LOG_MIN_RECORDS records beside the table.  The platform checks a
 * configuration against nor_fits() before it builds anything (device.nor_kib), the firmware
 * again at boot.
 * Leaves out: a second copy of the tables (a real drive mirrors them or keeps them in the
 * NAND's system area too). */
#ifndef SSDVP_MEDIA_NOR_H
#define SSDVP_MEDIA_NOR_H

#include <stdint.h>

#define NOR_LOG_MIN_RECORDS 256u

static inline uint32_t nor_bbt_offset(uint32_t nor_bytes) { (void)nor_bytes; return 0u; }
static inline uint32_t nor_factory_offset(uint32_t nor_bytes) { return nor_bytes / 2u; }
static inline uint32_t nor_log_bank_offset(uint32_t nor_bytes, uint32_t bank) {
  return bank ? nor_bytes / 4u * 3u : nor_bytes / 4u;
}
static inline uint32_t nor_log_bank_words(uint32_t nor_bytes) { return nor_bytes / 16u; }
/* Words of a bank's table: two bytes per superblock. */
static inline uint32_t nor_log_table_words(uint32_t superblocks) { return (superblocks + 1u) / 2u; }

/* Whether a NOR of nor_bytes holds the tables of `superblocks` superblocks. */
static inline int nor_fits(uint32_t nor_bytes, uint32_t superblocks) {
  return nor_bytes >= 65536u &&   /* a bank is at least one 4 KiB erase sector */
         superblocks < 0xFFFFFu &&   /* a log record holds 20 bits of superblock */
         superblocks <= nor_bytes / 4u * 8u &&
         1u + nor_log_table_words(superblocks) + NOR_LOG_MIN_RECORDS <= nor_log_bank_words(nor_bytes);
}

#ifndef __cplusplus
/* Word accesses (nor.c).  nor_erase_sector starts an erase and returns; nor_busy says whether
 * one is still running (any other access waits for it). */
uint32_t nor_size(void);
uint32_t nor_read(uint32_t byte_addr);
void nor_program(uint32_t byte_addr, uint32_t value);
void nor_erase_sector(uint32_t byte_addr);
int nor_busy(void);
#endif

#endif /* SSDVP_MEDIA_NOR_H */
