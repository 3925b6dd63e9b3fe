// The zoned namespace's formats and layout (ftl-sw/hal/zns_formats.h, ftl-sw/zns/zns_layout.h):
// the structures sit at the ZNS specification's byte offsets; the default platform's flash
// makes 512 zones of one stripe (32 MiB, size = capacity); a capacity that is no power of two
// gets the next power of two as its size (or not, when asked); every zone sector has its own
// flash location and the inverse finds it again; consecutive write units go to different dies
// of the zone's group, and neighbouring zones to different groups; impossible choices are
// refused with the reason; Identify carries the limits in the spec's 0's based encoding.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <set>
#include <tuple>

extern "C" {
#include "ftl-sw/zns/zns_layout.h"
}

namespace {

zns_media default_toml() {   // platforms/default.toml: 8 channels x 4 ways, 2 planes, 512 blocks of 128 4 KiB pages
  zns_media m{};
  m.dies = 32; m.planes = 2; m.blocks_per_plane = 512; m.pages_per_block = 128; m.sectors_per_page = 1;
  m.stripes_per_zone = 1;
  m.pow2_zone_size = 1;
  m.zasl_sectors = 64;
  return m;
}

// 4 dies in 2 groups, 2 planes, 6 blocks (2 spare) of 3 pages: capacity 12, size 16.
zns_media small() {
  zns_media m{};
  m.dies = 4; m.planes = 2; m.blocks_per_plane = 6; m.pages_per_block = 3; m.sectors_per_page = 1;
  m.dies_per_zone = 2;
  m.stripes_per_zone = 1;
  m.spare_stripes = 2;
  m.pow2_zone_size = 1;
  m.zasl_sectors = 4;
  return m;
}

}  // namespace

TEST(ZnsFormats, StructuresSitAtTheSpecsOffsets) {
  EXPECT_EQ(sizeof(ssd_zns_zone_desc), 64u);
  EXPECT_EQ(offsetof(ssd_zns_zone_desc, zcap), 8u);
  EXPECT_EQ(offsetof(ssd_zns_zone_desc, zslba), 16u);
  EXPECT_EQ(offsetof(ssd_zns_zone_desc, wp), 24u);
  EXPECT_EQ(sizeof(ssd_zns_report_header), 64u);
  EXPECT_EQ(sizeof(ssd_zns_id_ns), 4096u);
  EXPECT_EQ(offsetof(ssd_zns_id_ns, mar), 4u);
  EXPECT_EQ(offsetof(ssd_zns_id_ns, mor), 8u);
  EXPECT_EQ(offsetof(ssd_zns_id_ns, lbafe), 2816u);
  EXPECT_EQ(offsetof(ssd_zns_id_ns, vs), 3840u);
  EXPECT_EQ(sizeof(ssd_zns_id_ctrl), 4096u);
  EXPECT_LE(sizeof(ssd_zns_vs), sizeof(ssd_zns_id_ns::vs));
}

TEST(ZnsLayout, TheDefaultFlashMakes512ZonesOfOneStripe) {
  const zns_media m = default_toml();
  zns_layout l;
  ASSERT_EQ(zns_layout_derive(&m, &l), ZNS_LAYOUT_OK);
  EXPECT_EQ(l.nr_zones, 512u);
  EXPECT_EQ(l.zcap, 32u * 2 * 128);   // 32 MiB
  EXPECT_EQ(l.zsze, l.zcap);
  EXPECT_EQ(l.zsze_shift, 13u);
  EXPECT_EQ(l.groups, 1u);
  EXPECT_EQ(l.unit, 2u);
}

TEST(ZnsLayout, ACapacityNotAPowerOfTwoGetsTheNextPowerAsItsSize) {
  zns_media m = small();
  zns_layout l;
  ASSERT_EQ(zns_layout_derive(&m, &l), ZNS_LAYOUT_OK);
  EXPECT_EQ(l.zcap, 12u);   // 2 dies x 3 pages x 2 planes
  EXPECT_EQ(l.zsze, 16u);
  EXPECT_EQ(l.zsze_shift, 4u);
  EXPECT_EQ(l.nr_zones, 8u);   // (6 - 2 spare) blocks x 2 groups
  uint64_t sec;
  EXPECT_EQ(zns_zone_of(&l, 47, &sec), 2u);
  EXPECT_EQ(sec, 15u);       // in zone 2's gap (12 .. 15)
  m.pow2_zone_size = 0;
  ASSERT_EQ(zns_layout_derive(&m, &l), ZNS_LAYOUT_OK);
  EXPECT_EQ(l.zsze, 12u);
  EXPECT_EQ(l.zsze_shift, 0u);
  EXPECT_EQ(zns_zone_of(&l, 47, &sec), 3u);
  EXPECT_EQ(sec, 11u);
  m.stripes_per_zone = 2;   // 2 stripes per zone: (6 - 2) / 2 = 2 zones per group
  ASSERT_EQ(zns_layout_derive(&m, &l), ZNS_LAYOUT_OK);
  EXPECT_EQ(l.zcap, 24u);
  EXPECT_EQ(l.nr_zones, 4u);
}

