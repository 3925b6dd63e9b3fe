/* DRAM heap: a bump allocator over the region the platform gives the firmware.
 * Everything is allocated once at boot ("no malloc after init"); running out is fatal and
 * reported to the platform with the number of bytes asked for. */
#include "core/ftl.h"
#include "hal/hal.h"

#define FW_HALT_OUT_OF_DRAM 0xD0000000u

void *fw_alloc(struct ftl *f, uint32_t bytes, uint32_t align) {
  uint32_t start = (f->heap.base + f->heap.used + align - 1u) & ~(align - 1u);
  uint32_t end = start + bytes;
  if (end < start || end > f->heap.base + f->heap.size) {
    hal_puts("fw: out of DRAM heap\n");
    hal_halt(FW_HALT_OUT_OF_DRAM | (bytes >> 12));
    for (;;) hal_sleep();
  }
  f->heap.used = end - f->heap.base;
  uint8_t *p = (uint8_t *)hal_dram_ptr(start);
  for (uint32_t i = 0; i < bytes; i++) p[i] = 0;
  return p;
}
