// The zone state machine of a zoned namespace (ftl-sw/zns/zns_zones.h): each command and
// transition of the ZNS specification gives the status the spec names, changes the zone map
// as it says (state, write pointer, resources) and a refused command changes nothing; the
// open and active limits hold, with an implicitly opened zone closed to make room; Zone Append
// answers with the LBAs in acceptance order; Report Zones selects and counts as asked; and a
// long random mix keeps the resource counts equal to the zones' states and within the limits.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

extern "C" {
#include "ftl-sw/hal/regs.h"
#include "ftl-sw/zns/zns_zones.h"
}

namespace {

constexpr uint32_t kNone = 0xFFFFFFFFu;

// 8 zones of capacity 12 and size 16 (ftl-sw/zns/zns_layout.h: 4 dies in 2 groups, 2 planes,
// 3 pages, 2 spare blocks), ZASL 4.
struct Zones {
  zns_layout l;
  std::vector<ssd_zns_zone_desc> desc;
  std::vector<uint64_t> written;
  std::vector<uint32_t> opened_at, resets;
  zns_zones t;
  explicit Zones(uint32_t max_open = 0, uint32_t max_active = 0) {
    zns_media m{};
    m.dies = 4; m.planes = 2; m.blocks_per_plane = 6; m.pages_per_block = 3; m.sectors_per_page = 1;
    m.dies_per_zone = 2; m.stripes_per_zone = 1; m.spare_stripes = 2; m.pow2_zone_size = 1;
    m.zasl_sectors = 4;
    m.max_open = max_open;
    m.max_active = max_active;
    EXPECT_EQ(zns_layout_derive(&m, &l), ZNS_LAYOUT_OK);
    desc.resize(l.nr_zones);
    written.resize(l.nr_zones);
    opened_at.resize(l.nr_zones);
    resets.resize(l.nr_zones);
    zns_zones_init(&t, &l, desc.data(), written.data(), opened_at.data(), resets.data());
  }
  uint8_t state(uint32_t z) const { return zns_state(&t, z); }
  uint64_t start(uint32_t z) const { return uint64_t(z) * 16; }
  uint16_t write(uint32_t z, uint32_t sec, uint32_t n, zns_write_effect* e = nullptr) {
    zns_write_effect tmp;
    return zns_write(&t, start(z) + sec, n, 0, e ? e : &tmp);
  }
  uint16_t append(uint32_t z, uint32_t n, uint64_t* at = nullptr, zns_write_effect* e = nullptr) {
    zns_write_effect tmp;
    zns_write_effect& r = e ? *e : tmp;
    const uint16_t st = zns_write(&t, start(z), n, 1, &r);
    if (at) *at = r.lba;
    return st;
  }
  uint16_t manage(uint32_t z, uint8_t action, uint32_t* closed = nullptr) {
    uint32_t tmp;
    return zns_manage(&t, z, action, closed ? closed : &tmp);
  }
  // A command that fails must leave the table as it was.
  std::vector<uint8_t> snapshot() const {
    std::vector<uint8_t> s(desc.size() * sizeof(ssd_zns_zone_desc));
    std::memcpy(s.data(), desc.data(), s.size());
    s.push_back(uint8_t(t.nr_open));
    s.push_back(uint8_t(t.nr_active));
    return s;
  }
};

}  // namespace

TEST(ZnsZones, EveryZoneStartsEmptyAtItsFirstLba) {
  Zones k;
  for (uint32_t z = 0; z < 8; z++) {
    EXPECT_EQ(k.state(z), SSD_ZNS_ZS_EMPTY);
    EXPECT_EQ(k.desc[z].zt, SSD_ZNS_ZT_SEQ_WRITE_REQUIRED);
    EXPECT_EQ(k.desc[z].zslba, z * 16u);
    EXPECT_EQ(k.desc[z].wp, z * 16u);
    EXPECT_EQ(k.desc[z].zcap, 12u);
  }
  EXPECT_EQ(k.t.nr_open, 0u);
  EXPECT_EQ(k.t.nr_active, 0u);
}

