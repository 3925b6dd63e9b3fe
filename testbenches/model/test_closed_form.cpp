// Closed-form checks: the platform must reproduce the timing its configuration implies.
//  * QD1 4 KiB random read on one die: every request's latency equals the sum of the
//    configured path (host, PCIe, firmware cost model, flash controller, bus, tR, DMA).
//  * Sequential read and write bandwidth saturate at the analytical bound — the minimum of
//    the channel buses, the dies' arrays and the host link — within 2%.
// Each TEST builds its own platform and therefore runs in its own process.
#include <gtest/gtest.h>

#include <algorithm>

#include "model/platform_test_support.h"
#include "models/host/host_driver.h"

extern "C" {
#include "ftl-sw/hal/hal.h"
}

using namespace ssdvp;
using ssdvp::test::run_platform;
using ssdvp::test::small_platform;

namespace {

double bytes_ns(double bytes, double mbps) { return bytes / (mbps * 1e-3); }   // MB/s = bytes/us

// Analytical per-sector times of single-plane 4 KiB reads and two-plane programs.
struct Bounds {
  double read_bus_ns, read_die_ns, write_bus_ns, write_die_ns;
};
Bounds bounds(const PlatformParams& p) {
  const auto& ch = p.channel;
  const double xfer = test::ns(ch.transfer(4096));
  const double cmd = test::ns(ch.cmd_addr), setup = test::ns(ch.data_setup), status = test::ns(ch.status);
  const double planes = p.nand.planes;
  Bounds b;
  b.read_bus_ns = cmd + setup + xfer;
  b.read_die_ns = cmd + test::ns(p.nand.mlc.t_read[0]) + setup + xfer;
  b.write_bus_ns = (planes * (cmd + setup + xfer) + status) / planes;
  b.write_die_ns = (planes * (cmd + setup + xfer) + test::ns(p.nand.mlc.t_prog[0]) + status) / planes;
  return b;
}

// MB/s the platform can move for an op with `sectors` per command, from each limit.
double analytic_read_mbps(const PlatformParams& p, uint32_t sectors_per_cmd) {
  const Bounds b = bounds(p);
  const double channels = p.nand.channels, dies = p.nand.dies();
  const double bus = channels * 4096 / b.read_bus_ns * 1e3;
  const double die = dies * 4096 / b.read_die_ns * 1e3;
  const double data = sectors_per_cmd * 4096.0;
  const double wire = sectors_per_cmd * (4096.0 + p.host.tlp_overhead_bytes) + 16 + p.host.tlp_overhead_bytes;
  const double link = p.host.link_mbps * data / wire;
  return std::min({bus, die, link});
}

double analytic_write_mbps(const PlatformParams& p, uint32_t sectors_per_cmd) {
  const Bounds b = bounds(p);
  const double bus = p.nand.channels * 4096 / b.write_bus_ns * 1e3;
  const double die = p.nand.dies() * 4096 / b.write_die_ns * 1e3;
  const double data = sectors_per_cmd * 4096.0;
  const double wire = sectors_per_cmd * (4096.0 + p.host.tlp_overhead_bytes);
  const double link = p.host.link_mbps * data / wire;
  return std::min({bus, die, link});
}

void record(double bound, double got) {
  ::testing::Test::RecordProperty("bound_mbps", std::to_string(bound));
  ::testing::Test::RecordProperty("measured_mbps", std::to_string(got));
}

}  // namespace

