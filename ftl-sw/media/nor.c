/* The SPI NOR's word accesses: see nor.h. */
#include "media/nor.h"
#include "hal/hal.h"

uint32_t nor_size(void) { return hal_read32(SSD_NOR_BASE + NOR_SIZE); }

uint32_t nor_read(uint32_t byte_addr) {
  hal_write32(SSD_NOR_BASE + NOR_ADDR, byte_addr);
  return hal_read32(SSD_NOR_BASE + NOR_DATA);
}

void nor_program(uint32_t byte_addr, uint32_t value) {
  hal_write32(SSD_NOR_BASE + NOR_ADDR, byte_addr);
  hal_write32(SSD_NOR_BASE + NOR_PROGRAM, value);
}

void nor_erase_sector(uint32_t byte_addr) {
  hal_write32(SSD_NOR_BASE + NOR_ADDR, byte_addr);
  hal_write32(SSD_NOR_BASE + NOR_ERASE, 1u);
}

int nor_busy(void) { return (hal_read32(SSD_NOR_BASE + NOR_STATUS) & NOR_STATUS_BUSY) != 0; }