TEST(ZnsZones, AWriteAtTheWritePointerOpensTheZoneImplicitlyAndMovesThePointer) {
  Zones k;
  zns_write_effect e;
  ASSERT_EQ(k.write(3, 0, 5, &e), SSD_ST_OK);
  EXPECT_EQ(e.lba, 48u);
  EXPECT_EQ(e.zone, 3u);
  EXPECT_FALSE(e.filled);
  EXPECT_EQ(e.auto_closed, kNone);
  EXPECT_EQ(k.state(3), SSD_ZNS_ZS_IMPL_OPEN);
  EXPECT_EQ(k.desc[3].wp, 53u);
  EXPECT_EQ(k.written[3], 5u);
  EXPECT_EQ(k.t.nr_open, 1u);
  EXPECT_EQ(k.t.nr_active, 1u);
  EXPECT_EQ(k.write(3, 5, 2), SSD_ST_OK);
  EXPECT_EQ(k.desc[3].wp, 55u);
}

TEST(ZnsZones, AWriteAnywhereButTheWritePointerIsAZoneInvalidWriteAndChangesNothing) {
  Zones k;
  ASSERT_EQ(k.write(0, 0, 4), SSD_ST_OK);
  const auto before = k.snapshot();
  EXPECT_EQ(k.write(0, 5, 1), SSD_ZNS_ST_INVALID_WRITE);   // ahead of it
  EXPECT_EQ(k.write(0, 2, 1), SSD_ZNS_ST_INVALID_WRITE);   // behind it
  EXPECT_EQ(k.write(1, 1, 1), SSD_ZNS_ST_INVALID_WRITE);   // an empty zone's pointer is its start
  EXPECT_EQ(k.snapshot(), before);
}

TEST(ZnsZones, AWriteToTheCapacityFillsTheZoneAndFreesItsResources) {
  Zones k;
  zns_write_effect e;
  ASSERT_EQ(k.write(2, 0, 8), SSD_ST_OK);
  ASSERT_EQ(k.write(2, 8, 4, &e), SSD_ST_OK);
  EXPECT_TRUE(e.filled);
  EXPECT_EQ(k.state(2), SSD_ZNS_ZS_FULL);
  EXPECT_EQ(k.desc[2].wp, 32u + 12u);
  EXPECT_EQ(k.t.nr_open, 0u);
  EXPECT_EQ(k.t.nr_active, 0u);
  const auto before = k.snapshot();
  EXPECT_EQ(k.write(2, 12, 1), SSD_ZNS_ST_ZONE_FULL);
  EXPECT_EQ(k.append(2, 1), SSD_ZNS_ST_ZONE_FULL);
  EXPECT_EQ(k.snapshot(), before);
}

TEST(ZnsZones, AWritePastTheCapacityIsABoundaryErrorAndChangesNothing) {
  Zones k;
  ASSERT_EQ(k.write(1, 0, 10), SSD_ST_OK);
  const auto before = k.snapshot();
  EXPECT_EQ(k.write(1, 10, 3), SSD_ZNS_ST_BOUNDARY_ERROR);   // 10 + 3 > 12
  EXPECT_EQ(k.append(1, 3), SSD_ZNS_ST_BOUNDARY_ERROR);
  EXPECT_EQ(k.write(4, 0, 13), SSD_ZNS_ST_BOUNDARY_ERROR);   // an empty zone stays empty
  EXPECT_EQ(k.snapshot(), before);
  EXPECT_EQ(k.state(4), SSD_ZNS_ZS_EMPTY);
}

