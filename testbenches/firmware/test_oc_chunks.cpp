// The Open-Channel SSD 2.0 chunk model (ftl-sw/ocssd/oc_chunks.h): each rule of the chunk
// state machine gives the status the spec's implementations give, and the table is the chunk
// log (state, write pointer, wear) after each step.
#include <gtest/gtest.h>

#include <vector>

extern "C" {
#include "ftl-sw/hal/regs.h"
#include "ftl-sw/ocssd/oc_chunks.h"
}

namespace {

// 2 groups x 2 units x 4 chunks of 4 pages x 2 planes x 1 sector: clba 8, ws_min 2, MLC
// (mw_cunits 2).
struct Chunks {
  ssd_oc_geometry geo;
  std::vector<ssd_oc_chunk> log;
  oc_chunks t;
  Chunks() {
    oc_media m{};
    m.channels = 2; m.ways = 2; m.planes = 2; m.blocks_per_plane = 4; m.pages_per_block = 4;
    m.sectors_per_page = 1; m.bits_per_cell = 2; m.open_chunks_per_pu = 2;
    EXPECT_EQ(oc_geometry_derive(&m, &geo), OC_GEO_OK);
    log.resize(16);
    oc_chunks_init(&t, &geo, log.data());
  }
  // Write `n` sectors at `sec` of chunk c the way the device would: check, then program.
  uint16_t write(uint32_t c, uint32_t sec, uint32_t n) {
    const uint16_t st = oc_check_write(&t, c, sec, n);
    if (st == SSD_ST_OK) oc_note_written(&t, c, n);
    return st;
  }
  uint16_t reset(uint32_t c) {
    const uint16_t st = oc_check_reset(&t, c);
    if (st == SSD_ST_OK) oc_note_reset(&t, c);
    return st;
  }
};

}  // namespace

TEST(OcChunks, TheLogStartsWithEveryChunkFreeAtItsFirstLba) {
  Chunks k;
  EXPECT_EQ(k.t.count, 16u);
  for (uint32_t grp = 0; grp < 2; grp++)
    for (uint32_t pu = 0; pu < 2; pu++)
      for (uint32_t chk = 0; chk < 4; chk++) {
        const oc_addr a{grp, pu, chk, 0};
        const ssd_oc_chunk& d = k.log[oc_chunk_index(&k.geo, &a)];
        EXPECT_EQ(d.cs, SSD_OC_CHUNK_FREE);
        EXPECT_EQ(d.ct, SSD_OC_CHUNK_SEQ_WRITE);
        EXPECT_EQ(d.slba, oc_lba(&k.geo, &a));
        EXPECT_EQ(d.wp, d.slba);
        EXPECT_EQ(d.cnlb, 8u);
      }
  const oc_addr last{1, 1, 3, 0};
  EXPECT_EQ(oc_chunk_index(&k.geo, &last), 15u);   // log order: group, unit, chunk
}

TEST(OcChunks, WritesGoSequentiallyAtTheWritePointerInWriteUnits) {
  Chunks k;
  EXPECT_EQ(k.write(5, 0, 1), SSD_OC_ST_INVALID_FIELD);     // not a multiple of ws_min
  EXPECT_EQ(k.write(5, 2, 2), SSD_OC_ST_OUT_OF_ORDER);      // not at the write pointer
  EXPECT_EQ(k.write(5, 0, 2), SSD_ST_OK);
  EXPECT_EQ(k.log[5].cs, SSD_OC_CHUNK_OPEN);
  EXPECT_EQ(k.log[5].wp - k.log[5].slba, 2u);
  EXPECT_EQ(k.write(5, 0, 2), SSD_OC_ST_OUT_OF_ORDER);      // written already
  EXPECT_EQ(k.write(5, 2, 8), SSD_OC_ST_WRITE_FAULT);       // past the chunk's end
  EXPECT_EQ(k.write(5, 2, 6), SSD_ST_OK);
  EXPECT_EQ(k.log[5].cs, SSD_OC_CHUNK_CLOSED);              // full
  EXPECT_EQ(k.write(5, 8, 2), SSD_OC_ST_WRITE_FAULT);       // closed
  EXPECT_EQ(k.log[4].cs, SSD_OC_CHUNK_FREE);                // its neighbours untouched
  EXPECT_EQ(k.log[6].cs, SSD_OC_CHUNK_FREE);
}

TEST(OcChunks, ReadsBelowTheWritePointerButNotTheLastWriteCacheUnitsOfAnOpenChunk) {
  Chunks k;
  EXPECT_EQ(oc_check_read(&k.t, 2, 0, 1), SSD_OC_ST_UNWRITTEN);   // free
  ASSERT_EQ(k.write(2, 0, 4), SSD_ST_OK);
  EXPECT_EQ(oc_check_read(&k.t, 2, 0, 2), SSD_ST_OK);             // wp 4, mw_cunits 2
  EXPECT_EQ(oc_check_read(&k.t, 2, 1, 2), SSD_OC_ST_UNWRITTEN);   // reaches the host-cached units
  EXPECT_EQ(oc_check_read(&k.t, 2, 4, 1), SSD_OC_ST_UNWRITTEN);   // above the write pointer
  ASSERT_EQ(k.write(2, 4, 4), SSD_ST_OK);
  EXPECT_EQ(oc_check_read(&k.t, 2, 0, 8), SSD_ST_OK);             // closed: all of it
  EXPECT_EQ(oc_check_read(&k.t, 2, 7, 2), SSD_ST_LBA_RANGE);      // past the chunk
}

TEST(OcChunks, OnlyClosedChunksAndFreeOnesWithMultipleResetsMayBeReset) {
  Chunks k;
  ASSERT_EQ(k.write(9, 0, 2), SSD_ST_OK);
  EXPECT_EQ(k.reset(9), SSD_OC_ST_INVALID_RESET);            // open: early reset is not in the spec
  ASSERT_EQ(k.write(9, 2, 6), SSD_ST_OK);
  EXPECT_EQ(k.reset(9), SSD_ST_OK);                          // closed
  EXPECT_EQ(k.log[9].cs, SSD_OC_CHUNK_FREE);
  EXPECT_EQ(k.log[9].wp, k.log[9].slba);
  EXPECT_EQ(k.log[9].wli, 1u);
  EXPECT_EQ(k.reset(9), SSD_ST_OK);                          // free, mccap has multiple resets
  EXPECT_EQ(k.log[9].wli, 2u);
  k.geo.mccap = 0;
  EXPECT_EQ(k.reset(9), SSD_OC_ST_INVALID_RESET);
  EXPECT_EQ(k.write(9, 0, 2), SSD_ST_OK);                    // written again from its start
}

TEST(OcChunks, AnOfflineChunkAnswersEveryCommandWithItsStatus) {
  Chunks k;
  ASSERT_EQ(k.write(12, 0, 2), SSD_ST_OK);
  oc_note_offline(&k.t, 12);
  EXPECT_EQ(k.log[12].cs, SSD_OC_CHUNK_OFFLINE);
  EXPECT_EQ(k.write(12, 2, 2), SSD_OC_ST_OFFLINE_CHUNK);
  EXPECT_EQ(oc_check_read(&k.t, 12, 0, 1), SSD_OC_ST_OFFLINE_CHUNK);
  EXPECT_EQ(k.reset(12), SSD_OC_ST_OFFLINE_CHUNK);
}
