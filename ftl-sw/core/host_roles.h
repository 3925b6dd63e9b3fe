/* The FTL run as a host FTL (models/host/host_ftl.h; docs/host-ftl.md): the same sources, booted
 * as the device firmware boots, then run by the host threads that do each part of its work
 * instead of one event loop per controller core (core/fw_main.c).  Each function below is one
 * critical section under the FTL's lock (the host side models the lock: its holder's CPU time,
 * its spinning waiters), on the rings of FTL core k (a ring part: pblk has one, MT-FTL one per
 * CPU), and returns the work it did (0: none):
 *   - host_role_submit: a user thread's submission, in its own context: the commands it put on
 *     core k's command ring start (a write is copied into the ring part, its insert; a read is
 *     looked up, served from the ring or sent to the flash), and their data moves;
 *   - host_role_retry: a user thread whose command waits (its ring part full, read buffers)
 *     tries again; every waiter does whenever space was freed, as pblk's do;
 *   - host_role_completions: the device's interrupt on the CPU whose queue a command went on:
 *     the flash completions on core k's ring (a read's data to its user, a program's map
 *     updates), the flushes whose data is now on flash;
 *   - host_role_writeback: core k's write-back thread: its part drained to flash, its idle
 *     timer, the flushes whose data is on flash;
 *   - host_role_background: GC and the other background steps, on core 0's rings.
 * Leaves out: the event loop's sleeping and waking (the host threads wait on their own events),
 * power-loss protection, preconditioning (a host FTL starts on a new device). */
#ifndef SSDVP_CORE_HOST_ROLES_H
#define SSDVP_CORE_HOST_ROLES_H

#include <stdint.h>

struct ftl;

/* Boots the FTL (a conventional drive's firmware: its configuration and geometry where the
 * device's platform leaves them) on the calling host thread and returns its state. */
struct ftl *host_ftl_boot(void);

int host_role_submit(struct ftl *f, uint32_t k);
int host_role_retry(struct ftl *f, uint32_t k);
int host_role_completions(struct ftl *f, uint32_t k);
int host_role_writeback(struct ftl *f, uint32_t k, int idle);
int host_role_background(struct ftl *f);
/* Whether a write-back or background section would find work (a look, no cost). */
int host_role_writeback_due(struct ftl *f, uint32_t k);
int host_role_background_due(const struct ftl *f);

#endif /* SSDVP_CORE_HOST_ROLES_H */