TEST(ZnsZones, OutsideTheNamespaceOrNoBlocksIsRefusedAsNvmeSays) {
  Zones k;
  zns_write_effect e;
  EXPECT_EQ(zns_write(&k.t, 8 * 16, 1, 0, &e), SSD_ST_LBA_RANGE);
  EXPECT_EQ(zns_write(&k.t, 8 * 16 - 1, 2, 0, &e), SSD_ST_LBA_RANGE);
  EXPECT_EQ(zns_write(&k.t, ~0ull, 2, 0, &e), SSD_ST_LBA_RANGE);
  EXPECT_EQ(k.write(0, 0, 0), SSD_ST_INVALID_FIELD);
  uint32_t z;
  EXPECT_EQ(zns_check_read(&k.t, 8 * 16, 1, &z), SSD_ST_LBA_RANGE);
  EXPECT_EQ(zns_check_read(&k.t, 0, 0, &z), SSD_ST_INVALID_FIELD);
}

TEST(ZnsZones, ZoneAppendAnswersWithTheLbasInAcceptanceOrder) {
  Zones k;
  uint64_t a = 0, b = 0, c = 0;
  ASSERT_EQ(k.append(5, 4, &a), SSD_ST_OK);
  ASSERT_EQ(k.append(5, 1, &b), SSD_ST_OK);
  ASSERT_EQ(k.write(5, 5, 2), SSD_ST_OK);   // a write at the pointer the appends left
  ASSERT_EQ(k.append(5, 3, &c), SSD_ST_OK);
  EXPECT_EQ(a, 80u);
  EXPECT_EQ(b, 84u);
  EXPECT_EQ(c, 87u);
  EXPECT_EQ(k.desc[5].wp, 90u);
  const auto before = k.snapshot();
  zns_write_effect e;
  EXPECT_EQ(zns_write(&k.t, 81, 1, 1, &e), SSD_ST_INVALID_FIELD);   // not the zone's first LBA
  EXPECT_EQ(k.append(6, 5), SSD_ST_INVALID_FIELD);                   // above ZASL (4)
  EXPECT_EQ(k.snapshot(), before);
}

TEST(ZnsZones, AtTheOpenLimitTheOldestImplicitlyOpenedZoneIsClosedToMakeRoom) {
  Zones k(2, 3);
  ASSERT_EQ(k.write(0, 0, 1), SSD_ST_OK);
  ASSERT_EQ(k.write(1, 0, 1), SSD_ST_OK);
  ASSERT_EQ(k.write(0, 1, 1), SSD_ST_OK);   // zone 0 is still the older opened
  zns_write_effect e;
  ASSERT_EQ(k.write(2, 0, 1, &e), SSD_ST_OK);
  EXPECT_EQ(e.auto_closed, 0u);
  EXPECT_EQ(k.state(0), SSD_ZNS_ZS_CLOSED);
  EXPECT_EQ(k.state(1), SSD_ZNS_ZS_IMPL_OPEN);
  EXPECT_EQ(k.state(2), SSD_ZNS_ZS_IMPL_OPEN);
  EXPECT_EQ(k.t.nr_open, 2u);
  EXPECT_EQ(k.t.nr_active, 3u);
  // A fourth active zone is one too many; writing the closed zone reopens it (closing zone 1).
  const auto before = k.snapshot();
  EXPECT_EQ(k.write(3, 0, 1), SSD_ZNS_ST_TOO_MANY_ACTIVE);
  EXPECT_EQ(k.snapshot(), before);
  ASSERT_EQ(k.write(0, 2, 1, &e), SSD_ST_OK);
  EXPECT_EQ(e.auto_closed, 1u);
  EXPECT_EQ(k.state(0), SSD_ZNS_ZS_IMPL_OPEN);
  EXPECT_EQ(k.state(1), SSD_ZNS_ZS_CLOSED);
}

