/* The zones of a zoned namespace and the rules of the ZNS command set's zone state machine
 * (NVMe ZNS command set specification 1.1, section 2.1; docs/zns.md): the zone map a zoned
 * device's firmware keeps instead of a page map.  A zone is empty, implicitly or explicitly
 * opened, closed, full, read-only or offline; opened and closed zones are active, opened ones
 * open, and each kind is limited (max_open, max_active; 0: no limit).  Each call checks a
 * command against the rules and, when it may proceed, applies its change to the table at once
 * (the write pointer moves when a write is accepted, so the next write or append to the zone
 * may follow before this one is programmed, and appends get their LBAs in acceptance order);
 * a refused command changes nothing and returns the spec's status:
 *   write/append: the namespace's range (LBA Out of Range); the zone full, read-only or
 *   offline; an append not at the zone's first LBA (Invalid Field) or larger than ZASL; a
 *   write not at the write pointer (Zone Invalid Write); past the capacity (Zone Boundary
 *   Error); an empty or closed zone opens implicitly, needing an active resource (from empty:
 *   Too Many Active Zones) and an open one (Too Many Open Zones), where an implicitly opened
 *   zone is closed first to make room when the open limit is reached (the oldest opened:
 *   the controller's resource management, as the spec allows); a zone written to its
 *   capacity is full and frees its resources.
 *   read: the range; across a zone boundary (no read across zone boundaries: Zone Boundary
 *   Error); an offline zone.  Blocks at or beyond the zone's written data read as zeros.
 *   management (one zone, or every zone it applies to with Select All): open (empty, closed,
 *   implicitly opened -> explicitly opened, with the resources as for a write), close
 *   (opened -> closed; an opened zone with nothing written -> empty), finish (empty, opened,
 *   closed -> full, freeing resources), reset (opened, closed, full -> empty, write pointer
 *   at the start; the device erases it: one more wear), offline (read-only -> offline);
 *   an action the state forbids is Invalid Zone State Transition, one that leaves the state
 *   as it is succeeds.
 * Media failures take a zone read-only or offline (zns_note_*), freeing its resources.
 * Report Zones fills descriptors from a zone on, of the zones a reporting option selects.
 * Leaves out: issuing flash operations (the device's), zone descriptor extensions, the zoned
 * random write area, reset/finish recommended attributes and their limits. */
#ifndef SSDVP_ZNS_ZNS_ZONES_H
#define SSDVP_ZNS_ZNS_ZONES_H

#include <stdint.h>
#include "zns/zns_layout.h"

struct zns_zones {
  const struct zns_layout *l;
  struct ssd_zns_zone_desc *desc;   /* [nr_zones]: state, write pointer, capacity: the report's */
  uint64_t *written;                /* [nr_zones]: sectors holding data (a finished zone keeps its count) */
  uint32_t *opened_at;              /* [nr_zones]: when an implicitly opened zone was opened */
  uint32_t *resets;                 /* [nr_zones]: resets (the zone's wear) */
  uint32_t nr_open, nr_active, clock;
};

/* Every zone empty at its first LBA; the arrays have room for l->nr_zones. */
void zns_zones_init(struct zns_zones *t, const struct zns_layout *l, struct ssd_zns_zone_desc *desc, uint64_t *written,
                    uint32_t *opened_at, uint32_t *resets);

static inline uint8_t zns_state(const struct zns_zones *t, uint32_t z) { return (uint8_t)(t->desc[z].zs >> 4); }

/* What a write or append changed besides its own zone. */
struct zns_write_effect {
  uint64_t lba;            /* where the data goes (an append's answer) */
  uint32_t zone;           /* its zone */
  uint32_t auto_closed;    /* a zone the controller closed to make room, or 0xFFFFFFFF */
  uint8_t  filled;         /* the write filled the zone (now full) */
};

/* A write of `nlb` blocks at `slba`, or (append) into the zone starting at `slba`. */
uint16_t zns_write(struct zns_zones *t, uint64_t slba, uint32_t nlb, int append, struct zns_write_effect *e);
/* A read of `nlb` blocks at `slba`; *zone its zone. */
uint16_t zns_check_read(const struct zns_zones *t, uint64_t slba, uint32_t nlb, uint32_t *zone);

/* A management action (SSD_ZNS_ZSA_*) on zone z; *auto_closed as for writes (open). */
uint16_t zns_manage(struct zns_zones *t, uint32_t z, uint8_t action, uint32_t *auto_closed);
/* Select All: whether the action applies to zone z in its state (close: opened zones; finish:
 * opened and closed; open: closed; reset: opened, closed, full; offline: read-only). */
int zns_select_all_applies(const struct zns_zones *t, uint32_t z, uint8_t action);

/* Power-on (zns/zns_power.c): zone z as the power-loss dump left it: `state` (empty, closed,
 * full, read-only or offline), `written` sectors of data, `resets` so far; the open and active
 * counts follow. */
void zns_zones_restore(struct zns_zones *t, uint32_t z, uint8_t state, uint64_t written, uint32_t resets);
/* A media failure: zone z read-only (programs fail) or offline (erases fail). */
void zns_note_read_only(struct zns_zones *t, uint32_t z);
void zns_note_offline(struct zns_zones *t, uint32_t z);

/* Report Zones from the zone holding `slba`: the header, and up to `max` descriptors of the
 * zones `option` (SSD_ZNS_ZRAS_*) selects; nr_zones counts every selected zone from there to
 * the end, or (partial) those returned.  Returns the descriptors written; 0xFFFFFFFF for an
 * option the spec does not define or an LBA out of range. */
uint32_t zns_report(const struct zns_zones *t, uint64_t slba, uint8_t option, int partial,
                    struct ssd_zns_report_header *hdr, struct ssd_zns_zone_desc *out, uint32_t max);

#endif /* SSDVP_ZNS_ZNS_ZONES_H */
