/* LAPT counters and their O(1) rank (see lapt.h). */
#include "place/lapt.h"

void lapt_init(struct lapt *t, int8_t *value, uint32_t logical_sectors, uint32_t block_sectors) {
  t->block_sectors = block_sectors;
  t->nblocks = (logical_sectors + block_sectors - 1u) / block_sectors;
  t->value = value;
  for (uint32_t b = 0; b < t->nblocks; b++) value[b] = 0;
  /* Every counter is 0: nblocks of them are greater than any v < 0, none than v >= 0. */
  for (int v = LAPT_MIN; v <= LAPT_MAX; v++) t->above[v - LAPT_MIN] = v < 0 ? t->nblocks : 0u;
}

void lapt_note_write(struct lapt *t, uint32_t lpa) {
  const uint32_t b = lapt_block_of(t, lpa);
  const int v = t->value[b];
  if (v == LAPT_MAX) return;
  t->above[v - LAPT_MIN]++;       /* the block is now > v */
  t->value[b] = (int8_t)(v + 1);
}

void lapt_note_read(struct lapt *t, uint32_t lpa) {
  const uint32_t b = lapt_block_of(t, lpa);
  const int v = t->value[b];
  if (v == LAPT_MIN) return;
  t->above[v - 1 - LAPT_MIN]--;   /* the block is no longer > v - 1 */
  t->value[b] = (int8_t)(v - 1);
}