namespace {

// One die, QD1 random reads: every read's latency is the sum of the configured steps (the host
// I/O stack's, host.stack, in place of the fixed host delays when it is on: one thread alone on
// its CPU, so its submission and completion take exactly their CPU time).
void check_qd1_read_path(std::vector<std::string> extra) {
  std::vector<std::string> sets = {"nand.channels=1", "nand.ways=1", "nand.blocks_per_plane=64", "dram.size_mib=128",
                                   "precondition.fill=0.5", "precondition.overwrite=0"};
  sets.insert(sets.end(), extra.begin(), extra.end());
  auto run = run_platform(sets, "fio:rw=randread,bs=4k,iodepth=1,size=40%,io=300");
  const auto& r = run.results;
  test::expect_clean(r);
  const PlatformParams& p = run.platform->params();
  const bool irq_stack = p.host.stack == HostParams::Stack::Interrupt, poll_stack = p.host.stack == HostParams::Stack::Poll;
  const double host_submit = test::ns(p.host.submit) + (irq_stack || poll_stack ? test::ns(p.host.stack_submit) : 0.0);
  const double host_completion = test::ns(p.host.irq) + (irq_stack ? test::ns(p.host.stack_irq) : 0.0) +
                                 (poll_stack ? test::ns(p.host.stack_poll) : 0.0);
  const double bw = p.host.link_mbps, L = test::ns(p.host.link_latency), ov = p.host.tlp_overhead_bytes;
  const auto& c = p.firmware.cost;
  const double dram_4k = bytes_ns(4096, p.dram.bandwidth_mbps) + test::ns(p.dram.latency);
  const double expected =
      host_submit                                                 // host builds the command
      + bytes_ns(4 + ov, bw) + L                                  // doorbell
      + L + bytes_ns(64 + ov, bw) + L                             // SQE fetch (read request + data)
      + test::ns(c[HAL_COST_HOST_CMD] + c[HAL_COST_SECTOR] + c[HAL_COST_FLASH_SUBMIT])
      + test::ns(p.fctl.desc)                                     // descriptor fetch/decode
      + test::ns(p.channel.cmd_addr) + test::ns(p.nand.mlc.t_read[0])
      + std::max(test::ns(p.channel.data_setup) + test::ns(p.channel.transfer(4096)),
                 test::ns(p.channel.data_setup) + dram_4k)        // data out, into DRAM
      + test::ns(p.fctl.cpl)                                      // completion posted
      + test::ns(c[HAL_COST_FLASH_DONE] + c[HAL_COST_DMA_SUBMIT])
      + std::max(bytes_ns(4096 + ov, bw) + L, dram_4k)            // DMA to the host
      + bytes_ns(16 + ov, bw) + L + host_completion;              // CQE + interrupt
  const auto& h = run.platform->driver().stats(workload::Op::Read).latency;
  ASSERT_EQ(h.count(), 300u);
  ::testing::Test::RecordProperty("expected_ns", std::to_string(expected));
  ::testing::Test::RecordProperty("measured_min_ns", std::to_string(h.min()));
  ::testing::Test::RecordProperty("measured_max_ns", std::to_string(h.max()));
  // The channel works on its bus clock: the command phase starts at the first clock edge at or
  // after the descriptor arrives and the data-out phase at the first edge at or after tR ends,
  // so a request may take up to two bus cycles more than the sum (rounding: 2 ns).
  const double grid = 2 * test::ns(p.channel.cycle);
  EXPECT_GE(double(h.min()), expected - 2.0) << "expected " << expected << " ns";
  EXPECT_LE(double(h.max()), expected + grid + 2.0) << "expected " << expected << " ns + up to " << grid;
  EXPECT_EQ(r["ftl"]["flash_reads"].get<uint64_t>(), 300u);
  EXPECT_EQ(r["ftl"]["unmapped_reads"].get<uint64_t>(), 0u);
}

}  // namespace

TEST(ClosedForm, Qd1RandomReadOnOneDieEqualsConfiguredPath) { check_qd1_read_path({}); }

TEST(ClosedForm, Qd1RandomReadWithTheInterruptStackEqualsConfiguredPath) {
  check_qd1_read_path({"host.stack=\"interrupt\""});
}

TEST(ClosedForm, Qd1RandomReadWithThePolledStackEqualsConfiguredPath) {
  check_qd1_read_path({"host.stack=\"poll\"", "host.stack.poll_ns=250"});
}

namespace {

// Runs a sequential 128 KiB QD32 workload and checks its bandwidth against the bound.
void check_bandwidth(std::vector<std::string> sets, const std::string& rw, int requests, bool precondition,
                     bool expect_bus_bound = false) {
  sets.push_back("dram.size_mib=256");
  if (precondition) sets.push_back("precondition.overwrite=0");
  else sets.push_back("ftl.write_buffer_mib=2.1");   // its fill must be < 2% of the data
  auto run = run_platform(sets, "fio:rw=" + rw + ",bs=128k,iodepth=32,io=" + std::to_string(requests), precondition);
  test::expect_clean(run.results);
  const PlatformParams& p = run.platform->params();
  const bool read = rw == "read";
  const double bound = read ? analytic_read_mbps(p, 32) : analytic_write_mbps(p, 32);
  if (expect_bus_bound) {
    ASSERT_LT(bound, p.nand.dies() * 4096 / bounds(p).read_die_ns * 1e3);
  }
  const double got = run.results["ops"][read ? "read" : "write"]["mbps"].get<double>();
  record(bound, got);
  EXPECT_NEAR(got, bound, bound * 0.02) << "bound " << bound;
  if (!precondition) {
    EXPECT_EQ(run.results["ftl"]["gc_runs"].get<uint64_t>(), 0u);
  }
}

}  // namespace

// One die per channel: nothing shares a bus, the arrays are the limit.
TEST(ClosedForm, SequentialReadSaturatesDieArrays) {
  check_bandwidth({"nand.channels=8", "nand.ways=1", "nand.blocks_per_plane=64"}, "read", 2000, true);
}

// Eight dies on each slow bus.
TEST(ClosedForm, SequentialReadSaturatesChannelBus) {
  check_bandwidth({"nand.channels=2", "nand.ways=8", "nand.blocks_per_plane=32", "channel.bus_mbps=40"}, "read", 300,
                  true, true);
}

TEST(ClosedForm, SequentialReadSaturatesHostLink) {
  check_bandwidth({"nand.channels=8", "nand.ways=4", "nand.blocks_per_plane=32", "host.link_mbps=200"}, "read", 2000,
                  true);
}

// Writes start from an empty drive, so no GC runs during the measurement.
TEST(ClosedForm, SequentialWriteSaturatesDieArrays) {
  check_bandwidth({"nand.channels=8", "nand.ways=1", "nand.blocks_per_plane=64"}, "write", 1500, false);
}

TEST(ClosedForm, SequentialWriteSaturatesHostLink) {
  check_bandwidth({"nand.channels=8", "nand.ways=4", "nand.blocks_per_plane=64", "host.link_mbps=100",
                   "nand.mlc.t_prog_us=[200]"},
                  "write", 1500, false);
}