TEST(ZnsZones, WithOnlyExplicitlyOpenedZonesAtTheLimitAWriteIsTooManyOpen) {
  Zones k(2, 4);
  ASSERT_EQ(k.manage(0, SSD_ZNS_ZSA_OPEN), SSD_ST_OK);
  ASSERT_EQ(k.manage(1, SSD_ZNS_ZSA_OPEN), SSD_ST_OK);
  EXPECT_EQ(k.state(0), SSD_ZNS_ZS_EXPL_OPEN);
  EXPECT_EQ(k.t.nr_active, 2u);
  const auto before = k.snapshot();
  EXPECT_EQ(k.write(2, 0, 1), SSD_ZNS_ST_TOO_MANY_OPEN);
  EXPECT_EQ(k.manage(2, SSD_ZNS_ZSA_OPEN), SSD_ZNS_ST_TOO_MANY_OPEN);
  EXPECT_EQ(k.snapshot(), before);
  ASSERT_EQ(k.write(0, 0, 1), SSD_ST_OK);   // an explicitly opened zone takes writes and stays so
  EXPECT_EQ(k.state(0), SSD_ZNS_ZS_EXPL_OPEN);
}

TEST(ZnsZones, OpenMovesEmptyClosedAndImplicitZonesToExplicitlyOpened) {
  Zones k(3, 3);
  ASSERT_EQ(k.write(0, 0, 1), SSD_ST_OK);
  ASSERT_EQ(k.manage(0, SSD_ZNS_ZSA_OPEN), SSD_ST_OK);   // implicit -> explicit: no new resource
  EXPECT_EQ(k.state(0), SSD_ZNS_ZS_EXPL_OPEN);
  EXPECT_EQ(k.t.nr_open, 1u);
  EXPECT_EQ(k.manage(0, SSD_ZNS_ZSA_OPEN), SSD_ST_OK);   // already: nothing changes
  ASSERT_EQ(k.write(1, 0, 1), SSD_ST_OK);
  ASSERT_EQ(k.manage(1, SSD_ZNS_ZSA_CLOSE), SSD_ST_OK);
  ASSERT_EQ(k.manage(1, SSD_ZNS_ZSA_OPEN), SSD_ST_OK);   // closed -> explicit
  ASSERT_EQ(k.manage(2, SSD_ZNS_ZSA_OPEN), SSD_ST_OK);   // empty -> explicit
  EXPECT_EQ(k.t.nr_open, 3u);
  EXPECT_EQ(k.t.nr_active, 3u);
  ASSERT_EQ(k.manage(2, SSD_ZNS_ZSA_FINISH), SSD_ST_OK);
  EXPECT_EQ(k.manage(2, SSD_ZNS_ZSA_OPEN), SSD_ZNS_ST_INVALID_TRANSITION);   // full
}

TEST(ZnsZones, CloseKeepsWrittenZonesActiveAndSendsAnUnwrittenOneBackToEmpty) {
  Zones k;
  ASSERT_EQ(k.write(0, 0, 3), SSD_ST_OK);
  ASSERT_EQ(k.manage(0, SSD_ZNS_ZSA_CLOSE), SSD_ST_OK);
  EXPECT_EQ(k.state(0), SSD_ZNS_ZS_CLOSED);
  EXPECT_EQ(k.desc[0].wp, 3u);
  EXPECT_EQ(k.t.nr_open, 0u);
  EXPECT_EQ(k.t.nr_active, 1u);
  EXPECT_EQ(k.manage(0, SSD_ZNS_ZSA_CLOSE), SSD_ST_OK);   // closed already
  ASSERT_EQ(k.manage(1, SSD_ZNS_ZSA_OPEN), SSD_ST_OK);
  ASSERT_EQ(k.manage(1, SSD_ZNS_ZSA_CLOSE), SSD_ST_OK);
  EXPECT_EQ(k.state(1), SSD_ZNS_ZS_EMPTY);
  EXPECT_EQ(k.t.nr_active, 1u);
  EXPECT_EQ(k.manage(2, SSD_ZNS_ZSA_CLOSE), SSD_ZNS_ST_INVALID_TRANSITION);   // empty
  ASSERT_EQ(k.manage(2, SSD_ZNS_ZSA_FINISH), SSD_ST_OK);
  EXPECT_EQ(k.manage(2, SSD_ZNS_ZSA_CLOSE), SSD_ZNS_ST_INVALID_TRANSITION);   // full
}