TEST(ZnsLayout, EveryZoneSectorHasItsOwnFlashLocationAndTheInverseFindsIt) {
  for (uint32_t stripes : {1u, 2u}) {
    zns_media m = small();
    m.stripes_per_zone = stripes;
    zns_layout l;
    ASSERT_EQ(zns_layout_derive(&m, &l), ZNS_LAYOUT_OK);
    std::set<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>> seen;
    for (uint32_t z = 0; z < l.nr_zones; z++)
      for (uint32_t s = 0; s < l.zcap; s++) {
        const zns_flash_addr a = zns_flash_of(&l, z, s);
        EXPECT_LT(a.die, l.dies);
        EXPECT_LT(a.block, m.blocks_per_plane - m.spare_stripes);
        EXPECT_LT(a.page, l.pages);
        EXPECT_TRUE(seen.insert({a.die, a.block, a.page, a.off}).second) << "zone " << z << " sector " << s;
        uint32_t z2 = 0, s2 = 0;
        ASSERT_TRUE(zns_zone_at(&l, &a, &z2, &s2));
        EXPECT_EQ(z2, z);
        EXPECT_EQ(s2, s);
      }
    EXPECT_EQ(seen.size(), uint64_t(l.dies) * (m.blocks_per_plane - m.spare_stripes) * l.pages * l.unit);
    const zns_flash_addr spare{0, m.blocks_per_plane - 1, 0, 0};
    uint32_t z2, s2;
    EXPECT_FALSE(zns_zone_at(&l, &spare, &z2, &s2));
  }
}

TEST(ZnsLayout, WritesStripeAcrossTheGroupsDiesAndNeighbouringZonesAcrossGroups) {
  const zns_media m = small();
  zns_layout l;
  ASSERT_EQ(zns_layout_derive(&m, &l), ZNS_LAYOUT_OK);
  // Zone 0 on dies 0-1, zone 1 on dies 2-3; units alternate dies, then the page advances.
  const uint32_t want_die[] = {0, 0, 1, 1, 0, 0, 1, 1};
  const uint32_t want_page[] = {0, 0, 0, 0, 1, 1, 1, 1};
  for (uint32_t s = 0; s < 8; s++) {
    const zns_flash_addr a = zns_flash_of(&l, 0, s);
    EXPECT_EQ(a.die, want_die[s]) << s;
    EXPECT_EQ(a.page, want_page[s]) << s;
    EXPECT_EQ(a.off, s % 2);
    EXPECT_EQ(a.block, 0u);
  }
  EXPECT_EQ(zns_flash_of(&l, 1, 0).die, 2u);
  EXPECT_EQ(zns_flash_of(&l, 2, 0).die, 0u);
  EXPECT_EQ(zns_flash_of(&l, 2, 0).block, 1u);
}

TEST(ZnsLayout, ImpossibleChoicesAreRefusedWithTheReason) {
  zns_media m = small();
  zns_layout l;
  m.dies_per_zone = 3;
  EXPECT_EQ(zns_layout_derive(&m, &l), ZNS_LAYOUT_DIE_GROUPS);
  m = small();
  m.spare_stripes = 6;
  EXPECT_EQ(zns_layout_derive(&m, &l), ZNS_LAYOUT_NO_ZONES);
  m = small();
  m.stripes_per_zone = 5;
  EXPECT_EQ(zns_layout_derive(&m, &l), ZNS_LAYOUT_NO_ZONES);
  m = small();
  m.stripes_per_zone = 0;
  EXPECT_EQ(zns_layout_derive(&m, &l), ZNS_LAYOUT_EMPTY);
  m = small();
  m.max_open = 3;
  m.max_active = 2;
  EXPECT_EQ(zns_layout_derive(&m, &l), ZNS_LAYOUT_LIMITS);
  m.max_open = 0;
  m.max_active = 9;   // 8 zones
  EXPECT_EQ(zns_layout_derive(&m, &l), ZNS_LAYOUT_LIMITS);
  m = small();
  m.zasl_sectors = 3;
  EXPECT_EQ(zns_layout_derive(&m, &l), ZNS_LAYOUT_ZASL);
  m.zasl_sectors = 16;   // above a zone's 12
  EXPECT_EQ(zns_layout_derive(&m, &l), ZNS_LAYOUT_ZASL);
  m = small();
  m.mixed_cells = 1;
  EXPECT_EQ(zns_layout_derive(&m, &l), ZNS_LAYOUT_MIXED_CELLS);
  EXPECT_STRNE(zns_layout_error_text(ZNS_LAYOUT_DIE_GROUPS), "unknown");
}

TEST(ZnsLayout, IdentifyCarriesTheLimitsZeroBasedAndTheZoneSize) {
  zns_media m = small();
  m.max_open = 2;
  m.max_active = 3;
  zns_layout l;
  ASSERT_EQ(zns_layout_derive(&m, &l), ZNS_LAYOUT_OK);
  ssd_zns_id_ns ns;
  ssd_zns_id_ctrl ctrl;
  zns_identify(&l, &ns, &ctrl);
  EXPECT_EQ(ns.mor, 1u);
  EXPECT_EQ(ns.mar, 2u);
  EXPECT_EQ(ns.lbafe[0].zsze, 16u);
  EXPECT_EQ(ctrl.zasl, 2u);   // 4 sectors = 2^2 minimum pages
  ssd_zns_vs vs;
  memcpy(&vs, ns.vs, sizeof(vs));
  EXPECT_EQ(vs.nr_zones, 8u);
  EXPECT_EQ(vs.zcap, 12u);
  m.max_open = m.max_active = 0;
  ASSERT_EQ(zns_layout_derive(&m, &l), ZNS_LAYOUT_OK);
  zns_identify(&l, &ns, &ctrl);
  EXPECT_EQ(ns.mor, 0xFFFFFFFFu);
  EXPECT_EQ(ns.mar, 0xFFFFFFFFu);
}
