// rtl_tlm_compare: how far the two channel implementations are apart.  A seeded random stream
// of flash operations (reads, two-plane programs, erases, legal for the dies: pages programmed
// in order, blocks erased before reuse) on four ways goes through the TLM channel and through
// the Verilated RTL channel, each with its own dies; the tool prints how many operations
// complete in a different order and the range of RTL - TLM completion times in bus cycles.
//   build/testbenches/rtl_tlm_compare [operations] [seed]
// (The seeded equivalence test of the RTL issue will assert on these figures once they agree.)
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include <cstdio>
#include <cstdlib>

#include <map>
#include <memory>
#include <random>
#include <vector>

#include "models/common/config.h"
#include "models/common/event_queue.h"
#include "models/common/params.h"
#include "models/flash/rtl_channel.h"
#include "models/flash/tlm_channel.h"
#include "models/nand/die.h"

using namespace ssdvp;

namespace {

// Data movement is not under test: page registers keep what they hold, DRAM takes no time.
class NoDataPort : public FlashDataPort {
 public:
  sc_core::sc_time to_die(FlashOp&, nand::Die&, uint32_t, sc_core::sc_time start) override { return start; }
  sc_core::sc_time from_die(FlashOp&, nand::Die&, uint32_t, sc_core::sc_time start) override { return start; }
};

struct Completion {
  uint64_t id;
  sc_core::sc_time t;
};

}  // namespace

