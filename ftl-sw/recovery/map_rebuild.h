/* After a power cut, the demand-based map's translation pages are written afresh from the
 * mapping the scan rebuilt (docs/reliability.md, "Demand-based maps").
 *
 * The scan finds every host sector's newest version and every translation page's newest copy
 * (the GTD); what the cut lost is the mapping cache: dirty pages, dirty entries, updates
 * waiting for a load.  Rather than read every translation page to find which are stale, every
 * page that maps something is written again (one program per superpage of them, through the
 * mapping cache's own writer), and a page left with nothing mapped leaves the GTD.  The old
 * copies become invalid and GC reclaims them.
 * Leaves out: a checkpoint that would bound the scan; keeping unchanged pages (it costs
 * n_tp / unit programs, 256 on the 16 GiB drive). */
#ifndef SSDVP_MAP_REBUILD_H
#define SSDVP_MAP_REBUILD_H

#include <stdint.h>

struct ftl;

/* l2p: the rebuilt mapping, one entry per logical sector (NONE32: unmapped).  Returns once
 * every page is programmed. */
void map_rebuild_translation_pages(struct ftl *f, const uint32_t *l2p);

#endif /* SSDVP_MAP_REBUILD_H */
