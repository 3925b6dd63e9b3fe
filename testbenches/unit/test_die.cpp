// NAND die rules and timing: erase-before-write, in-order programming, busy checks (per plane
// with independent plane reads),
// per-cell and per-page-type array times, multi-plane, erase counts, data round trip,
// injected ECC faults, block failures (factory bad blocks, program and erase failures by rate,
// by wear and injected at a block and time).
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <vector>

#include "models/common/config.h"
#include "models/common/params.h"
#include "models/nand/die.h"

using namespace ssdvp;
using nand::ArrayOp;
using nand::Die;
using nand::RuleViolation;
using nand::Sector;
using sc_core::sc_time;
using sc_core::SC_US;

namespace {

NandParams small_nand(std::vector<std::string> sets = {}) {
  sets.push_back("nand.blocks_per_plane=32");
  sets.push_back("nand.planes=2");
  sets.push_back("nand.page_bytes=8192");
  sets.push_back("nand.oob_bytes=64");
  return PlatformParams::from(Config::load("", sets)).nand;
}

// Programs one page on the planes of `mask` with tags (lba = base + plane*8 + sector).
sc_time program(Die& d, uint8_t mask, uint32_t block, uint32_t page, sc_time now, uint32_t base = 100) {
  d.latch(ArrayOp::Program, mask, block, page, now);
  for (uint32_t pl = 0; pl < d.planes(); pl++) {
    if (!(mask >> pl & 1u)) continue;
    for (uint32_t s = 0; s < d.sectors_per_page(); s++) {
      d.page_register(pl)[s].tag = ssd_sector_tag{base + pl * 8 + s, page + 1};
      d.page_register(pl)[s].oob = ssd_oob{base + pl * 8 + s, 7};
    }
  }
  return d.start_array(now);
}

// Sector k of a programmed page as the array holds it.
Sector stored_sector(const Die& d, uint32_t plane, uint32_t block, uint32_t page, uint32_t k) {
  std::vector<Sector> s(d.sectors_per_page());
  EXPECT_TRUE(d.stored(plane, block, page, s.data()));
  return s.at(k);
}

}  // namespace

TEST(Die, ProgramThenReadBackTagsAndOob) {
  NandParams p = small_nand();
  Die d(0, CellType::MLC, p, false);
  sc_time t = program(d, 0x3, 2, 0, sc_time(0, SC_US));
  // Another page programmed in between leaves other data in the page registers: the read
  // must bring the first page's back from the array.
  t = program(d, 0x3, 2, 1, t, 500);
  ASSERT_EQ(d.page_register(1)[1].tag.lba, 500u + 8 + 1);
  d.latch(ArrayOp::Read, 0x2, 2, 0, t);
  d.start_array(t);
  EXPECT_EQ(d.page_register(1)[1].tag.lba, 100u + 8 + 1);
  EXPECT_EQ(d.page_register(1)[1].tag.seq, 1u);
  EXPECT_EQ(d.page_register(1)[1].oob.lpa, 100u + 8 + 1);
  EXPECT_EQ(d.page_register(1)[0].tag.lba, 100u + 8);
  EXPECT_EQ(d.programmed_sectors(), 4u * d.sectors_per_page());
}

TEST(Die, ArrayTimesByCellAndPageType) {
  NandParams p = small_nand({"nand.mlc.t_prog_us=[500, 1500]", "nand.mlc.t_read_us=[40, 70]"});
  Die mlc(0, CellType::MLC, p, false);
  sc_time t0(0, SC_US);
  sc_time t1 = program(mlc, 0x1, 0, 0, t0);
  EXPECT_EQ(t1 - t0, sc_time(500, SC_US));            // LSB page
  sc_time t2 = program(mlc, 0x1, 0, 1, t1);
  EXPECT_EQ(t2 - t1, sc_time(1500, SC_US));           // MSB page
  mlc.latch(ArrayOp::Read, 0x1, 0, 1, t2);
  EXPECT_EQ(mlc.start_array(t2) - t2, sc_time(70, SC_US));
  mlc.latch(ArrayOp::Erase, 0x1, 0, 0, t2 + sc_time(70, SC_US));
  EXPECT_EQ(mlc.start_array(t2 + sc_time(70, SC_US)) - (t2 + sc_time(70, SC_US)), sc_time(3000, SC_US));

  Die slc(1, CellType::SLC, p, false);
  EXPECT_EQ(slc.pages_per_block(), 64u);
  EXPECT_EQ(program(slc, 0x1, 0, 0, t0) - t0, sc_time(200, SC_US));
  slc.latch(ArrayOp::Read, 0x1, 0, 0, sc_time(200, SC_US));
  EXPECT_EQ(slc.start_array(sc_time(200, SC_US)), sc_time(220, SC_US));
}

