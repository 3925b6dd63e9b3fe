// The Open-Channel SSD 2.0 formats and geometry (ftl-sw/hal/oc_formats.h,
// ftl-sw/ocssd/oc_geometry.h): the structures sit at the spec's byte offsets; the geometry of
// platforms/ocssd.toml's flash (the write-buffer study's 8 groups x 16 parallel units, 16 KiB
// pages, 4 planes, MLC) has the counts, write sizes and LBA format the mapping says; LBAs go
// to fields and back, and an LBA with a field beyond its count is refused; media the interface
// cannot describe are refused with the reason.
#include <gtest/gtest.h>

#include <cstddef>
#include <random>

extern "C" {
#include "ftl-sw/ocssd/oc_geometry.h"
}

namespace {

oc_media ocssd_toml() {   // platforms/ocssd.toml, MLC timing (60 us read, 1350 us program, 3 ms erase)
  oc_media m{};
  m.channels = 8; m.ways = 16; m.planes = 4;
  m.blocks_per_plane = 64; m.pages_per_block = 256; m.sectors_per_page = 4;
  m.bits_per_cell = 2;
  m.open_chunks_per_pu = 4;
  m.t_read_ns[0] = m.t_read_ns[1] = 60000;
  m.t_prog_ns[0] = m.t_prog_ns[1] = 1350000;
  m.t_erase_ns = 3000000;
  return m;
}

}  // namespace

TEST(OcFormats, StructuresSitAtTheSpecsOffsets) {
  EXPECT_EQ(sizeof(ssd_oc_geometry), 4096u);
  EXPECT_EQ(offsetof(ssd_oc_geometry, lbaf), 8u);
  EXPECT_EQ(offsetof(ssd_oc_geometry, mccap), 16u);
  EXPECT_EQ(offsetof(ssd_oc_geometry, wit), 32u);
  EXPECT_EQ(offsetof(ssd_oc_geometry, num_grp), 64u);
  EXPECT_EQ(offsetof(ssd_oc_geometry, clba), 72u);
  EXPECT_EQ(offsetof(ssd_oc_geometry, ws_min), 128u);
  EXPECT_EQ(offsetof(ssd_oc_geometry, maxocpu), 144u);
  EXPECT_EQ(offsetof(ssd_oc_geometry, trdt), 192u);
  EXPECT_EQ(offsetof(ssd_oc_geometry, tcrsm), 212u);
  EXPECT_EQ(offsetof(ssd_oc_geometry, vs), 3072u);
  EXPECT_EQ(sizeof(ssd_oc_chunk), 32u);
  EXPECT_EQ(offsetof(ssd_oc_chunk, slba), 8u);
  EXPECT_EQ(offsetof(ssd_oc_chunk, wp), 24u);
}

TEST(OcGeometry, TheWriteBufferStudysDevice) {
  const oc_media m = ocssd_toml();
  ssd_oc_geometry g;
  ASSERT_EQ(oc_geometry_derive(&m, &g), OC_GEO_OK);
  EXPECT_EQ(g.mjr, 2u);
  EXPECT_EQ(g.mccap, SSD_OC_MCCAP_MULTIPLE_RESETS);
  EXPECT_EQ(g.num_grp, 8u);
  EXPECT_EQ(g.num_pu, 16u);
  EXPECT_EQ(g.num_chk, 64u);
  EXPECT_EQ(g.clba, 256u * 4 * 4);            // pages x planes x sectors per page
  EXPECT_EQ(g.ws_min, 16u);                   // a 16 KiB page on each of 4 planes
  EXPECT_EQ(g.ws_opt, 16u);
  EXPECT_EQ(g.mw_cunits, 16u);                // MLC: the word line's other page, on every plane
  EXPECT_EQ(g.maxocpu, 4u);
  EXPECT_EQ(g.maxoc, 4u * 8 * 16);
  EXPECT_EQ(g.lbaf.grp_len, 3u);
  EXPECT_EQ(g.lbaf.pu_len, 4u);
  EXPECT_EQ(g.lbaf.chk_len, 6u);
  EXPECT_EQ(g.lbaf.lba_len, 12u);
  EXPECT_EQ(g.trdt, 60000u);
  EXPECT_EQ(g.twrm, 1350000u);
  EXPECT_EQ(g.tcrst, 3000000u);
  oc_media slc = m, tlc = m;
  slc.bits_per_cell = 1;
  tlc.bits_per_cell = 3;
  ASSERT_EQ(oc_geometry_derive(&slc, &g), OC_GEO_OK);
  EXPECT_EQ(g.mw_cunits, 0u);
  ASSERT_EQ(oc_geometry_derive(&tlc, &g), OC_GEO_OK);
  EXPECT_EQ(g.mw_cunits, 32u);
}

TEST(OcGeometry, LbasGoToTheirFieldsAndBack) {
  oc_media m = ocssd_toml();
  m.channels = 3; m.ways = 5; m.blocks_per_plane = 37; m.pages_per_block = 96;   // no power of two
  ssd_oc_geometry g;
  ASSERT_EQ(oc_geometry_derive(&m, &g), OC_GEO_OK);
  EXPECT_EQ(g.lbaf.grp_len, 2u);
  EXPECT_EQ(g.lbaf.pu_len, 3u);
  EXPECT_EQ(g.lbaf.chk_len, 6u);
  EXPECT_EQ(g.lbaf.lba_len, 11u);             // 1,536 sectors a chunk
  std::mt19937 rng(5);
  for (int i = 0; i < 10000; i++) {
    const oc_addr a{uint32_t(rng() % 3), uint32_t(rng() % 5), uint32_t(rng() % 37), uint32_t(rng() % 1536)};
    oc_addr b{};
    const uint64_t lba = oc_lba(&g, &a);
    ASSERT_TRUE(oc_lba_split(&g, lba, &b)) << lba;
    ASSERT_EQ(b.grp, a.grp);
    ASSERT_EQ(b.pu, a.pu);
    ASSERT_EQ(b.chk, a.chk);
    ASSERT_EQ(b.sec, a.sec);
  }
  oc_addr out{};
  const oc_addr beyond[] = {{3, 0, 0, 0}, {0, 5, 0, 0}, {0, 0, 37, 0}, {0, 0, 0, 1536}};
  for (const oc_addr& a : beyond) EXPECT_FALSE(oc_lba_split(&g, oc_lba(&g, &a), &out));
  EXPECT_FALSE(oc_lba_split(&g, uint64_t(1) << 22, &out));   // a bit above the format's 22
}

TEST(OcGeometry, MediaTheInterfaceCannotDescribeAreRefused) {
  ssd_oc_geometry g;
  oc_media m = ocssd_toml();
  m.mixed_cells = 1;
  EXPECT_EQ(oc_geometry_derive(&m, &g), OC_GEO_MIXED_CELLS);
  m = ocssd_toml();
  m.ways = 0;
  EXPECT_EQ(oc_geometry_derive(&m, &g), OC_GEO_EMPTY);
  m = ocssd_toml();
  m.channels = 70000;
  EXPECT_EQ(oc_geometry_derive(&m, &g), OC_GEO_TOO_MANY);
  m = ocssd_toml();
  m.open_chunks_per_pu = 65;
  EXPECT_EQ(oc_geometry_derive(&m, &g), OC_GEO_OPEN_CHUNKS);
}
