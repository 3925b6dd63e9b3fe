/* The FTL's flash side: the port through which every flash operation leaves and its completion
 * comes back.  An operation in flight is a `struct fop` named by its tag (core/ftl.h); its kind
 * says which module owns it, and each owner registers, once at start-up, what the port does
 * with a completion of its kind (`struct flash_owner`): the reason its descriptors carry, the
 * function a completion goes to, and which failure status, if any, it takes itself (a failed
 * program goes to bad-block management, media/program_retry.h, which its owners register; a
 * failed erase to GC's).  So core/flash_queue.c moves descriptors and completions and knows no
 * mechanism: a completion of a kind nobody registered, or a failure its owner does not take, is
 * a firmware fault.
 * As device firmware the port is the flash controller's submission and completion rings
 * (flash_queue.c); a host FTL binds the same owners to another device's commands.
 * Leaves out: the operations' own state (each owner keeps it, keyed by tag). */
#ifndef SSDVP_CORE_FLASH_PORT_H
#define SSDVP_CORE_FLASH_PORT_H

#include <stdint.h>

struct ftl;

/* What a flash operation came back with. */
struct flash_result {
  uint16_t status;     /* SSD_FST_* */
  uint64_t t_done;     /* simulated time it completed, ns (the controller's stamp) */
};

typedef void (*flash_done_fn)(struct ftl *f, uint32_t tag, const struct flash_result *r);

/* What the owner of a kind of flash operation registers (flash_register). */
struct flash_owner {
  uint8_t reason;          /* SSD_FRSN_*: why its descriptors are issued (statistics, tracing) */
  uint8_t takes_failure;   /* SSD_FST_PROGRAM_FAIL or SSD_FST_ERASE_FAIL: the failure `failed`
                              handles; 0: none (any failure of this kind is a fault) */
  flash_done_fn done;      /* every other completion (reads pass their status on) */
  flash_done_fn failed;    /* the failure it takes */
};

/* Kind `kind` of flash operation is owned by `owner` (static data of the owner's module). */
void flash_register(struct ftl *f, uint8_t kind, const struct flash_owner *owner);

#endif /* SSDVP_CORE_FLASH_PORT_H */