// A pSLC cache: the first blocks of a TLC die run in SLC mode (their own timing, a third of
// the pages, one page type); the other blocks keep the TLC timing by page type.
TEST(Die, PslcBlocksRunInSlcModeWithTheirOwnTimingAndPages) {
  NandParams p = small_nand({"nand.cell=tlc", "nand.tlc.t_prog_us=[1000,2000,3000]", "nand.pslc.blocks_per_plane=12",
                             "nand.pslc.t_prog_us=[250]", "nand.pslc.t_read_us=[25]", "ftl.placement=lapt"});
  EXPECT_EQ(p.pslc_pages_per_block(), 64u);
  Die d(0, CellType::TLC, p, false);
  EXPECT_TRUE(d.slc_mode(0, 11));
  EXPECT_TRUE(d.slc_mode(1, 11));
  EXPECT_FALSE(d.slc_mode(0, 12));
  EXPECT_EQ(d.pages_in(0, 11), 64u);
  EXPECT_EQ(d.pages_in(1, 12), 192u);
  sc_time t = sc_time(0, SC_US);
  for (uint32_t page = 0; page < 3; page++) {   // SLC mode: every page the same tPROG
    const sc_time end = program(d, 0x3, 11, page, t);
    EXPECT_EQ(end - t, sc_time(250, SC_US)) << page;
    t = end;
  }
  for (uint32_t page = 0; page < 3; page++) {   // native TLC: by page type
    const sc_time end = program(d, 0x3, 12, page, t);
    EXPECT_EQ(end - t, sc_time(1000.0 * (page + 1), SC_US)) << page;
    t = end;
  }
  d.latch(ArrayOp::Read, 0x1, 11, 1, t);
  EXPECT_EQ(d.start_array(t) - t, sc_time(25, SC_US));
  t += sc_time(25, SC_US);
  EXPECT_EQ(d.page_register(0)[0].tag.seq, 2u);
  d.latch(ArrayOp::Erase, 0x3, 11, 0, t, true);   // erase: the die's own tBERS (nand.pslc.t_erase_us = 0)
  EXPECT_EQ(d.start_array(t) - t, sc_time(5000, SC_US));
  t += sc_time(5000, SC_US);
  for (uint32_t page = 0; page < 64; page++) t = program(d, 0x1, 11, page, t);
  try {
    d.latch(ArrayOp::Program, 0x1, 11, 64, t);
    FAIL() << "no violation";
  } catch (const RuleViolation& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("page out of range (an SLC-mode block)"), std::string::npos) << m;
    EXPECT_NE(m.find("block in SLC mode"), std::string::npos) << m;
  }
  // The device's capacity counts SLC-mode blocks at a third of their pages.
  EXPECT_EQ(p.physical_bytes(), uint64_t(p.dies()) * 2 * (20 * 192 + 12 * 64) * 8192);
  // A pSLC cache is for MLC/TLC dies only: an SLC die in the same device has no SLC-mode blocks.
  Die slc(0, CellType::SLC, p, false);
  EXPECT_FALSE(slc.slc_mode(0, 0));
}

