/* DRAM heap: a bump allocator over the region the platform gives the firmware.
 * Everything is allocated once at boot ("no malloc after init"); running out is fatal and
 * reported to the platform with the number of bytes asked for.  Allocations read as zeros.
 * Where the platform says its DRAM was initialized to zeros at power-on
 * (ssd_fw_config.dram_zeroed), memory the heap has not handed out before is not cleared
 * again: the firmware's buffers that a run never touches then cost the host no memory, and
 * the ISS does not store every byte of them at boot.  Memory handed out again (a recovery
 * scan's, freed by rewinding `used`) is cleared. */
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
  const uint32_t off = f->heap.used + pad;
  f->heap.used = off + bytes;
  uint8_t *p = (uint8_t *)hal_dram_ptr(f->heap.base + off);
  const uint32_t used_before = f->heap.zero_from > off ? f->heap.zero_from - off : 0u;
  const uint32_t clear = used_before < bytes ? used_before : bytes;
  for (uint32_t i = 0; i < clear; i++) p[i] = 0;
  if (f->heap.used > f->heap.zero_from) f->heap.zero_from = f->heap.used;
  return p;
}
