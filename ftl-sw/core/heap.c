/* DRAM heap: a bump allocator over the region the platform gives the firmware.
 * Everything is allocated once at boot ("no malloc after init"); running out is fatal and
 * reported to the platform with the number of bytes asked for. */
#include "core/ftl.h"
#include "hal/hal.h"

#define FW_HALT_OUT_OF_DRAM 0xD0000000u

void *fw_alloc(struct ftl *f, uint32_t bytes, uint32_t align) {
  /* In offsets from the heap's base: with the largest DRAM (3 GiB from 0x4000_0000) the heap
   * ends at 2^32, which an end address would wrap to 0. */
  const uint32_t pad = (0u - (f->heap.base + f->heap.used)) & (align - 1u);
  const uint32_t left = f->heap.size - f->heap.used;
  if (pad > left || bytes > left - pad) {
    hal_puts("fw: out of DRAM heap\n");
    hal_halt(FW_HALT_OUT_OF_DRAM | (bytes >> 12));
    for (;;) hal_sleep();
  }
  const uint32_t start = f->heap.base + f->heap.used + pad;
  f->heap.used += pad + bytes;
  uint8_t *p = (uint8_t *)hal_dram_ptr(start);
  for (uint32_t i = 0; i < bytes; i++) p[i] = 0;
  return p;
}