// A dynamic SLC cache: each erase sets the block's mode, on any block of the die.
TEST(Die, AnEraseSetsTheBlocksModeSlcOrNative) {
  NandParams p = small_nand({"nand.cell=tlc", "nand.tlc.t_prog_us=[1000,2000,3000]", "nand.pslc.blocks_per_plane=12",
                             "nand.pslc.t_prog_us=[250]", "nand.pslc.t_read_us=[25]", "ftl.placement=slc-only"});
  Die d(0, CellType::TLC, p, false);
  sc_time t = sc_time(0, SC_US);
  // A native block erased in SLC mode: SLC timing and a third of the pages.
  d.latch(ArrayOp::Erase, 0x3, 20, 0, t, true);
  t = d.start_array(t);
  EXPECT_TRUE(d.slc_mode(0, 20));
  EXPECT_TRUE(d.slc_mode(1, 20));
  EXPECT_EQ(d.pages_in(0, 20), 64u);
  for (uint32_t page = 0; page < 3; page++) {
    const sc_time end = program(d, 0x3, 20, page, t);
    EXPECT_EQ(end - t, sc_time(250, SC_US)) << page;
    t = end;
  }
  d.latch(ArrayOp::Read, 0x3, 20, 2, t);
  t += sc_time(25, SC_US);
  EXPECT_EQ(d.start_array(t - sc_time(25, SC_US)), t);
  EXPECT_EQ(d.page_register(1)[0].tag.seq, 3u);
  // Erased without the flag it is native again: TLC timing by page type, every page.
  d.latch(ArrayOp::Erase, 0x3, 20, 0, t);
  t = d.start_array(t);
  EXPECT_FALSE(d.slc_mode(0, 20));
  EXPECT_EQ(d.pages_in(0, 20), 192u);
  EXPECT_EQ(d.next_page(0, 20), 0u);
  for (uint32_t page = 0; page < 3; page++) {
    const sc_time end = program(d, 0x3, 20, page, t);
    EXPECT_EQ(end - t, sc_time(1000.0 * (page + 1), SC_US)) << page;
    t = end;
  }
  // A factory SLC-mode block erased without the flag leaves the cache too.
  d.latch(ArrayOp::Erase, 0x1, 2, 0, t);
  t = d.start_array(t);
  EXPECT_FALSE(d.slc_mode(0, 2));
  EXPECT_TRUE(d.slc_mode(1, 2));
  // A multi-plane operation over blocks in different modes is a firmware bug.
  try {
    d.latch(ArrayOp::Program, 0x3, 2, 0, t);
    FAIL() << "no violation";
  } catch (const RuleViolation& e) {
    EXPECT_NE(std::string(e.what()).find("blocks in different modes"), std::string::npos) << e.what();
  }
  // The modes survive the image (power loss).
  std::stringstream img;
  d.save(img);
  Die e(0, CellType::TLC, p, false);
  e.load(img, "modes.img");
  EXPECT_TRUE(e.slc_mode(0, 0));
  EXPECT_FALSE(e.slc_mode(0, 2));
  EXPECT_TRUE(e.slc_mode(1, 2));
  EXPECT_FALSE(e.slc_mode(0, 20));
  EXPECT_EQ(e.next_page(1, 20), 3u);
  Sector s[2];
  EXPECT_TRUE(e.stored(1, 20, 2, s));
  EXPECT_EQ(s[0].tag.seq, 3u);
  // The flag is meaningless on an SLC die: its blocks stay as they are.
  Die slc(0, CellType::SLC, p, false);
  slc.latch(ArrayOp::Erase, 0x1, 3, 0, sc_time(0, SC_US), true);
  slc.start_array(sc_time(0, SC_US));
  EXPECT_FALSE(slc.slc_mode(0, 3));
  EXPECT_EQ(slc.pages_in(0, 3), slc.pages_per_block());
}

TEST(Die, ProgramOutOfOrderIsAViolationNamingTheAddress) {
  Die d(3, CellType::MLC, small_nand(), false);
  program(d, 0x1, 5, 0, sc_time(0, SC_US));
  try {
    d.latch(ArrayOp::Program, 0x1, 5, 2, sc_time(10000, SC_US));
    FAIL() << "no violation";
  } catch (const RuleViolation& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("out of order"), std::string::npos) << m;
    EXPECT_NE(m.find("die 3"), std::string::npos) << m;
    EXPECT_NE(m.find("block 5 page 2"), std::string::npos) << m;
  }
}

TEST(Die, RewriteWithoutEraseIsAViolation) {
  Die d(0, CellType::MLC, small_nand(), false);
  sc_time t = program(d, 0x1, 1, 0, sc_time(0, SC_US));
  t = program(d, 0x1, 1, 1, t);
  EXPECT_THROW(d.latch(ArrayOp::Program, 0x1, 1, 0, t), RuleViolation);
  d.latch(ArrayOp::Erase, 0x1, 1, 0, t);
  t = d.start_array(t);
  EXPECT_EQ(d.erase_count(0, 1), 1u);
  EXPECT_EQ(d.next_page(0, 1), 0u);
  EXPECT_NO_THROW(program(d, 0x1, 1, 0, t));
}

TEST(Die, CommandWhileBusyIsAViolation) {
  Die d(0, CellType::MLC, small_nand(), false);
  sc_time done = program(d, 0x1, 0, 0, sc_time(0, SC_US));
  EXPECT_FALSE(d.ready(done - sc_time(1, SC_US)));
  EXPECT_THROW(d.latch(ArrayOp::Read, 0x1, 0, 0, done - sc_time(1, SC_US)), RuleViolation);
  EXPECT_TRUE(d.ready(done));
}

