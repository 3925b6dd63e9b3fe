/* Power-loss protection: what the firmware does when its supply fails and the hold-up
 * capacitors (device.plp_energy_mj) keep the drive up a little longer (docs/reliability.md,
 * "Power-loss protection").
 *
 * The platform sets a word in the configuration block and wakes core 0; whichever core holds
 * the lock next sees it and
 *   1. stops taking host commands (the host is gone with the supply),
 *   2. drains every write-buffer part past what it held then, as a flush command would
 *      (everything acknowledged is in it: a write completes once its data is buffered),
 *   3. waits for the programs issued until then, and tells the platform (SYSCTL_POWER_DUMPED),
 *      which cuts the power there: a finished dump makes every acknowledged write durable.
 * GC, map updates and program retries go on meanwhile (a buffer drain may need them).  If the
 * energy runs out first, power goes mid-dump and only the usual contract holds (writes
 * flushed or sent with FUA).
 * Leaves out: the map (recovery rebuilds it from the OOB scan; a real drive would dump its
 * dirty map too), the energy each operation draws (the budget is a time at constant power),
 * and GC being suspended to save energy. */
#ifndef SSDVP_RECOVERY_POWER_FAIL_H
#define SSDVP_RECOVERY_POWER_FAIL_H

#include <stdint.h>
#include "buffer/write_buffer.h"

struct ftl;

enum power_fail_state { PF_NONE = 0, PF_DUMPING, PF_DUMPED };

struct power_fail {
  volatile const uint32_t *flag;   /* the platform's word (struct ssd_fw_config.power_failing) */
  uint8_t  state;                  /* enum power_fail_state */
  struct drain_barrier dump;       /* what was buffered when the supply failed, as a flush */
};

void power_fail_init(struct ftl *f);
/* The supply failed and the dump is not finished: ftl_poll calls power_fail_step. */
static inline int power_fail_pending(const struct power_fail *p) { return p->state != PF_DUMPED && *p->flag; }
/* The supply failed: no more host commands. */
static inline int power_failing(const struct power_fail *p) { return p->state != PF_NONE; }
int power_fail_step(struct ftl *f);

#endif /* SSDVP_RECOVERY_POWER_FAIL_H */
