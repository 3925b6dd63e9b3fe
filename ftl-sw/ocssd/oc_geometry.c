/* The Open-Channel geometry and LBA format of ssdvp's flash: see oc_geometry.h. */
#include "ocssd/oc_geometry.h"

/* Bits a field needs to hold 0 .. count - 1 (0 for a count of 1). */
static uint8_t bits_for(uint32_t count) {
  uint8_t b = 0;
  while (b < 32u && (1ull << b) < count) b++;
  return b;
}

enum oc_geometry_error oc_geometry_derive(const struct oc_media *m, struct ssd_oc_geometry *g) {
  uint8_t *raw = (uint8_t *)g;
  for (uint32_t i = 0; i < sizeof(*g); i++) raw[i] = 0;
  if (m->mixed_cells) return OC_GEO_MIXED_CELLS;
  if (!m->channels || !m->ways || !m->planes || !m->blocks_per_plane || !m->pages_per_block ||
      !m->sectors_per_page || !m->bits_per_cell)
    return OC_GEO_EMPTY;
  if (m->channels > 0xFFFFu || m->ways > 0xFFFFu) return OC_GEO_TOO_MANY;
  if (!m->open_chunks_per_pu || m->open_chunks_per_pu > m->blocks_per_plane) return OC_GEO_OPEN_CHUNKS;
  const uint64_t ws = (uint64_t)m->planes * m->sectors_per_page;
  const uint64_t clba = ws * m->pages_per_block;
  if (clba > 0xFFFFFFFFu) return OC_GEO_TOO_MANY;
  g->mjr = 2;
  g->mnr = 0;
  g->mccap = SSD_OC_MCCAP_MULTIPLE_RESETS;   /* erasing an erased block is harmless */
  g->lbaf.grp_len = bits_for(m->channels);
  g->lbaf.pu_len = bits_for(m->ways);
  g->lbaf.chk_len = bits_for(m->blocks_per_plane);
  g->lbaf.lba_len = bits_for((uint32_t)clba);
  if ((uint32_t)g->lbaf.grp_len + g->lbaf.pu_len + g->lbaf.chk_len + g->lbaf.lba_len > 64u) return OC_GEO_ADDRESS_BITS;
  g->num_grp = (uint16_t)m->channels;
  g->num_pu = (uint16_t)m->ways;
  g->num_chk = m->blocks_per_plane;
  g->clba = (uint32_t)clba;
  g->ws_min = g->ws_opt = (uint32_t)ws;
  g->mw_cunits = (uint32_t)(ws * (m->bits_per_cell - 1u));
  g->maxocpu = m->open_chunks_per_pu;
  g->maxoc = m->open_chunks_per_pu * m->channels * m->ways;
  g->trdt = m->t_read_ns[0];
  g->trdm = m->t_read_ns[1];
  g->twrt = m->t_prog_ns[0];
  g->twrm = m->t_prog_ns[1];
  g->tcrst = g->tcrsm = m->t_erase_ns;
  return OC_GEO_OK;
}

uint64_t oc_lba(const struct ssd_oc_geometry *g, const struct oc_addr *a) {
  const struct ssd_oc_lbaf *f = &g->lbaf;
  return (((((uint64_t)a->grp << f->pu_len) | a->pu) << f->chk_len | a->chk) << f->lba_len) | a->sec;
}

/* The low `len` bits of v. */
static uint32_t field(uint64_t v, uint8_t len) { return (uint32_t)(v & ((1ull << len) - 1u)); }

int oc_lba_split(const struct ssd_oc_geometry *g, uint64_t lba, struct oc_addr *a) {
  const struct ssd_oc_lbaf *f = &g->lbaf;
  const uint32_t used = (uint32_t)f->grp_len + f->pu_len + f->chk_len + f->lba_len;
  a->sec = field(lba, f->lba_len);
  lba >>= f->lba_len;
  a->chk = field(lba, f->chk_len);
  lba >>= f->chk_len;
  a->pu = field(lba, f->pu_len);
  lba >>= f->pu_len;
  a->grp = field(lba, f->grp_len);
  const int high_bits_clear = used >= 64u || (lba >> f->grp_len) == 0;
  return high_bits_clear && a->grp < g->num_grp && a->pu < g->num_pu && a->chk < g->num_chk && a->sec < g->clba;
}