// Independent plane reads: a read makes only its planes busy; another plane may read meanwhile,
// the same plane may not, and a program or erase waits for every plane.  Without the feature a
// read makes the whole die busy.  The die's busy time counts the overlap once.
TEST(Die, IndependentPlaneReadsOccupyOnlyTheirPlanes) {
  for (bool indep : {false, true}) {
    Die d(0, CellType::MLC, small_nand({std::string("nand.independent_plane_reads=") + (indep ? "true" : "false")}),
          false);
    const sc_time t0(0, SC_US);
    program(d, 0x3, 0, 0, t0);
    const sc_time t1 = d.busy_until();
    const uint64_t busy_before = d.array_busy_ps();
    d.latch(ArrayOp::Read, 0x1, 0, 0, t1);
    const sc_time end0 = d.start_array(t1);
    const sc_time mid = t1 + (end0 - t1) / 2;
    EXPECT_EQ(d.plane_busy_until(0), end0);
    EXPECT_EQ(d.plane_busy_until(1), indep ? t1 : end0) << indep;
    EXPECT_FALSE(d.ready(mid));
    EXPECT_THROW(d.latch(ArrayOp::Read, 0x1, 0, 0, mid), RuleViolation);       // its own plane
    EXPECT_THROW(d.latch(ArrayOp::Erase, 0x3, 1, 0, mid), RuleViolation);      // the whole die
    if (!indep) {
      EXPECT_THROW(d.latch(ArrayOp::Read, 0x2, 0, 0, mid), RuleViolation);
      continue;
    }
    d.latch(ArrayOp::Read, 0x2, 0, 0, mid);                                   // the other plane
    const sc_time end1 = d.start_array(mid);
    EXPECT_EQ(end1 - mid, end0 - t1);
    EXPECT_EQ(d.busy_until(), end1);
    EXPECT_EQ(d.busy_until(0x1), end0);
    EXPECT_EQ(d.array_busy_ps() - busy_before, uint64_t((end1 - t1).value()));   // the union
    EXPECT_THROW(d.latch(ArrayOp::Program, 0x3, 0, 1, end0), RuleViolation);   // plane 1 still reads
    program(d, 0x3, 0, 1, end1);
    EXPECT_THROW(d.latch(ArrayOp::Read, 0x2, 0, 0, end1), RuleViolation);      // a program takes both
  }
}

TEST(Die, AddressesOutOfRange) {
  Die d(0, CellType::MLC, small_nand(), false);
  EXPECT_THROW(d.latch(ArrayOp::Read, 0x1, 32, 0, sc_time(0, SC_US)), RuleViolation);
  EXPECT_THROW(d.latch(ArrayOp::Read, 0x1, 0, 128, sc_time(0, SC_US)), RuleViolation);
  EXPECT_THROW(d.latch(ArrayOp::Read, 0x4, 0, 0, sc_time(0, SC_US)), RuleViolation);
  EXPECT_THROW(d.latch(ArrayOp::Read, 0x0, 0, 0, sc_time(0, SC_US)), RuleViolation);
}

TEST(Die, MultiPlaneEraseCountsEveryPlaneAndAddsConfiguredTime) {
  NandParams p = small_nand({"nand.multiplane_extra_us=5"});
  Die d(0, CellType::MLC, p, false);
  d.latch(ArrayOp::Erase, 0x3, 7, 0, sc_time(0, SC_US));
  EXPECT_EQ(d.start_array(sc_time(0, SC_US)), sc_time(3005, SC_US));
  EXPECT_EQ(d.erase_count(0, 7), 1u);
  EXPECT_EQ(d.erase_count(1, 7), 1u);
  EXPECT_EQ(d.erase_count(0, 6), 0u);
}

TEST(Die, ErasedPagesReadAsOnes) {
  Die d(0, CellType::MLC, small_nand(), false);
  d.latch(ArrayOp::Read, 0x1, 0, 3, sc_time(0, SC_US));
  d.start_array(sc_time(0, SC_US));
  EXPECT_EQ(d.page_register(0)[0].tag.lba, 0xFFFFFFFFu);
}

TEST(Die, InjectedUncorrectableRateIsHonoured) {
  NandParams p = small_nand({"nand.uncorrectable_per_million=100000"});  // 10%
  Die d(0, CellType::MLC, p, false);
  sc_time t(0, SC_US);
  int bad = 0, total = 0;
  for (int i = 0; i < 2000; i++) {
    d.latch(ArrayOp::Read, 0x1, 0, 0, t);
    t = d.start_array(t);
    for (uint32_t s = 0; s < d.sectors_per_page(); s++, total++) bad += d.read_status(0, s).uncorrectable;
  }
  EXPECT_NEAR(double(bad) / total, 0.10, 0.02);
}

