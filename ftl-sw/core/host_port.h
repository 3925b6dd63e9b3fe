/* The FTL's host side: the port through which host commands come in and their data and
 * completions go out.  core/host_queue.c takes each command the host interface fetched into a
 * command slot (`f->hc[slot]`: opcode, LBA, length) and hands it to the module that owns host
 * commands; that module moves data and completes with `hif_dma` (core/ftl.h), and hears of each
 * finished DMA descriptor of a slot.  The owner registers once at start-up
 * (`struct host_owner`); core/host_queue.c calls no mechanism.  As device firmware the port is
 * the HIF's rings; the conventional FTL's host commands (core/host_cmd.c) own it, and a device of
 * another interface (Open-Channel, docs/ocssd.md) registers its own owner.
 * The vendor preconditioning command is taken off the ring before its owner runs it (it runs
 * long, functionally); an owner without one answers it as an invalid opcode.
 * Leaves out: the slot's state, which the owner keeps. */
#ifndef SSDVP_CORE_HOST_PORT_H
#define SSDVP_CORE_HOST_PORT_H

#include <stdint.h>

struct ftl;
struct ssd_host_cmd;

struct host_owner {
  void (*start)(struct ftl *f, uint16_t slot);      /* a new command in `slot` */
  void (*dma_done)(struct ftl *f, uint16_t slot);   /* the slot's DMA descriptor finished */
  void (*arrived)(struct ftl *f);                   /* after a pass that took commands (or 0) */
  void (*precondition)(struct ftl *f, uint16_t slot, const struct ssd_host_cmd *cmd);   /* or 0 */
};

/* Host commands are owned by `owner` (static data of the owner's module). */
void host_register(struct ftl *f, const struct host_owner *owner);

#endif /* SSDVP_CORE_HOST_PORT_H */