TEST(ZnsZones, FinishFillsEmptyOpenedAndClosedZonesAndFreesTheirResources) {
  Zones k;
  ASSERT_EQ(k.write(0, 0, 3), SSD_ST_OK);
  ASSERT_EQ(k.write(1, 0, 3), SSD_ST_OK);
  ASSERT_EQ(k.manage(1, SSD_ZNS_ZSA_CLOSE), SSD_ST_OK);
  for (uint32_t z : {0u, 1u, 2u}) {
    ASSERT_EQ(k.manage(z, SSD_ZNS_ZSA_FINISH), SSD_ST_OK) << z;
    EXPECT_EQ(k.state(z), SSD_ZNS_ZS_FULL);
    EXPECT_EQ(k.desc[z].wp, z * 16u + 12u);
  }
  EXPECT_EQ(k.written[0], 3u);   // what was written stays; the rest reads as zeros
  EXPECT_EQ(k.written[2], 0u);
  EXPECT_EQ(k.t.nr_open, 0u);
  EXPECT_EQ(k.t.nr_active, 0u);
  EXPECT_EQ(k.manage(0, SSD_ZNS_ZSA_FINISH), SSD_ST_OK);   // full already
  zns_note_read_only(&k.t, 3);
  EXPECT_EQ(k.manage(3, SSD_ZNS_ZSA_FINISH), SSD_ZNS_ST_INVALID_TRANSITION);
}

TEST(ZnsZones, ResetEmptiesAZoneAndCountsAWear) {
  Zones k;
  ASSERT_EQ(k.write(0, 0, 12), SSD_ST_OK);
  ASSERT_EQ(k.write(1, 0, 2), SSD_ST_OK);
  ASSERT_EQ(k.write(2, 0, 2), SSD_ST_OK);
  ASSERT_EQ(k.manage(2, SSD_ZNS_ZSA_CLOSE), SSD_ST_OK);
  for (uint32_t z : {0u, 1u, 2u}) {
    ASSERT_EQ(k.manage(z, SSD_ZNS_ZSA_RESET), SSD_ST_OK) << z;
    EXPECT_EQ(k.state(z), SSD_ZNS_ZS_EMPTY);
    EXPECT_EQ(k.desc[z].wp, z * 16u);
    EXPECT_EQ(k.written[z], 0u);
    EXPECT_EQ(k.resets[z], 1u);
  }
  EXPECT_EQ(k.t.nr_open, 0u);
  EXPECT_EQ(k.t.nr_active, 0u);
  EXPECT_EQ(k.manage(3, SSD_ZNS_ZSA_RESET), SSD_ST_OK);   // empty: nothing to erase
  EXPECT_EQ(k.resets[3], 0u);
  zns_note_offline(&k.t, 4);
  EXPECT_EQ(k.manage(4, SSD_ZNS_ZSA_RESET), SSD_ZNS_ST_INVALID_TRANSITION);
  zns_note_read_only(&k.t, 5);
  EXPECT_EQ(k.manage(5, SSD_ZNS_ZSA_RESET), SSD_ZNS_ST_INVALID_TRANSITION);
  EXPECT_EQ(k.manage(5, 0x9), SSD_ST_INVALID_FIELD);   // no such action
}