TEST(Die, FunctionalOperationsLeaveTimingAlone) {
  Die d(0, CellType::MLC, small_nand(), false);
  d.functional(ArrayOp::Program, 0x1, 0, 0, [&](uint32_t pl) { d.page_register(pl)[0].tag = {42, 1}; },
               [](uint32_t) {});
  EXPECT_TRUE(d.ready(sc_time(0, SC_US)));
  EXPECT_EQ(d.array_busy_ps(), 0u);
  EXPECT_EQ(d.next_page(0, 0), 1u);
  EXPECT_EQ(stored_sector(d, 0, 0, 0, 0).tag.lba, 42u);
  EXPECT_THROW(d.functional(ArrayOp::Program, 0x1, 0, 0, [](uint32_t) {}, [](uint32_t) {}), RuleViolation);
}

namespace {
// Reads page `page` of plane 0 and returns how many of its sectors are uncorrectable.
uint32_t uncorrectable(Die& d, uint32_t block, uint32_t page, sc_time& t) {
  d.latch(ArrayOp::Read, 0x1, block, page, t);
  t = d.start_array(t);
  uint32_t n = 0;
  for (uint32_t s = 0; s < d.sectors_per_page(); s++) n += d.read_status(0, s).uncorrectable;
  return n;
}
}  // namespace

TEST(Die, PowerCutDuringAProgramLeavesThePageUnreadable) {
  NandParams p = small_nand({"nand.mlc.t_prog_us=[500, 1500]"});
  Die d(0, CellType::MLC, p, false);
  sc_time t = program(d, 0x3, 4, 0, sc_time(0, SC_US));
  d.latch(ArrayOp::Program, 0x3, 4, 1, t);   // an MSB page: its pair is page 0
  d.start_array(t);
  EXPECT_TRUE(d.programming(0, 4, 1, t + sc_time(100, SC_US)));
  EXPECT_NE(d.power_cut(t + sc_time(100, SC_US), false).find("program of die 0"), std::string::npos);
  EXPECT_TRUE(d.corrupt(0, 4, 1));
  EXPECT_TRUE(d.corrupt(1, 4, 1));
  EXPECT_FALSE(d.corrupt(0, 4, 0));            // no paired-page loss
  t += sc_time(100, SC_US);
  EXPECT_EQ(uncorrectable(d, 4, 1, t), d.sectors_per_page());
  EXPECT_EQ(uncorrectable(d, 4, 0, t), 0u);
  EXPECT_EQ(d.power_cut(t, false), "");          // nothing under way: nothing lost
}

TEST(Die, PairedPageLossTakesTheLowerPageOfTheWordLine) {
  NandParams p = small_nand();
  Die d(0, CellType::MLC, p, false);
  sc_time t = program(d, 0x1, 4, 0, sc_time(0, SC_US));
  d.latch(ArrayOp::Program, 0x1, 4, 1, t);
  d.start_array(t);
  EXPECT_NE(d.power_cut(t + sc_time(1, SC_US), true).find("paired"), std::string::npos);
  EXPECT_TRUE(d.corrupt(0, 4, 0));
  EXPECT_TRUE(d.corrupt(0, 4, 1));
}

TEST(Die, PowerCutDuringAnEraseLeavesABlockNeitherErasedNorIntact) {
  NandParams p = small_nand();
  Die d(0, CellType::MLC, p, false);
  sc_time t = program(d, 0x1, 5, 0, sc_time(0, SC_US));
  d.latch(ArrayOp::Erase, 0x1, 5, 0, t);
  d.start_array(t);
  EXPECT_NE(d.power_cut(t + sc_time(10, SC_US), false).find("erase of"), std::string::npos);
  t += sc_time(10, SC_US);
  EXPECT_EQ(uncorrectable(d, 5, 0, t), d.sectors_per_page());
  EXPECT_EQ(uncorrectable(d, 5, 3, t), d.sectors_per_page());
  EXPECT_THROW(d.latch(ArrayOp::Program, 0x1, 5, 0, t), RuleViolation);   // erase first
  d.latch(ArrayOp::Erase, 0x1, 5, 0, t);
  t = d.start_array(t);
  EXPECT_EQ(uncorrectable(d, 5, 0, t), 0u);
  EXPECT_EQ(d.erase_count(0, 5), 2u);
}

