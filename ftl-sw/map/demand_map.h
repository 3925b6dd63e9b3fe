/* The demand-based mapping's functions (DFTL and the PTSD schemes): the translation-page cache
 * (map/demand_map.c), writeopt's dirty entries (map/dirty_entries.c) and the adaptive split
 * (map/cache_adapt.c).  Their state (struct dmap) is part of struct ftl (core/ftl.h), which
 * includes this header; the page map and map_lookup/map_update are map/page_map.c's.
 * Leaves out: nothing of its own (declarations only). */
#ifndef SSDVP_DEMAND_MAP_H
#define SSDVP_DEMAND_MAP_H

#include <stdint.h>

struct ftl;
struct dmap;

/* demand-based mapping (map/demand_map.c) */
void dmap_init(struct ftl *f);
uint32_t dmap_lookup(struct ftl *f, uint32_t lpa, int count_stats);
int  dmap_update(struct ftl *f, uint32_t lpa, uint32_t ppa, uint32_t cond, uint32_t cookie);
void dmap_load_for_read(struct ftl *f, uint32_t tp, uint16_t host_slot);
int  dmap_trim(struct ftl *f, uint32_t lpa, uint32_t n, uint32_t cookie);
int  dmap_has_work(const struct ftl *f);
void dmap_dump(struct ftl *f);
int  dmap_step(struct ftl *f);
void tp_io_init(struct ftl *f);   /* registers translation-page I/O's flash completions */
void dmap_page_placed(struct ftl *f, uint32_t tp, uint32_t ppa, uint32_t cond);
int  dmap_reads_protected(const struct ftl *f);   /* the scheduler holds writes back now */
/* writeopt dirty entries (map/dirty_entries.c) */
void dent_init(struct ftl *f, uint32_t bytes);
uint32_t dent_find(const struct ftl *f, uint32_t lpa);
int  dent_update(struct ftl *f, uint32_t lpa, uint32_t ppa, uint32_t cond, uint32_t cookie);
int  dent_trim(struct ftl *f, uint32_t lpa, uint32_t n, uint32_t cookie);
void dent_batch_loaded(struct ftl *f, uint32_t l);
int  dent_batch_step(struct ftl *f);
void dent_apply_to_image(struct ftl *f, uint32_t tp, uint32_t *image);
/* adaptive split (map/cache_adapt.c) */
void adapt_note_read_miss(struct ftl *f);
void adapt_note_write_cost(struct ftl *f, uint32_t cost);
void adapt_access(struct ftl *f);
void adapt_init(struct ftl *f);
void dent_set_limit(struct ftl *f, uint32_t high);
void dmap_shrink_region(struct ftl *f, uint32_t region);
int  dmap_start_batch(struct ftl *f, uint32_t tp);
/* shared by the map files */
uint32_t *dmap_slot_page(struct ftl *f, uint32_t slot);
void dmap_slot_grant(struct ftl *f, uint32_t region);
void dmap_queue_write(struct ftl *f, uint32_t slot);
int  dmap_writer_step(struct ftl *f);
int  dmap_write_page(struct ftl *f, uint32_t tp, const uint32_t *entries, uint32_t n);
void dmap_waiter_free(struct dmap *d, uint32_t w);
uint32_t dmap_waiter_new(struct ftl *f, uint8_t kind, uint32_t lpa, uint32_t ppa, uint32_t cond, uint32_t cookie);
void dmap_resume_update(struct ftl *f, uint32_t w);

#endif /* SSDVP_DEMAND_MAP_H */