TEST(ZnsZones, OnlyAReadOnlyZoneMayBeTakenOffline) {
  Zones k;
  EXPECT_EQ(k.manage(0, SSD_ZNS_ZSA_OFFLINE), SSD_ZNS_ST_INVALID_TRANSITION);
  ASSERT_EQ(k.write(1, 0, 2), SSD_ST_OK);
  EXPECT_EQ(k.manage(1, SSD_ZNS_ZSA_OFFLINE), SSD_ZNS_ST_INVALID_TRANSITION);
  zns_note_read_only(&k.t, 1);   // a program failed
  EXPECT_EQ(k.state(1), SSD_ZNS_ZS_READ_ONLY);
  EXPECT_EQ(k.t.nr_open, 0u);
  EXPECT_EQ(k.t.nr_active, 0u);
  EXPECT_EQ(k.write(1, 2, 1), SSD_ZNS_ST_ZONE_READ_ONLY);
  uint32_t z;
  EXPECT_EQ(zns_check_read(&k.t, 16, 2, &z), SSD_ST_OK);   // still readable
  ASSERT_EQ(k.manage(1, SSD_ZNS_ZSA_OFFLINE), SSD_ST_OK);
  EXPECT_EQ(k.state(1), SSD_ZNS_ZS_OFFLINE);
  EXPECT_EQ(k.write(1, 2, 1), SSD_ZNS_ST_ZONE_OFFLINE);
  EXPECT_EQ(zns_check_read(&k.t, 16, 2, &z), SSD_ZNS_ST_ZONE_OFFLINE);
}

TEST(ZnsZones, AReadAcrossAZoneBoundaryIsABoundaryError) {
  Zones k;
  uint32_t z = 0;
  EXPECT_EQ(zns_check_read(&k.t, 14, 2, &z), SSD_ST_OK);   // the gap past the capacity reads (zeros)
  EXPECT_EQ(z, 0u);
  EXPECT_EQ(zns_check_read(&k.t, 15, 2, &z), SSD_ZNS_ST_BOUNDARY_ERROR);
  EXPECT_EQ(zns_check_read(&k.t, 16, 16, &z), SSD_ST_OK);
  EXPECT_EQ(z, 1u);
}

TEST(ZnsZones, SelectAllAppliesEachActionToTheStatesTheSpecNames) {
  Zones k;
  ASSERT_EQ(k.write(0, 0, 1), SSD_ST_OK);                 // implicitly opened
  ASSERT_EQ(k.manage(1, SSD_ZNS_ZSA_OPEN), SSD_ST_OK);    // explicitly opened
  ASSERT_EQ(k.write(2, 0, 1), SSD_ST_OK);
  ASSERT_EQ(k.manage(2, SSD_ZNS_ZSA_CLOSE), SSD_ST_OK);   // closed
  ASSERT_EQ(k.manage(3, SSD_ZNS_ZSA_FINISH), SSD_ST_OK);  // full
  zns_note_read_only(&k.t, 4);
  zns_note_offline(&k.t, 5);                              // 6, 7 empty
  const char* want[] = {
      // zone:  0 1 2 3 4 5 6 7
      "close   1 1 0 0 0 0 0 0", "finish  1 1 1 0 0 0 0 0", "open    0 0 1 0 0 0 0 0",
      "reset   1 1 1 1 0 0 0 0", "offline 0 0 0 0 1 0 0 0"};
  const uint8_t actions[] = {SSD_ZNS_ZSA_CLOSE, SSD_ZNS_ZSA_FINISH, SSD_ZNS_ZSA_OPEN, SSD_ZNS_ZSA_RESET,
                             SSD_ZNS_ZSA_OFFLINE};
  for (int a = 0; a < 5; a++) {
    std::string got = std::string(want[a]).substr(0, 8);
    for (uint32_t z = 0; z < 8; z++) got += zns_select_all_applies(&k.t, z, actions[a]) ? "1 " : "0 ";
    got.pop_back();
    EXPECT_EQ(got, want[a]);
  }
}