TEST(Die, ImageKeepsCompactAndWideBlocksAsTheyWere) {
  NandParams p = small_nand();
  Die a(1, CellType::MLC, p, false);
  sc_time t = program(a, 0x1, 2, 0, sc_time(0, SC_US), 300);   // host data: compact
  t = program(a, 0x1, 3, 0, t, 400);
  a.latch(ArrayOp::Program, 0x1, 3, 1, t);                       // a metadata page: widens block 3
  for (uint32_t s = 0; s < a.sectors_per_page(); s++)
    a.page_register(0)[s] = Sector{{0xA0A0A0A0u + s, 5}, {0xFFFFFFFFu, 11}};
  t = a.start_array(t);
  std::stringstream img;
  a.save(img);
  Die b(1, CellType::MLC, p, false);
  b.load(img, "mixed.img");
  for (uint32_t s = 0; s < a.sectors_per_page(); s++) {
    EXPECT_EQ(stored_sector(b, 0, 2, 0, s).tag.lba, 300u + s);
    EXPECT_EQ(stored_sector(b, 0, 2, 0, s).oob.lpa, 300u + s);
    EXPECT_EQ(stored_sector(b, 0, 3, 0, s).tag.seq, 1u);
    EXPECT_EQ(stored_sector(b, 0, 3, 0, s).oob.seq, 7u);
    EXPECT_EQ(stored_sector(b, 0, 3, 1, s).tag.lba, 0xA0A0A0A0u + s);
    EXPECT_EQ(stored_sector(b, 0, 3, 1, s).oob.lpa, 0xFFFFFFFFu);
    EXPECT_EQ(stored_sector(b, 0, 3, 1, s).oob.seq, 11u);
  }
  // Loaded as they were: block 2 still takes host data without widening, and saving again
  // gives the same bytes.
  std::stringstream again;
  b.save(again);
  EXPECT_EQ(again.str(), img.str());
}

TEST(Die, ImageRoundTripsContentsAndRefusesAnotherGeometry) {
  NandParams p = small_nand();
  Die a(3, CellType::MLC, p, false);
  sc_time t = program(a, 0x3, 1, 0, sc_time(0, SC_US), 700);
  t = program(a, 0x3, 1, 1, t, 800);
  a.latch(ArrayOp::Program, 0x1, 1, 2, t);
  a.start_array(t);
  a.power_cut(t + sc_time(1, SC_US), false);
  std::stringstream img;
  a.save(img);
  Die b(3, CellType::MLC, p, false);
  b.load(img, "test.img");
  EXPECT_EQ(b.next_page(0, 1), 3u);
  EXPECT_EQ(b.next_page(1, 1), 2u);
  EXPECT_EQ(stored_sector(b, 1, 1, 1, 1).tag.lba, 800u + 8 + 1);
  EXPECT_EQ(stored_sector(b, 0, 1, 0, 0).oob.lpa, 700u);
  EXPECT_TRUE(b.corrupt(0, 1, 2));
  EXPECT_FALSE(b.corrupt(0, 1, 1));

  std::stringstream img2;
  a.save(img2);
  NandParams other = small_nand({"nand.mlc.pages_per_block=64"});
  Die c(3, CellType::MLC, other, false);
  try {
    c.load(img2, "test.img");
    FAIL() << "an image of another geometry loaded";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("pages per block"), std::string::npos) << e.what();
  }
  std::stringstream cut(img.str().substr(0, 100));
  Die e(3, CellType::MLC, p, false);
  EXPECT_THROW(e.load(cut, "cut.img"), std::runtime_error);
}

namespace {
sc_time erase(Die& d, uint8_t mask, uint32_t block, sc_time now) {
  d.latch(ArrayOp::Erase, mask, block, 0, now);
  return d.start_array(now);
}
}  // namespace

