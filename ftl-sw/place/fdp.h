/* Flexible Data Placement (NVMe TP 4146; docs/fdp.md) on the conventional FTL: the host names
 * where a write's data goes with a placement identifier, and data written under different
 * identifiers never shares a superblock.
 *
 * Models: reclaim groups (the dies split into ftl.fdp.reclaim_groups consecutive sets) and
 * reclaim unit handles (ftl.fdp.handles).  A placement identifier (PID) names a group (its
 * upper RGIF bits) and a handle; each (group, handle) has its own queue in the write buffer
 * (buffer/write_buffer.h) and, on every die of its group, its own open superblock (its own
 * stream, gc/blocks.h: STREAM_FDP_HOST + handle), so a superpage, and so a superblock, holds one
 * handle's data.  A reclaim unit (RU) is the handle's open superblock on every die of its group
 * (the writes stripe over them): its nominal size is those superblocks' bytes; GC reclaims a
 * superblock of an RU at a time.  A write without a directive goes to handle 0 of the groups in
 * turn; one naming a PID the configuration lacks goes there too and is logged (Invalid
 * Placement Identifier).  Isolation (ftl.fdp.isolation): persistently isolated handles keep
 * their data apart through GC too (each handle's victims are copied into that handle's own GC
 * superblock, STREAM_FDP_GC + handle); initially isolated ones share GC's superblock (copies of
 * different handles mix).  The logs (place/fdp_logs.c) count host and media bytes written and
 * bytes erased, each handle's use, and the events.
 * Leaves out: FDP with SLC/MLC placement, a pSLC cache, write-through or power cuts (refused by
 * the configuration); several configurations, Set Features, namespaces; the RU time limit. */
#ifndef SSDVP_PLACE_FDP_H
#define SSDVP_PLACE_FDP_H

#include <stdint.h>

#include "hal/fdp_formats.h"

#define FDP_MAX_HANDLES 16u
#define FDP_MAX_QUEUES 32u                 /* reclaim groups x handles */
/* Streams of gc/blocks.h beyond enum stream: a handle's host data, its GC copies. */
#define STREAM_FDP_HOST 8u
#define STREAM_FDP_GC (STREAM_FDP_HOST + FDP_MAX_HANDLES)

struct ftl;

struct fdp {
  uint32_t handles;                        /* 0: FDP off */
  uint32_t groups;
  uint32_t rgif;                           /* PID bits naming the group (upper of 16) */
  uint8_t  persistent;                     /* GC copies stay with their handle */
  uint32_t dies_per_group;
  uint32_t next_group;                     /* writes without a directive: groups in turn */
  uint32_t *open_sb, *open_page;           /* [pool][2 x handles]: host streams, then GC's */
  struct fdp_counts {                      /* (in the heap: struct ftl's hot fields stay near) */
    uint8_t  ruha[FDP_MAX_HANDLES];        /* SSD_FDP_RUHA_* (the RUH Usage log) */
    uint64_t host_sectors[FDP_MAX_QUEUES]; /* host sectors written per queue (group, handle) */
    uint64_t gc_sectors[FDP_MAX_HANDLES];  /* GC copies into each handle's GC superblocks */
    uint64_t invalid_pids;                 /* writes that named a PID the configuration lacks */
  } *n;
  struct ssd_fdp_event *events;            /* ring of the newest SSD_FDP_EVENTS_MAX */
  uint32_t ev_head, ev_count;
  uint64_t ev_total;
  uint32_t log_addr;                       /* DRAM: one 4 KiB sector a log is built in */
  uint8_t  log_busy;                       /* ... on its way to the host */
  uint32_t log_wait_head, log_wait_tail;   /* log commands waiting for it */
};

void fdp_init(struct ftl *f);
/* fdp_on, fdp_queues, fdp_queue_stream, fdp_queue_takes_pool: inline in place/queues.h. */
/* The write-buffer queue of a write of nsect host sectors (counted for its queue; the
 * preconditioning's sectors too, as the host writes they stand for): its placement directive (the command's cdw[1]) decoded; an invalid PID is
 * logged and goes to the default. */
uint32_t fdp_queue_of_write(struct ftl *f, uint32_t cdw1, uint32_t nsect);
/* The handle whose data superblock sb holds (NONE32: none or several). */
uint32_t fdp_handle_of_sb(const struct ftl *f, uint32_t sb);
/* The stream GC copies of victim go to: its handle's own under persistent isolation. */
int fdp_gc_stream(struct ftl *f, uint32_t victim, uint32_t nsect);
/* The open superblock (and next superpage) of an FDP stream of pool (gc/blocks.c). */
uint32_t *fdp_stream_sb(struct ftl *f, uint32_t pool, int stream);
uint32_t *fdp_stream_page(struct ftl *f, uint32_t pool, int stream);
/* The placement identifier of (group, handle). */
uint16_t fdp_pid(const struct ftl *f, uint32_t group, uint32_t handle);
/* Appends an event to the events log. */
void fdp_event(struct ftl *f, uint8_t type, uint8_t flags, uint16_t pid, uint32_t group, uint32_t handle,
               uint64_t info);

/* place/fdp_logs.c: the host commands of FDP (Get Log Page of its logs, I/O Management Receive
 * and Send); 1 if `slot`'s opcode is one (it is then handled). */
int fdp_command(struct ftl *f, uint16_t slot);
/* The log buffer's transfer finished (hcmd state HC_DMA_LOG). */
void fdp_log_sent(struct ftl *f, uint16_t slot);

#endif /* SSDVP_PLACE_FDP_H */
