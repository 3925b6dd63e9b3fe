/* LAPT counters, their lists and the SLC-writable top positions (see lapt.h). */
#include "place/lapt.h"

#define LAPT_NONE 0xFFFFFFFFu

static uint32_t *bucket_head(struct lapt *t, int v) { return &t->head[v - LAPT_MIN]; }
static uint32_t *bucket_tail(struct lapt *t, int v) { return &t->tail[v - LAPT_MIN]; }

/* The block after b in rank order: the next in its value's list, or the first of the next
 * lower non-empty value (LAPT_NONE: b is last). */
static uint32_t after(const struct lapt *t, uint32_t b) {
  if (t->next[b] != LAPT_NONE) return t->next[b];
  for (int v = t->value[b] - 1; v >= LAPT_MIN; v--)
    if (t->head[v - LAPT_MIN] != LAPT_NONE) return t->head[v - LAPT_MIN];
  return LAPT_NONE;
}

/* The block before b in rank order (LAPT_NONE: b is first). */
static uint32_t before(const struct lapt *t, uint32_t b) {
  if (t->prev[b] != LAPT_NONE) return t->prev[b];
  for (int v = t->value[b] + 1; v <= LAPT_MAX; v++)
    if (t->tail[v - LAPT_MIN] != LAPT_NONE) return t->tail[v - LAPT_MIN];
  return LAPT_NONE;
}

static void unlink_block(struct lapt *t, uint32_t b) {
  const int v = t->value[b];
  if (t->prev[b] != LAPT_NONE) t->next[t->prev[b]] = t->next[b];
  else *bucket_head(t, v) = t->next[b];
  if (t->next[b] != LAPT_NONE) t->prev[t->next[b]] = t->prev[b];
  else *bucket_tail(t, v) = t->prev[b];
}

/* Into its value's list: first (recent first) or last (oldest first). */
static void link_block(struct lapt *t, uint32_t b) {
  const int v = t->value[b];
  uint32_t *head = bucket_head(t, v), *tail = bucket_tail(t, v);
  if (t->tie == LAPT_TIE_RECENT_FIRST) {
    t->prev[b] = LAPT_NONE;
    t->next[b] = *head;
    if (*head != LAPT_NONE) t->prev[*head] = b;
    else *tail = b;
    *head = b;
  } else {
    t->next[b] = LAPT_NONE;
    t->prev[b] = *tail;
    if (*tail != LAPT_NONE) t->next[*tail] = b;
    else *head = b;
    *tail = b;
  }
}

void lapt_init(struct lapt *t, void *mem, uint32_t logical_sectors, uint32_t block_sectors, uint32_t top_n,
               uint32_t tie) {
  t->block_sectors = block_sectors;
  t->nblocks = (logical_sectors + block_sectors - 1u) / block_sectors;
  t->top_n = top_n;
  t->tie = tie;
  const uint32_t n = t->nblocks, aligned = (n + 3u) & ~3u;
  uint8_t *p = mem;
  t->value = (int8_t *)p;
  t->in_top = p + aligned;
  t->next = (uint32_t *)(void *)(p + 2u * aligned);
  t->prev = t->next + n;
  for (int v = 0; v < LAPT_VALUES; v++) t->head[v] = t->tail[v] = LAPT_NONE;
  for (uint32_t b = 0; b < n; b++) {
    t->value[b] = 0;
    t->in_top[b] = b < top_n;
    t->next[b] = b + 1 < n ? b + 1 : LAPT_NONE;
    t->prev[b] = b ? b - 1 : LAPT_NONE;
  }
  if (n) {
    *bucket_head(t, 0) = 0;
    *bucket_tail(t, 0) = n - 1;
  }
  t->last_in = top_n == 0 || n == 0 ? LAPT_NONE : (top_n < n ? top_n : n) - 1u;
}

/* Block b's counter becomes v: it leaves its place in the order and takes its new one, and
 * the top positions follow: if b held one, the block after the last member takes it while b
 * is away; back in the order, b takes the last member's place if it now ranks before it. */
static void move_block(struct lapt *t, uint32_t b, int v) {
  const int full = t->top_n >= t->nblocks;   /* every block is in the top: nothing moves across */
  if (!full && t->last_in != LAPT_NONE && t->in_top[b]) {
    const uint32_t fill = after(t, t->last_in == b ? b : t->last_in);
    t->in_top[b] = 0;
    t->in_top[fill] = 1;
    t->last_in = fill;
  }
  unlink_block(t, b);
  t->value[b] = (int8_t)v;
  link_block(t, b);
  if (full || t->last_in == LAPT_NONE || t->in_top[b]) return;
  const uint32_t last = t->last_in;
  const int ahead = v > t->value[last] || (v == t->value[last] && t->tie == LAPT_TIE_RECENT_FIRST);
  if (!ahead) return;
  t->in_top[b] = 1;
  t->in_top[last] = 0;
  t->last_in = before(t, last);
}

void lapt_note_write(struct lapt *t, uint32_t lpa) {
  const uint32_t b = lapt_block_of(t, lpa);
  if (t->value[b] < LAPT_MAX) move_block(t, b, t->value[b] + 1);
}

void lapt_note_read(struct lapt *t, uint32_t lpa) {
  const uint32_t b = lapt_block_of(t, lpa);
  if (t->value[b] > LAPT_MIN) move_block(t, b, t->value[b] - 1);
}

uint32_t lapt_position(const struct lapt *t, uint32_t block) {
  uint32_t pos = 0;
  for (int v = LAPT_MAX; v >= LAPT_MIN; v--)
    for (uint32_t b = t->head[v - LAPT_MIN]; b != LAPT_NONE; b = t->next[b], pos++)
      if (b == block) return pos;
  return LAPT_NONE;
}
