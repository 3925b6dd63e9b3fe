// SectorStore (models/nand/sector_store.h): a block's tags and OOB words, lean while every tag
// is implied by its OOB (preconditioned data, padding, erased), compact while tag and OOB name
// the same sector, wide from the first sector that does not; reads return what was written in
// every form.
#include <gtest/gtest.h>

#include <vector>

#include "models/nand/sector_store.h"

using ssdvp::nand::Sector;
using ssdvp::nand::SectorStore;

namespace {

Sector host(uint32_t lba, uint32_t host_seq, uint32_t ftl_seq) { return Sector{{lba, host_seq}, {lba, ftl_seq}}; }

void expect_same(const Sector& a, const Sector& b, size_t i) {
  EXPECT_EQ(a.tag.lba, b.tag.lba) << "sector " << i;
  EXPECT_EQ(a.tag.seq, b.tag.seq) << "sector " << i;
  EXPECT_EQ(a.oob.lpa, b.oob.lpa) << "sector " << i;
  EXPECT_EQ(a.oob.seq, b.oob.seq) << "sector " << i;
}

}  // namespace

TEST(SectorStore, PreconditionedDataAndPaddingStayLeanAndReadBackExactly) {
  SectorStore s;
  s.allocate(8);
  EXPECT_EQ(s.form(), SectorStore::kLean);
  EXPECT_EQ(s.words_per_sector(), 2u);
  expect_same(s.get(5), Sector{}, 5);   // erased: all ones
  const Sector in[3] = {host(17, 0, 900), host(0xFFFFFFFEu, 0, 1),
                        Sector{{0, 0}, {0xFFFFFFFFu, 901}}};   // padding: zeros, no LPA
  s.put(2, in, 3);
  EXPECT_EQ(s.form(), SectorStore::kLean);
  for (size_t i = 0; i < 3; i++) expect_same(s.get(2 + i), in[i], 2 + i);
  expect_same(s.get(7), Sector{}, 7);
}

TEST(SectorStore, AHostWritesSequenceMakesALeanBlockCompactKeepingWhatItHeld) {
  SectorStore s;
  s.allocate(8);
  std::vector<Sector> want(8);
  for (uint32_t i = 0; i < 3; i++) want[i] = host(40 + i, 0, 10 + i);   // preconditioned
  s.put(0, want.data(), 3);
  ASSERT_EQ(s.form(), SectorStore::kLean);
  want[3] = host(99, 7, 13);   // a host write: its own sequence
  want[4] = Sector{{0, 0}, {0xFFFFFFFFu, 14}};
  s.put(3, &want[3], 2);
  EXPECT_EQ(s.form(), SectorStore::kCompact);
  EXPECT_EQ(s.words_per_sector(), 3u);
  for (size_t i = 0; i < want.size(); i++) expect_same(s.get(i), want[i], i);
}

TEST(SectorStore, EverySectorOutsideTheCompactFormsWidens) {
  const Sector others[] = {
      Sector{{18, 3}, {17, 900}},                          // tag and OOB name different sectors
      Sector{{0xFFFFFFFFu, 0xFFFFFFFFu}, {0xFFFFFFFFu, 5}},   // all-ones data with an OOB sequence
      Sector{{0, 4}, {0, 0xFFFFFFFFu}} /* fits: host data of sector 0 */,
      Sector{{7, 0xFFFFFFFFu}, {0xFFFFFFFFu, 0xFFFFFFFFu}},  // a tag with an erased OOB
  };
  const bool widens[] = {true, true, false, true};
  for (size_t c = 0; c < 4; c++) {
    SectorStore s;
    s.allocate(2);
    s.put(1, &others[c], 1);
    EXPECT_EQ(s.wide(), widens[c]) << "case " << c;
    expect_same(s.get(1), others[c], c);
    expect_same(s.get(0), Sector{}, c);
  }
}

TEST(SectorStore, ASectorWhoseTagAndOobDifferWidensTheBlockKeepingWhatItHeld) {
  SectorStore s;
  s.allocate(6);
  std::vector<Sector> want(6);
  for (uint32_t i = 0; i < 4; i++) want[i] = host(100 + i, i + 1, 50 + i);
  s.put(0, want.data(), 4);
  ASSERT_FALSE(s.wide());
  want[4] = Sector{{0x12345678u, 0x9abcdef0u}, {0xFFFFFFFFu, 77}};   // a metadata page: OOB names no LBA
  want[5] = host(200, 9, 78);
  s.put(4, &want[4], 2);
  EXPECT_TRUE(s.wide());
  EXPECT_EQ(s.words_per_sector(), 4u);
  for (size_t i = 0; i < want.size(); i++) expect_same(s.get(i), want[i], i);
}

TEST(SectorStore, ResetAndAllocateMakeItLeanAgain) {
  SectorStore s;
  s.allocate(2);
  const Sector meta{{1, 2}, {3, 4}};
  s.put(0, &meta, 1);
  ASSERT_TRUE(s.wide());
  s.reset();
  EXPECT_FALSE(s.allocated());
  s.allocate(2);
  EXPECT_EQ(s.form(), SectorStore::kLean);
  expect_same(s.get(0), Sector{}, 0);
}

TEST(SectorStore, RawWordsRoundTripInEveryForm) {
  for (SectorStore::Form form : {SectorStore::kLean, SectorStore::kCompact, SectorStore::kWide}) {
    SectorStore a;
    a.allocate(3);
    const Sector middle = form == SectorStore::kWide      ? Sector{{9, 8}, {7, 6}}
                          : form == SectorStore::kCompact ? host(4, 5, 6)
                                                          : host(4, 0, 6);
    const Sector in[3] = {host(1, 0, 3), middle, Sector{{0, 0}, {0xFFFFFFFFu, 9}}};
    a.put(0, in, 3);
    ASSERT_EQ(a.form(), form);
    SectorStore b;
    uint32_t* w = b.allocate_raw(3, a.form());
    for (size_t i = 0; i < 3 * a.words_per_sector(); i++) w[i] = a.words()[i];
    for (size_t i = 0; i < 3; i++) expect_same(b.get(i), in[i], i);
  }
}