TEST(ZnsZones, ReportZonesSelectsCountsAndStopsAsAsked) {
  Zones k;
  ASSERT_EQ(k.write(1, 0, 3), SSD_ST_OK);
  ASSERT_EQ(k.manage(2, SSD_ZNS_ZSA_FINISH), SSD_ST_OK);
  ASSERT_EQ(k.manage(5, SSD_ZNS_ZSA_FINISH), SSD_ST_OK);
  ASSERT_EQ(k.manage(6, SSD_ZNS_ZSA_FINISH), SSD_ST_OK);
  ssd_zns_report_header h;
  std::vector<ssd_zns_zone_desc> out(8);
  EXPECT_EQ(zns_report(&k.t, 0, SSD_ZNS_ZRAS_ALL, 0, &h, out.data(), 8), 8u);
  EXPECT_EQ(h.nr_zones, 8u);
  EXPECT_EQ(out[1].zs >> 4, SSD_ZNS_ZS_IMPL_OPEN);
  EXPECT_EQ(out[1].wp, 19u);
  // Full zones from zone 3 on (an LBA inside zone 3), room for one: 2 match, 1 returned.
  EXPECT_EQ(zns_report(&k.t, 50, SSD_ZNS_ZRAS_FULL, 0, &h, out.data(), 1), 1u);
  EXPECT_EQ(h.nr_zones, 2u);
  EXPECT_EQ(out[0].zslba, 80u);
  EXPECT_EQ(zns_report(&k.t, 50, SSD_ZNS_ZRAS_FULL, 1, &h, out.data(), 1), 1u);
  EXPECT_EQ(h.nr_zones, 1u);   // partial: the zones returned
  EXPECT_EQ(zns_report(&k.t, 0, SSD_ZNS_ZRAS_EMPTY, 0, &h, out.data(), 8), 4u);
  EXPECT_EQ(zns_report(&k.t, 0, SSD_ZNS_ZRAS_NOT_WP, 0, &h, out.data(), 8), 0u);
  EXPECT_EQ(h.nr_zones, 0u);
  EXPECT_EQ(zns_report(&k.t, 0, 0x8, 0, &h, out.data(), 8), kNone);
  EXPECT_EQ(zns_report(&k.t, 8 * 16, SSD_ZNS_ZRAS_ALL, 0, &h, out.data(), 8), kNone);
}

TEST(ZnsZones, ARandomMixKeepsTheResourceCountsEqualToTheStatesAndWithinTheLimits) {
  Zones k(3, 5);
  std::mt19937 rng(7);
  uint64_t ok = 0, refused = 0;
  for (int i = 0; i < 20000; i++) {
    const uint32_t z = rng() % 8;
    uint16_t st;
    switch (rng() % 6) {
      case 0: st = k.write(z, uint32_t(k.desc[z].wp - k.desc[z].zslba), 1 + rng() % 4); break;
      case 1: st = k.append(z, 1 + rng() % 4); break;
      case 2: st = k.write(z, rng() % 16, 1); break;
      default: st = k.manage(z, uint8_t(1 + rng() % 4)); break;
    }
    (st == SSD_ST_OK ? ok : refused)++;
    uint32_t open = 0, active = 0;
    for (uint32_t y = 0; y < 8; y++) {
      const uint8_t s = k.state(y);
      open += s == SSD_ZNS_ZS_IMPL_OPEN || s == SSD_ZNS_ZS_EXPL_OPEN;
      active += s == SSD_ZNS_ZS_IMPL_OPEN || s == SSD_ZNS_ZS_EXPL_OPEN || s == SSD_ZNS_ZS_CLOSED;
      ASSERT_GE(k.desc[y].wp, k.desc[y].zslba);
      ASSERT_LE(k.desc[y].wp, k.desc[y].zslba + 12);
      if (s != SSD_ZNS_ZS_FULL) {
        ASSERT_EQ(k.written[y], k.desc[y].wp - k.desc[y].zslba);
      }
      if (s == SSD_ZNS_ZS_EMPTY) {
        ASSERT_EQ(k.written[y], 0u);
      }
    }
    ASSERT_EQ(open, k.t.nr_open) << "after step " << i;
    ASSERT_EQ(active, k.t.nr_active) << "after step " << i;
    ASSERT_LE(open, 3u);
    ASSERT_LE(active, 5u);
  }
  EXPECT_GT(ok, 5000u);
  EXPECT_GT(refused, 1000u);
}