TEST(Die, FactoryBadBlocksCarryTheMarkerAndFailEveryProgramAndErase) {
  NandParams p = small_nand({"nand.factory_bad_permille=250"});
  Die d(0, CellType::MLC, p, false);
  uint32_t bad = 0, block = 0;
  for (uint32_t b = 0; b < d.blocks_per_plane(); b++)
    if (d.bad(0, b) == Die::kFactoryBad) bad++, block = b;
  // 250 per mille of 32 blocks: a binomial draw, 8 expected
  EXPECT_GE(bad, 2u);
  EXPECT_LE(bad, 16u);
  sc_time t = sc_time(0, SC_US);
  d.latch(ArrayOp::Read, 0x1, block, 0, t);
  t = d.start_array(t);
  EXPECT_EQ(d.page_register(0)[0].oob.lpa, 0u);   // the marker: not all ones
  t = program(d, 0x1, block, 0, t);
  EXPECT_TRUE(d.last_failed());
  EXPECT_TRUE(d.corrupt(0, block, 0));
  t = erase(d, 0x1, block, t);
  EXPECT_TRUE(d.last_failed());
  // the same seed picks the same blocks; another die other ones
  Die again(0, CellType::MLC, p, false), other(1, CellType::MLC, p, false);
  uint32_t same = 0, differ = 0;
  for (uint32_t b = 0; b < d.blocks_per_plane(); b++) {
    same += again.bad(0, b) == d.bad(0, b);
    differ += other.bad(0, b) != d.bad(0, b);
  }
  EXPECT_EQ(same, d.blocks_per_plane());
  EXPECT_GT(differ, 0u);
}

TEST(Die, AFailedProgramLeavesThePageUnreadableAndTheBlockBad) {
  NandParams p = small_nand({"nand.fail_at=program:0:4@10"});
  Die d(0, CellType::MLC, p, false);
  sc_time t = program(d, 0x3, 4, 0, sc_time(0, SC_US));   // before 10 us: passes
  EXPECT_FALSE(d.last_failed());
  t = program(d, 0x3, 4, 1, std::max(t, sc_time(10, SC_US)));
  EXPECT_TRUE(d.last_failed());
  EXPECT_EQ(d.failed_programs(), 1u);
  EXPECT_TRUE(d.corrupt(0, 4, 1));
  EXPECT_TRUE(d.corrupt(1, 4, 1));
  EXPECT_FALSE(d.corrupt(0, 4, 0));                       // what was there stays readable
  EXPECT_EQ(d.bad(0, 4), Die::kGrownBad);
  EXPECT_EQ(d.next_page(0, 4), 2u);                        // the write pointer moved past it
  t = program(d, 0x3, 4, 2, t);                            // a grown defect: fails again
  EXPECT_TRUE(d.last_failed());
  t = program(d, 0x3, 5, 0, t);                            // other blocks are fine
  EXPECT_FALSE(d.last_failed());
  // the image keeps the block's state
  std::stringstream img;
  d.save(img);
  Die e(0, CellType::MLC, small_nand(), false);
  e.load(img, "test.img");
  EXPECT_EQ(e.bad(1, 4), Die::kGrownBad);
  EXPECT_EQ(e.bad(0, 5), Die::kGood);
}

TEST(Die, AFailedEraseLeavesTheBlockNeitherErasedNorIntact) {
  NandParams p = small_nand({"nand.fail_at=erase:2:7"});
  Die d(2, CellType::MLC, p, false);
  sc_time t = program(d, 0x3, 7, 0, sc_time(0, SC_US));
  t = erase(d, 0x3, 7, t);
  EXPECT_TRUE(d.last_failed());
  EXPECT_EQ(d.failed_erases(), 1u);
  EXPECT_TRUE(d.corrupt(0, 7, 0));
  EXPECT_EQ(d.next_page(1, 7), d.pages_in(1, 7));             // not programmable
  EXPECT_EQ(d.bad(0, 7), Die::kGrownBad);
  t = erase(d, 0x3, 8, t);                                  // the injection was used up
  EXPECT_FALSE(d.last_failed());
}

TEST(Die, FailureRatesRiseByTheFactorPastTheRatedEndurance) {
  // 2% of erases fail; past 20 P/E cycles 40 times as many (80%).
  NandParams p = small_nand({"nand.erase_fail_per_million=20000", "nand.endurance_pe=20", "nand.worn_fail_factor=40"});
  Die d(0, CellType::MLC, p, false);
  sc_time t = sc_time(0, SC_US);
  uint32_t young = 0, young_tries = 0, old = 0, old_tries = 0;
  for (uint32_t b = 0; b < d.blocks_per_plane(); b++)
    for (uint32_t k = 0; k < 40 && d.bad(0, b) == Die::kGood; k++) {
      const bool worn = d.erase_count(0, b) >= 20;
      t = erase(d, 0x1, b, t);
      (worn ? old_tries : young_tries)++;
      if (d.last_failed()) (worn ? old : young)++;
    }
  ASSERT_GT(young_tries, 300u);
  ASSERT_GT(old_tries, 5u);
  EXPECT_LT(double(young) / young_tries, 0.06);
  EXPECT_GT(double(old) / old_tries, 0.5);
}

