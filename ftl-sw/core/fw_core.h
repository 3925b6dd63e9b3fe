/* The firmware on several cores: what each core owns, what they share, and the lock.
 *
 * One image runs on every core (firmware.cores).  Core 0 boots: it lays out every table in
 * DRAM, every core's rings included, then wakes the others (SSD_IRQ_IPI) with the firmware
 * state's address in a mailbox message.
 *
 * Per core (struct fw_core): the rings of its register banks — the host commands of the
 * submission queues it serves (queue q: core q mod cores), its host DMA descriptors and their
 * done entries, its flash submission and completion rings — its part of the write buffer
 * with that part's writer (buffer/write_buffer.h: a core's host writes enter its own part,
 * and only it drains that part to flash), the writes waiting for space in that part, and its
 * compare timer.  A flash operation completes on the core that submitted it, so a part's
 * programs complete on the part's core; a host DMA completes on the core whose ring it was
 * posted to, which is always the command's own core.
 *
 * Shared: the map, GC and blocks, placement, read buffers and the read cache, the flash
 * operation and host command tables, reads, flushes and trims waiting.
 *
 * Concurrency: one lock, a test-and-set lock on AMOs (amoswap, amoor; no LR/SC, whose
 * reservation the ISS cannot keep across cores that run in turns), held for a whole pass of
 * a core's event loop; a waiter spins a few turns, then sleeps until the holder's release
 * sends it an IPI.  Holding it a core may act on any shared state and post DMA on any
 * core's ring (e.g. finish another core's read when the translation page it waited for
 * arrives on this core): the rings only say where completions and interrupts go.  A core
 * that sleeps is woken by its own interrupts, or by an IPI from a core whose pass made
 * progress (a flash completion, a flush) while the sleeper had work it could not do then
 * (a whole superpage buffered, writes waiting, a flush draining its part); at most one such
 * IPI per sleep.
 * Leaves out: finer locks: firmware work is serialised by the lock, so cores add buffers,
 * writers and interrupt delivery, not computing power (docs/multicore.md measures it). */
#ifndef SSDVP_CORE_FW_CORE_H
#define SSDVP_CORE_FW_CORE_H

#include <stdint.h>
#include "hal/regs.h"
#include "buffer/write_buffer.h"
#include "core/timer.h"

struct ftl;

struct ring_pos {
  uint32_t head, tail, size, phase;
  uint32_t reported;               /* consumer index last written to the producer */
};

/* Tells the producer how far the consumer got, once a quarter of the ring is consumed. */
static inline int ring_report_due(struct ring_pos *p) {
  if (p->head - p->reported < p->size / 4u) return 0;
  p->reported = p->head;
  return 1;
}

struct fw_core {
  uint32_t id;
  uint32_t hif, fctl;              /* this core's register banks */
  struct ssd_host_cmd *cmd_ring;   struct ring_pos cmd_pos;
  volatile uint32_t *cmd_tail;     /* the HIF's shadow of HIF_CMD_TAIL */
  struct ssd_hif_dma *dma_ring;    struct ring_pos dma_pos;
  struct ssd_hif_done *done_ring;  struct ring_pos done_pos;
  struct ssd_flash_desc *fsub;     struct ring_pos fsub_pos;
  struct ssd_flash_cpl *fcpl;      struct ring_pos fcpl_pos;
  uint8_t  fsub_dirty, dma_dirty;
  uint8_t  done_irq_all;           /* HIF_DONE_IRQ_ALL as last written */
  uint8_t  asleep;                 /* between its last pass and its next wake-up */
  uint32_t seen_progress;          /* f->progress when it last looked or was woken */
  uint32_t wait_write_head, wait_write_tail;   /* writes waiting for space in its part */
  struct wbuf_part wb;             /* its part of the write buffer */
  struct fw_timer timer;           /* its compare timer's users */
  struct ssd_core_stats *stats;    /* f->stats->core[id] */
};

/* The lock (core/fw_core.c). */
void fw_lock(struct ftl *f, struct fw_core *me);
void fw_unlock(struct ftl *f);
/* The lock holder will keep it a long time (on) / is done (off: the others are woken):
 * waiting cores sleep meanwhile instead of spinning. */
void fw_long_hold(struct ftl *f, int on);
/* End of a pass that did work: wake the sleeping cores it may have given work. */
void fw_wake_others(struct ftl *f);
/* A core has work only it can do (its part to drain, its writes to retry). */
int  fw_core_has_work(const struct ftl *f, const struct fw_core *c);

#endif /* SSDVP_CORE_FW_CORE_H */
