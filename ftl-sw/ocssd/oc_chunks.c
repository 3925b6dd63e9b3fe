/* The chunk model of an Open-Channel SSD 2.0 device: see oc_chunks.h. */
#include "ocssd/oc_chunks.h"
#include "hal/regs.h"

void oc_chunks_init(struct oc_chunks *t, const struct ssd_oc_geometry *geo, struct ssd_oc_chunk *desc) {
  t->geo = geo;
  t->desc = desc;
  t->count = (uint32_t)geo->num_grp * geo->num_pu * geo->num_chk;
  uint32_t c = 0;
  for (uint32_t grp = 0; grp < geo->num_grp; grp++)
    for (uint32_t pu = 0; pu < geo->num_pu; pu++)
      for (uint32_t chk = 0; chk < geo->num_chk; chk++, c++) {
        struct ssd_oc_chunk *d = &desc[c];
        const struct oc_addr a = {grp, pu, chk, 0};
        uint8_t *raw = (uint8_t *)d;
        for (uint32_t i = 0; i < sizeof(*d); i++) raw[i] = 0;
        d->cs = SSD_OC_CHUNK_FREE;
        d->ct = SSD_OC_CHUNK_SEQ_WRITE;
        d->slba = oc_lba(geo, &a);
        d->cnlb = geo->clba;
        d->wp = d->slba;
      }
}

uint32_t oc_chunk_index(const struct ssd_oc_geometry *geo, const struct oc_addr *a) {
  return (a->grp * (uint32_t)geo->num_pu + a->pu) * geo->num_chk + a->chk;
}

/* The chunk's write pointer as a sector in the chunk. */
static uint64_t wp_sector(const struct ssd_oc_chunk *d) { return d->wp - d->slba; }

uint16_t oc_check_write(const struct oc_chunks *t, uint32_t c, uint32_t sec, uint32_t nsect) {
  const struct ssd_oc_chunk *d = &t->desc[c];
  if (d->cs == SSD_OC_CHUNK_OFFLINE) return SSD_OC_ST_OFFLINE_CHUNK;
  if (nsect == 0 || nsect % t->geo->ws_min) return SSD_OC_ST_INVALID_FIELD;
  if (d->cs == SSD_OC_CHUNK_CLOSED || (uint64_t)sec + nsect > d->cnlb) return SSD_OC_ST_WRITE_FAULT;
  if (sec != wp_sector(d)) return SSD_OC_ST_OUT_OF_ORDER;
  return SSD_ST_OK;
}

void oc_note_written(struct oc_chunks *t, uint32_t c, uint32_t nsect) {
  struct ssd_oc_chunk *d = &t->desc[c];
  d->wp += nsect;
  d->cs = wp_sector(d) >= d->cnlb ? (uint8_t)SSD_OC_CHUNK_CLOSED : (uint8_t)SSD_OC_CHUNK_OPEN;
}

uint16_t oc_check_read(const struct oc_chunks *t, uint32_t c, uint32_t sec, uint32_t nsect) {
  const struct ssd_oc_chunk *d = &t->desc[c];
  if (d->cs == SSD_OC_CHUNK_OFFLINE) return SSD_OC_ST_OFFLINE_CHUNK;
  if (nsect == 0 || (uint64_t)sec + nsect > d->cnlb) return SSD_ST_LBA_RANGE;
  uint64_t readable = wp_sector(d);                       /* closed: everything written */
  if (d->cs == SSD_OC_CHUNK_OPEN) readable = readable > t->geo->mw_cunits ? readable - t->geo->mw_cunits : 0;
  if (d->cs == SSD_OC_CHUNK_FREE) readable = 0;
  return (uint64_t)sec + nsect <= readable ? (uint16_t)SSD_ST_OK : (uint16_t)SSD_OC_ST_UNWRITTEN;
}

uint16_t oc_check_reset(const struct oc_chunks *t, uint32_t c) {
  const struct ssd_oc_chunk *d = &t->desc[c];
  switch (d->cs) {
    case SSD_OC_CHUNK_OFFLINE: return SSD_OC_ST_OFFLINE_CHUNK;
    case SSD_OC_CHUNK_OPEN: return SSD_OC_ST_INVALID_RESET;
    case SSD_OC_CHUNK_FREE:
      return t->geo->mccap & SSD_OC_MCCAP_MULTIPLE_RESETS ? (uint16_t)SSD_ST_OK : (uint16_t)SSD_OC_ST_INVALID_RESET;
    default: return SSD_ST_OK;                            /* closed */
  }
}

void oc_note_reset(struct oc_chunks *t, uint32_t c) {
  struct ssd_oc_chunk *d = &t->desc[c];
  d->cs = SSD_OC_CHUNK_FREE;
  d->wp = d->slba;
  if (d->wli < 255u) d->wli++;
}

void oc_note_closed(struct oc_chunks *t, uint32_t c) {
  if (t->desc[c].cs != SSD_OC_CHUNK_OFFLINE) t->desc[c].cs = SSD_OC_CHUNK_CLOSED;
}

void oc_note_offline(struct oc_chunks *t, uint32_t c) { t->desc[c].cs = SSD_OC_CHUNK_OFFLINE; }
