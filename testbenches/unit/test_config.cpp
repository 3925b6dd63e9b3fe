// Configuration: defaults, TOML loading, --set overrides, and every kind of bad value
// named by key (and file:line for file values); docs/config.md equals the generated text.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "models/common/config.h"
#include "models/common/params.h"

using ssdvp::Config;
using ssdvp::ConfigError;
using ssdvp::PlatformParams;

namespace {

std::string write_temp(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("ssdvp_cfg_" + std::to_string(::getpid()) + "_" + name);
  std::ofstream(path) << text;
  return path.string();
}

std::string error_of(const std::string& toml, const std::vector<std::string>& sets = {}) {
  try {
    const std::string path = toml.empty() ? std::string() : write_temp("t.toml", toml);
    Config c = Config::load(path, sets);
    PlatformParams::from(c);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(Config, DefaultsMakeAValidPlatform) {
  Config c;
  PlatformParams p = PlatformParams::from(c);
  EXPECT_EQ(p.nand.channels, 8u);
  EXPECT_EQ(p.nand.sectors_per_page, 1u);
  EXPECT_EQ(p.ftl.gc_policy, "greedy");
}

TEST(Config, EveryShippedPlatformLoads) {
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(std::string(SSDVP_SOURCE_DIR) + "/platforms")) {
    if (e.path().extension() != ".toml") continue;
    SCOPED_TRACE(e.path().string());
    Config c = Config::load(e.path().string());
    EXPECT_NO_THROW(PlatformParams::from(c));
    n++;
  }
  EXPECT_GE(n, 4);
}

TEST(Config, FileValuesAndOverrides) {
  const std::string path = write_temp("ok.toml", "[nand]\nchannels = 2\n[nand.mlc]\nt_read_us = [50, 70]\n");
  Config c = Config::load(path, {"nand.ways=3", "ftl.gc_policy=fifo"});
  EXPECT_EQ(c.get_int("nand.channels"), 2);
  EXPECT_EQ(c.get_int("nand.ways"), 3);
  EXPECT_EQ(c.get_string("ftl.gc_policy"), "fifo");
  EXPECT_EQ(c.get_list("nand.mlc.t_read_us"), (std::vector<double>{50, 70}));
  EXPECT_EQ(c.origin("nand.channels"), path + ":2");
}

TEST(Config, UnknownKeyNamesKeyAndLine) {
  const std::string e = error_of("[nand]\nchannels = 2\nchanels = 3\n");
  EXPECT_NE(e.find("unknown configuration key 'nand.chanels'"), std::string::npos) << e;
  EXPECT_NE(e.find(":3"), std::string::npos) << e;
}

TEST(Config, UnknownKeyInSet) {
  EXPECT_NE(error_of("", {"nand.bogus=1"}).find("'nand.bogus'"), std::string::npos);
  EXPECT_NE(error_of("", {"novalue"}).find("expected key=value"), std::string::npos);
}

TEST(Config, WrongTypes) {
  EXPECT_NE(error_of("[nand]\nchannels = \"eight\"\n").find("nand.channels: expected an integer"), std::string::npos);
  EXPECT_NE(error_of("", {"sim.payload=maybe"}).find("sim.payload"), std::string::npos);
  EXPECT_NE(error_of("[nand]\ncell = 3\n").find("nand.cell: expected a string"), std::string::npos);
}

TEST(Config, ImpossibleValuesNameTheKey) {
  // The range in the key's own type (an integer key's was printed as 64.000000).
  EXPECT_NE(error_of("", {"nand.channels=0"}).find("nand.channels = 0 is outside 1 .. 64"), std::string::npos)
      << error_of("", {"nand.channels=0"});
  EXPECT_EQ(error_of("", {"nand.channels=0"}).find(".000000"), std::string::npos);
  EXPECT_NE(error_of("", {"ftl.op=0.95"}).find("ftl.op = 0.95 is outside 0 .. 0.9"), std::string::npos)
      << error_of("", {"ftl.op=0.95"});
  EXPECT_NE(error_of("", {"ftl.op=-0.1"}).find("ftl.op"), std::string::npos);
  EXPECT_NE(error_of("", {"nand.page_bytes=6144"}).find("nand.page_bytes = 6144 is not a multiple of 4096"),
            std::string::npos);
  EXPECT_NE(error_of("", {"nand.cell=qlc"}).find("not one of slc|mlc|tlc"), std::string::npos);
  EXPECT_NE(error_of("", {"ftl.lapt.tie_order=newest-first"}).find("ftl.lapt.tie_order"), std::string::npos)
      << error_of("", {"ftl.lapt.tie_order=newest-first"});
  EXPECT_NE(error_of("", {"ftl.lapt.logical_block=page"}).find("ftl.lapt.logical_block"), std::string::npos);
  EXPECT_NE(error_of("", {"ftl.logical_sectors=999999999"}).find("ftl.logical_sectors = 999999999"), std::string::npos);
  {  // SLC pools with their own thresholds: room for one migration (or combo's GC copies)
    const std::vector<std::string> mixed = {"nand.slc_dies=1", "nand.slc.blocks_per_plane=4", "ftl.placement=lapt"};
    auto with = [&](std::vector<std::string> more) {
      more.insert(more.begin(), mixed.begin(), mixed.end());
      return error_of("", more);
    };
    EXPECT_NE(with({"ftl.slc_gc_low_blocks=1", "ftl.slc_gc_high_blocks=3"}).find("ftl.slc_gc_high_blocks = 3 leaves no room for a migration"),
              std::string::npos) << with({"ftl.slc_gc_low_blocks=1", "ftl.slc_gc_high_blocks=3"});
    EXPECT_NE(with({"ftl.slc_gc_high_blocks=2"}).find("ftl.slc_gc_low_blocks"), std::string::npos);
    EXPECT_NE(with({"ftl.slc_gc_low_blocks=2", "ftl.slc_gc_high_blocks=1"}).find("ftl.slc_gc_high_blocks = 1 is below"),
              std::string::npos);
    // combo's SLC GC copies back: host data leaves it the GC reserve, so its GC must start at 2
    EXPECT_NE(with({"ftl.placement=combo", "ftl.slc_gc_low_blocks=1", "ftl.slc_gc_high_blocks=1"})
                  .find("ftl.slc_gc_low_blocks = 1 with ftl.placement = combo"),
              std::string::npos)
        << with({"ftl.placement=combo", "ftl.slc_gc_low_blocks=1", "ftl.slc_gc_high_blocks=1"});
    EXPECT_EQ(with({"ftl.placement=combo", "ftl.slc_gc_low_blocks=2", "ftl.slc_gc_high_blocks=2"}), "");
    EXPECT_NE(with({"ftl.placement=none", "ftl.slc_gc_low_blocks=1", "ftl.slc_gc_high_blocks=1"})
                  .find("applies to the SLC pools of a placement policy"),
              std::string::npos);
    EXPECT_EQ(with({"ftl.slc_gc_low_blocks=1", "ftl.slc_gc_high_blocks=2"}), "");   // 2 + one open + one migrated = 4
    EXPECT_NE(with({}).find("nand.slc.blocks_per_plane"), std::string::npos);    // the general thresholds need more
  }
  EXPECT_NE(error_of("", {"ftl.gc_low_blocks=9", "ftl.gc_high_blocks=4"}).find("ftl.gc_high_blocks"), std::string::npos);
  EXPECT_NE(error_of("", {"nand.mlc.t_read_us=[1,2,3]"}).find("give 1 or 2"), std::string::npos);
  EXPECT_NE(error_of("", {"nand.slc_dies=999"}).find("nand.slc_dies"), std::string::npos);
  EXPECT_NE(error_of("", {"nand.slc.blocks_per_plane=64"}).find("nand.slc.blocks_per_plane = 64 sizes an SLC region, but nand.slc_dies = 0"),
            std::string::npos);
  EXPECT_NE(error_of("", {"nand.slc_dies=1", "nand.slc.blocks_per_plane=12"}).find("nand.slc.blocks_per_plane = 12 leaves no room"),
            std::string::npos);
  EXPECT_NE(error_of("", {"ftl.placement=lapt"}).find("ftl.placement = \"lapt\" needs an SLC region and an MLC region (nand.slc_dies = 0 of 32 dies, nand.pslc.blocks_per_plane = 0)"),
            std::string::npos);
  // pSLC cache: on SLC dies, next to SLC dies, too small or too large, unused
  EXPECT_NE(error_of("", {"nand.cell=slc", "nand.pslc.blocks_per_plane=32", "ftl.placement=lapt"})
                .find("nand.pslc.blocks_per_plane = 32 puts blocks of MLC/TLC dies in SLC mode, but nand.cell = \"slc\""),
            std::string::npos);
  EXPECT_NE(error_of("", {"nand.slc_dies=4", "nand.pslc.blocks_per_plane=32", "ftl.placement=lapt"})
                .find("a device has one SLC region, SLC dies or a pSLC cache, not both"),
            std::string::npos);
  EXPECT_NE(error_of("", {"nand.pslc.blocks_per_plane=8", "ftl.placement=lapt"}).find("nand.pslc.blocks_per_plane = 8 leaves no room"),
            std::string::npos);
  EXPECT_NE(error_of("", {"nand.pslc.blocks_per_plane=512", "ftl.placement=lapt"}).find("nand.pslc.blocks_per_plane = 512 leaves no native blocks"),
            std::string::npos);
  EXPECT_NE(error_of("", {"nand.pslc.blocks_per_plane=500", "ftl.placement=lapt"}).find("nand.pslc.blocks_per_plane = 500 of nand.blocks_per_plane = 512 leaves no room for data"),
            std::string::npos);
  EXPECT_NE(error_of("", {"nand.pslc.blocks_per_plane=32"}).find("nand.pslc.blocks_per_plane = 32 makes an SLC cache, but ftl.placement = \"none\""),
            std::string::npos);
  EXPECT_NE(error_of("", {"nand.pslc.blocks_per_plane=32", "ftl.placement=lapt", "nand.pslc.t_prog_us=[300,400]"}).find("nand.pslc.t_prog_us has 2 values"),
            std::string::npos);
  EXPECT_EQ(error_of("", {"nand.pslc.blocks_per_plane=32", "ftl.placement=lapt"}), "");
  EXPECT_NE(error_of("", {"ftl.placement=slc-only", "nand.slc_dies=32"}).find("needs an SLC region and an MLC region"),
            std::string::npos);
  EXPECT_NE(error_of("", {"ftl.placement=lapt", "nand.slc_dies=4", "ftl.mapping=dftl"}).find("works with ftl.mapping = \"opt\" only"),
            std::string::npos);
  EXPECT_NE(error_of("", {"ftl.placement=combo"}).find("ftl.placement = \"combo\" needs an SLC region"), std::string::npos);
  // slc-direct empties its cache only while idle: without idle migration it is refused
  EXPECT_NE(error_of("", {"nand.pslc.blocks_per_plane=32", "ftl.placement=slc-direct"})
                .find("ftl.placement = \"slc-direct\" empties its SLC cache only while the host is idle: set ftl.idle_migration_us > 0"),
            std::string::npos);
  EXPECT_EQ(error_of("", {"nand.pslc.blocks_per_plane=32", "ftl.placement=slc-direct", "ftl.idle_migration_us=1000"}), "");
  EXPECT_NE(error_of("", {"ftl.placement=hot-cold"}).find("ftl.placement"), std::string::npos);
  EXPECT_NE(error_of("", {"ftl.combo.hot_write_kib=2"}).find("ftl.combo.hot_write_kib"), std::string::npos);
  // a combo unit's quota larger than the MLC region (28 MLC dies x 512 superblocks = 14336)
  EXPECT_NE(error_of("", {"ftl.placement=combo", "nand.slc_dies=4", "ftl.combo.unit_blocks=14000", "ftl.combo.unit_extra_blocks=300"})
                .find("ftl.combo.unit_blocks: a combo unit may own ftl.combo.unit_blocks + ftl.combo.unit_extra_blocks = 14300 superblocks, more than the MLC region's 14336 less two spare per die"),
            std::string::npos);
  EXPECT_EQ(error_of("", {"ftl.placement=combo", "nand.slc_dies=4", "ftl.combo.unit_blocks=0"}), "");
  EXPECT_NE(error_of("", {"ftl.idle_migration_us=1000"}).find("ftl.idle_migration_us migrates SLC data to MLC: it needs ftl.placement"),
            std::string::npos);
  EXPECT_NE(error_of("", {"ftl.idle_migration_free_ratio=1.5"}).find("ftl.idle_migration_free_ratio"), std::string::npos);
  EXPECT_NE(error_of("", {"host.max_transfer_kib=130"}).find("multiple of 4"), std::string::npos);
  // injected block failures: the syntax, the die and the block must exist
  EXPECT_NE(error_of("", {"nand.fail_at=program:3"}).find("nand.fail_at: 'program:3': give program:DIE:BLOCK[@US]"),
            std::string::npos);
  EXPECT_NE(error_of("", {"nand.fail_at=program:1:2, wipe:0:1"}).find("'wipe:0:1'"), std::string::npos);
  EXPECT_NE(error_of("", {"nand.fail_at=erase:32:0"}).find("die 32 does not exist (32 dies)"), std::string::npos);
  EXPECT_NE(error_of("", {"nand.fail_at=erase:0:512"}).find("block 512 does not exist (512 blocks per plane)"),
            std::string::npos);
  EXPECT_NE(error_of("", {"nand.fail_at=program:0:1@-5"}).find("nand.fail_at"), std::string::npos);
  EXPECT_EQ(error_of("", {"nand.fail_at=program:0:1@250.5, erase:31:511"}), "");
  EXPECT_NE(error_of("", {"nand.factory_bad_permille=600"}).find("nand.factory_bad_permille"), std::string::npos);
  // the SPI NOR: a power of two, large enough for the tables of 32 dies x 512 superblocks
  EXPECT_NE(error_of("", {"device.nor_kib=100"}).find("device.nor_kib = 100 is not a power of two"), std::string::npos);
  EXPECT_NE(error_of("", {"device.nor_kib=64"})
                .find("device.nor_kib = 64 cannot hold the bad-block table and the erase-count log of 16384 superblocks "
                      "(nand.channels x nand.ways x nand.blocks_per_plane): it needs at least 256"),
            std::string::npos);
  EXPECT_EQ(error_of("", {"device.nor_kib=256"}), "");
  EXPECT_NE(error_of("", {"device.nor_kib=32"}).find("device.nor_kib"), std::string::npos);
  EXPECT_NE(error_of("", {"ftl.wear_record_step=0"}).find("ftl.wear_record_step"), std::string::npos);
}

TEST(Config, MoreDramUseThanDramIsAnError) {
  const std::string e = error_of("", {"nand.blocks_per_plane=8192", "dram.size_mib=64"});
  EXPECT_NE(e.find("dram.size_mib = 64 is too small"), std::string::npos) << e;
}

// A key the chosen setting ignores is refused, naming the key, the setting and both origins:
// host.submit_ns under the default host stack was silently zeroed, and two regression tests
// lost their trigger that way.  Every such conflict comes in one error.
TEST(Config, KeyThatTheChosenSettingIgnoresIsRefusedNamingBoth) {
  std::string e = error_of("", {"host.submit_ns=2000"});
  EXPECT_NE(e.find("--set host.submit_ns: host.submit_ns has no effect with host.stack = interrupt (default); it "
                   "applies only with host.stack = none"), std::string::npos) << e;
  e = error_of("[host]\nstack = \"none\"\nirq_ns = 4630\n", {"host.stack=\"poll\"", "host.stack.irq_ns=3000"});
  EXPECT_NE(e.find("t.toml:3: host.irq_ns has no effect with host.stack = poll (--set host.stack)"), std::string::npos) << e;
  EXPECT_NE(e.find("--set host.stack.irq_ns: host.stack.irq_ns has no effect with host.stack = poll"), std::string::npos) << e;
  // Where the setting applies, the same keys are taken; at their defaults they are never in the way.
  EXPECT_EQ(error_of("", {"host.stack=\"none\"", "host.submit_ns=2000", "host.irq_ns=4630", "host.cpu.io_us=3"}), "");
  EXPECT_EQ(error_of("", {"host.stack=\"poll\"", "host.stack.poll_ns=100", "host.stack.submit_ns=1000"}), "");
  EXPECT_EQ(error_of("", {"host.stack=\"none\""}), "");
}

// A choice that needs other keys gives them their values when left at their defaults, in a chain
// (an Open-Channel device: a host FTL, which needs pblk's ring and timed preconditioning), and
// says so; keys set otherwise are conflicts, every one in one error.  (It was one error at a time:
// host.ftl, then precondition.mode, then ftl.write_buffer.)
TEST(Config, ChoicesGiveWhatTheyNeedAndEveryConflictIsOneError) {
  const Config c = Config::load("", {"device.interface=ocssd"});
  EXPECT_EQ(c.get_string("host.ftl"), "pblk");
  EXPECT_EQ(c.get_string("ftl.write_buffer"), "ring");
  EXPECT_EQ(c.get_string("precondition.mode"), "timed");
  EXPECT_EQ(c.origin("host.ftl"), "implied by device.interface = ocssd (--set device.interface)");
  ASSERT_EQ(c.implied().size(), 3u);
  EXPECT_EQ(c.implied()[0], "host.ftl = pblk (device.interface = ocssd (--set device.interface))");
  EXPECT_EQ(c.implied()[1], "ftl.write_buffer = ring (host.ftl = pblk (implied))");
  // A value the need allows is kept: mtftl is a host FTL too.
  EXPECT_EQ(Config::load("", {"device.interface=ocssd", "host.ftl=mtftl"}).get_string("host.ftl"), "mtftl");
  // ... and a host FTL an Open-Channel device, unless it runs over zones.
  EXPECT_EQ(Config::load("", {"host.ftl=pblk"}).get_string("device.interface"), "ocssd");
  EXPECT_EQ(Config::load("", {"host.ftl=pblk", "device.interface=zns"}).get_string("device.interface"), "zns");
  // Nothing implied on a platform that chose nothing.
  EXPECT_TRUE(Config::load("", {}).implied().empty());
  // Functional preconditioning of nothing needs nothing.
  EXPECT_EQ(error_of("", {"host.ftl=pblk", "precondition.mode=\"functional\"", "precondition.fill=0",
                          "precondition.overwrite=0"}), "");
  const std::string e = error_of("[ftl]\nwrite_buffer = \"slots\"\n",
                                 {"host.ftl=pblk", "precondition.mode=\"functional\"", "host.submit_ns=2000"});
  EXPECT_NE(e.find("t.toml:2: ftl.write_buffer = slots conflicts with host.ftl = pblk (--set host.ftl): a host FTL buffers "
                   "writes in pblk's ring: ftl.write_buffer = ring"), std::string::npos) << e;
  EXPECT_NE(e.find("--set precondition.mode: precondition.mode = functional conflicts with host.ftl = pblk"), std::string::npos) << e;
  EXPECT_NE(e.find("--set host.submit_ns: host.submit_ns has no effect"), std::string::npos) << "and a key without effect, in the same error: " << e;
}

// Test aids are listed apart: the keys on (not at their default) as "key = value".
TEST(Config, TestAidsOnAreNamed) {
  EXPECT_TRUE(Config::load("", {}).test_aids_on().empty());
  EXPECT_TRUE(Config::load("", {"ftl.test_defect=none", "ftl.gc_check_victims=false"}).test_aids_on().empty());
  const auto on = Config::load("", {"ftl.test_defect=flush-before-program", "sim.check_flush_durability=true"}).test_aids_on();
  ASSERT_EQ(on.size(), 2u);
  EXPECT_EQ(on[0], "ftl.test_defect = flush-before-program");
  EXPECT_EQ(on[1], "sim.check_flush_durability = true");
  std::vector<std::string> roles;
  for (const auto& k : ssdvp::config_schema())
    if (k.role == ssdvp::KeyRole::TestAid) roles.push_back(k.key);
  EXPECT_EQ(roles, (std::vector<std::string>{"ftl.check_pool_walk", "ftl.gc_check_victims", "ftl.test_defect",
                                             "sim.check_flush_durability"}));
}

TEST(Config, MalformedTomlNamesFileAndLine) {
  const std::string e = error_of("[nand]\nchannels = = 2\n");
  EXPECT_NE(e.find(":2"), std::string::npos) << e;
}

TEST(Config, DocsEqualGeneratedReference) {
  std::ifstream in(std::string(SSDVP_SOURCE_DIR) + "/docs/config.md");
  std::stringstream s;
  s << in.rdbuf();
  EXPECT_EQ(s.str(), ssdvp::config_reference_markdown())
      << "docs/config.md is out of date: regenerate it with `ssdvp config-doc > docs/config.md`";
}