int sc_main(int argc, char* argv[]) {
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  constexpr uint32_t kWays = 4;
  const uint32_t kOps = argc > 1 ? uint32_t(std::strtoul(argv[1], nullptr, 10)) : 10000;
  const uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 12345;
  const PlatformParams p = PlatformParams::from(Config::load("", {"nand.channels=1", "nand.ways=4", "nand.planes=2",
                                                                  "nand.blocks_per_plane=32", "nand.mlc.pages_per_block=16"}));
  EventQueue events("events");
  NoDataPort port;
  std::vector<std::unique_ptr<nand::Die>> tlm_dies, rtl_dies;
  std::vector<nand::Die*> tlm_ptrs, rtl_ptrs;
  for (uint32_t w = 0; w < kWays; w++) {
    tlm_dies.push_back(std::make_unique<nand::Die>(w, CellType::MLC, p.nand, false));
    rtl_dies.push_back(std::make_unique<nand::Die>(w, CellType::MLC, p.nand, false));
    tlm_ptrs.push_back(tlm_dies.back().get());
    rtl_ptrs.push_back(rtl_dies.back().get());
  }
  TlmChannel tlm("tlm", p.channel, tlm_ptrs, port, events);
  RtlChannel rtl("rtl", p.channel, rtl_ptrs, port, sc_core::sc_time(50, sc_core::SC_NS));
  std::vector<Completion> tlm_done, rtl_done;
  tlm.on_done([&](FlashOp* op) { tlm_done.push_back({op->id, op->t_done}); });
  const bool log = std::getenv("RTL_TLM_LOG") != nullptr;
  tlm.on_bus_phase = [&](uint32_t w, uint32_t ph, uint64_t id, sc_core::sc_time t) {
    if (log) std::printf("TLM %12.3f us way %u phase %u op %lu\n", t.to_seconds() * 1e6, w, ph, id);
  };
  rtl.on_bus_phase = [&](uint32_t w, uint32_t ph, uint64_t id, sc_core::sc_time t) {
    if (log) std::printf("RTL %12.3f us way %u phase %u op %lu\n", t.to_seconds() * 1e6, w, ph, id);
  };
  rtl.on_done([&](FlashOp* op) { rtl_done.push_back({op->id, op->t_done}); });

  // Legal random operations per die, generated in submission order.
  std::vector<std::unique_ptr<FlashOp>> ops;
  std::mt19937_64 rng(seed);
  struct DieCursor {
    uint32_t block = 0, next_page = 0;
  };
  std::vector<DieCursor> cur(kWays);
  std::vector<uint64_t> arrival_ns;
  uint64_t t = 1000;
  for (uint32_t i = 0; i < kOps; i++) {
    const uint32_t w = uint32_t(rng() % kWays);
    DieCursor& c = cur[w];
    auto make = [&](uint8_t opcode, uint16_t block, uint16_t page, uint16_t nsect) {
      auto op = std::make_unique<FlashOp>();
      op->desc.opcode = opcode;
      op->desc.way = uint8_t(w);
      op->desc.plane_mask = opcode == SSD_FOP_READ ? uint8_t(1u << (rng() % 2)) : 3;
      op->desc.block = block;
      op->desc.page = page;
      op->desc.nsect = nsect;
      op->id = ops.size();
      ops.push_back(std::move(op));
      t += 1000 + rng() % 40000;   // arrivals 1..41 us apart
      arrival_ns.push_back(t);
    };
    const uint32_t r = uint32_t(rng() % 10);
    if (c.next_page == 16) {            // block full: erase the next one and move there
      c.block = (c.block + 1) % 32;
      make(SSD_FOP_ERASE, uint16_t(c.block), 0, 0);
      c.next_page = 0;
    } else if (r < 5 && c.next_page > 0) {
      make(SSD_FOP_READ, uint16_t(c.block), uint16_t(rng() % c.next_page), 1);
    } else {
      make(SSD_FOP_PROGRAM, uint16_t(c.block), uint16_t(c.next_page++), 1);
    }
  }
  // Each operation goes to both channels at its arrival time (copies: each channel owns its op).
  std::vector<std::unique_ptr<FlashOp>> copies;
  for (const auto& op : ops) copies.push_back(std::make_unique<FlashOp>(*op));
  sc_core::sc_spawn([&] {
    for (size_t i = 0; i < ops.size(); i++) {
      const sc_core::sc_time at(static_cast<double>(arrival_ns[i]), sc_core::SC_NS);
      if (at > sc_core::sc_time_stamp()) sc_core::wait(at - sc_core::sc_time_stamp());
      ops[i]->t_submit = copies[i]->t_submit = sc_core::sc_time_stamp();
      tlm.submit(ops[i].get());
      rtl.submit(copies[i].get());
    }
  });
  sc_core::sc_start();   // until both channels are idle
  if (tlm_done.size() != kOps || rtl_done.size() != kOps) {
    std::printf("incomplete: TLM %zu, RTL %zu of %u operations\n", tlm_done.size(), rtl_done.size(), kOps);
    return 1;
  }
  const double cycle_ns = 1e3 / p.channel.bus_mbps;
  size_t order_mismatches = 0, beyond_16 = 0;
  uint64_t first_beyond = UINT64_MAX;
  double max_diff_cycles = 0, min_diff_cycles = 1e18;
  std::map<uint64_t, sc_core::sc_time> tlm_time;
  for (const auto& c : tlm_done) tlm_time[c.id] = c.t;
  for (size_t i = 0; i < kOps; i++) {
    if (tlm_done[i].id != rtl_done[i].id) order_mismatches++;
    const double d = (rtl_done[i].t.to_seconds() - tlm_time[rtl_done[i].id].to_seconds()) * 1e9 / cycle_ns;
    max_diff_cycles = std::max(max_diff_cycles, d);
    min_diff_cycles = std::min(min_diff_cycles, d);
    if (d > 16 || d < -1) {
      beyond_16++;
      first_beyond = std::min(first_beyond, rtl_done[i].id);
    }
  }
  std::printf("%u operations: %zu complete in a different order; RTL - TLM completion %.1f .. %.1f bus cycles; "
              "%zu beyond -1..16 (first: operation %lld)\n", kOps, order_mismatches, min_diff_cycles, max_diff_cycles,
              beyond_16, first_beyond == UINT64_MAX ? -1LL : (long long)first_beyond);
  return 0;
}