// The RBER model (models/nand/rber_model.h): the power law in P/E cycles and data age, and the
// read-retry steps it takes to bring the RBER under the ECC limit.
TEST(RberModel, PowerLawInWearAndAgeAndRetryStepsToTheEccLimit) {
  RberParams p;
  p.base = 1e-4;
  p.wear_coeff = 1e-9;
  p.wear_exp = 2;
  p.retention_coeff = 1e-10;
  p.retention_wear_exp = 1.5;
  p.retention_exp = 0.5;
  nand::RberModel m(p);
  EXPECT_TRUE(m.enabled());
  EXPECT_DOUBLE_EQ(m.rber(0, 0), 1e-4);
  EXPECT_NEAR(m.rber(1000, 100), 1e-4 + 1e-3 + 1e-10 * std::pow(1000.0, 1.5) * 10.0, 1e-12);
  EXPECT_LT(m.rber(1000, 100), m.rber(1000, 1000));   // older data, more errors
  EXPECT_LT(m.rber(1000, 100), m.rber(2000, 100));    // more wear, more errors
  EXPECT_EQ(m.retry_steps(0, 0), 0u);                 // under the limit: the first read decodes
  EXPECT_EQ(m.retry_steps(1000, 100), 1u);            // 1.13e-3 -> 5.7e-4
  p.base = 5e-3;                                      // 5e-3 -> 2.5e-3 -> 1.25e-3 -> 6.25e-4
  EXPECT_EQ(nand::RberModel(p).retry_steps(0, 0), 3u);
  p.max_retries = 2;
  EXPECT_EQ(nand::RberModel(p).retry_steps(0, 0), nand::RberModel::kUncorrectable);
  RberParams aged = p;
  aged.age_offset_hours = 5;                          // data read as if 5 hours older
  EXPECT_DOUBLE_EQ(nand::RberModel(aged).rber(1000, 0), nand::RberModel(p).rber(1000, 5));
  EXPECT_FALSE(nand::RberModel(RberParams{}).enabled());
}

// A read of data needing retries takes another tR plus the ECC retry time per step; past the
// last step the page reads uncorrectable.  The age is the block's, from its first program.
TEST(Die, ReadRetriesGrowWithWearAndDataAge) {
  auto tr = [](Die& d, uint32_t block, sc_time at) {
    d.latch(ArrayOp::Read, 0x1, block, 0, at);
    return d.start_array(at) - at;
  };
  Die plain(0, CellType::MLC, small_nand(), false);
  program(plain, 0x1, 0, 0, sc_time(0, SC_US));
  const sc_time t_read = tr(plain, 0, sc_time(1, sc_core::SC_SEC));

  // RBER = 1e-4 * N * t (hours): N = 10 erases
  Die d(0, CellType::MLC,
        small_nand({"nand.rber.retention_coeff=1e-4", "nand.rber.retention_exp=1", "nand.ecc_retry_us=10"}), false);
  sc_time t(0, SC_US);
  for (int i = 0; i < 10; i++) {
    d.latch(ArrayOp::Erase, 0x1, 0, 0, t);
    t = d.start_array(t);
  }
  const sc_time written = t;
  program(d, 0x1, 0, 0, t);
  const sc_time hour(3600, sc_core::SC_SEC);
  EXPECT_EQ(tr(d, 0, written + 0.9 * hour), t_read);            // 9e-4: decodes at once
  EXPECT_EQ(d.retried_reads(), 0u);
  EXPECT_EQ(tr(d, 0, written + 3.5 * hour), 3.0 * t_read + 2.0 * sc_time(10, SC_US));   // 3.5e-3: 2 steps
  EXPECT_EQ(d.read_status(0, 0).uncorrectable, 0);
  EXPECT_EQ(d.retried_reads(), 1u);
  EXPECT_EQ(d.retry_steps(), 2u);
  // 1e-4 * 10 * 1000 h = 1: more than 8 steps can bring under the limit
  EXPECT_EQ(tr(d, 0, written + 1000.0 * hour), 9.0 * t_read + 8.0 * sc_time(10, SC_US));
  EXPECT_EQ(d.read_status(0, 0).uncorrectable, 1);
  EXPECT_EQ(d.rber_uncorrectable(), 1u);
  // a fresh block (N = 0) keeps its data whatever its age
  program(d, 0x1, 1, 0, written + 1001.0 * hour);
  EXPECT_EQ(tr(d, 1, written + 3000.0 * hour), t_read);
}
