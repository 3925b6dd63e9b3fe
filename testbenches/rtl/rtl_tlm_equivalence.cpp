// RTL/TLM equivalence: a seeded random stream of flash operations (reads of 1..4 sectors on any
// set of the planes, programs and erases of all planes; legal for the dies: pages programmed in
// order, blocks erased before reuse; arrivals from back-to-back to idle gaps) goes through the
// TLM channel and through the Verilated RTL channel, each with its own dies.  Every operation
// must complete in the same order and at the same time in both (tolerance: 0 bus cycles).
// Exit status 0 when they agree; prints the figures either way.  Two planes per die, or with
// `independent` four, reading independently (nand.independent_plane_reads).
//   build/testbenches/rtl_tlm_equivalence [operations] [seed] [ways] [bus_mbps] [independent]
// RTL_TLM_LOG=1 logs every bus phase of both channels.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

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
  const uint32_t kOps = argc > 1 ? uint32_t(std::strtoul(argv[1], nullptr, 10)) : 10000;
  const uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 12345;
  const uint32_t kWays = argc > 3 ? uint32_t(std::strtoul(argv[3], nullptr, 10)) : 4;
  const std::string bus = argc > 4 ? argv[4] : "400";
  const bool independent = argc > 5 && std::string(argv[5]) == "independent";
  const uint32_t kPlanes = independent ? 4 : 2;
  const PlatformParams p = PlatformParams::from(Config::load(
      "", {"nand.channels=1", "nand.ways=" + std::to_string(kWays), "nand.planes=" + std::to_string(kPlanes),
           "nand.blocks_per_plane=32", "nand.mlc.pages_per_block=16", "channel.bus_mbps=" + bus,
           std::string("nand.independent_plane_reads=") + (independent ? "true" : "false")}));
  const sc_core::sc_time lead(50, sc_core::SC_NS);
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
  RtlChannel rtl("rtl", p.channel, rtl_ptrs, port, events, lead);
  std::vector<Completion> tlm_done, rtl_done;
  // Every bus phase's and array operation's start and end, by (operation, phase; 3 = array).
  using Spans = std::map<std::pair<uint64_t, uint32_t>, std::pair<sc_core::sc_time, sc_core::sc_time>>;
  Spans tlm_spans, rtl_spans;
  tlm.on_done([&](FlashOp* op) {
    tlm_done.push_back({op->id, op->t_done});
    tlm_spans[{op->id, 3}] = {op->t_array, op->t_array_end};
  });
  const bool log = std::getenv("RTL_TLM_LOG") != nullptr;
  tlm.on_bus_phase = [&](uint32_t w, uint32_t ph, uint64_t id, sc_core::sc_time t, sc_core::sc_time end) {
    if (log) std::printf("TLM %12.3f us way %u phase %u op %lu\n", t.to_seconds() * 1e6, w, ph, id);
    tlm_spans[{id, ph}] = {t, end};
  };
  rtl.on_bus_phase = [&](uint32_t w, uint32_t ph, uint64_t id, sc_core::sc_time t, sc_core::sc_time end) {
    if (log) std::printf("RTL %12.3f us way %u phase %u op %lu\n", t.to_seconds() * 1e6, w, ph, id);
    rtl_spans[{id, ph}] = {t, end};
  };
  rtl.on_done([&](FlashOp* op) {
    rtl_done.push_back({op->id, op->t_done});
    rtl_spans[{op->id, 3}] = {op->t_array, op->t_array_end};
  });

  // Legal random operations per die, generated in submission order.
  std::vector<std::unique_ptr<FlashOp>> ops;
  std::mt19937_64 rng(seed);
  struct DieCursor {
    uint32_t block = 0, next_page = 0;
  };
  std::vector<DieCursor> cur(kWays);
  std::vector<uint64_t> arrival_ps;
  uint64_t t = 1000000;
  for (uint32_t i = 0; i < kOps; i++) {
    const uint32_t w = uint32_t(rng() % kWays);
    DieCursor& c = cur[w];
    auto make = [&](uint8_t opcode, uint16_t block, uint16_t page, uint16_t nsect) {
      auto op = std::make_unique<FlashOp>();
      op->desc.opcode = opcode;
      op->desc.way = uint8_t(w);
      const uint32_t all = (1u << kPlanes) - 1u;
      op->desc.plane_mask = uint8_t(opcode == SSD_FOP_READ ? 1u + rng() % all : all);
      op->desc.block = block;
      op->desc.page = page;
      op->desc.nsect = nsect;
      op->id = ops.size();
      ops.push_back(std::move(op));
      // Arrivals: mostly bursts (same cycle to 2 us apart), sometimes idle gaps; off the
      // bus clock grid.
      t += rng() % 8 == 0 ? 100'000'000 + rng() % 900'000'000 : rng() % 2'000'000;   // ps
      arrival_ps.push_back(t);
    };
    const uint32_t r = uint32_t(rng() % 10);
    if (c.next_page == 16) {            // block full: erase the next one and move there
      c.block = (c.block + 1) % 32;
      make(SSD_FOP_ERASE, uint16_t(c.block), 0, 0);
      c.next_page = 0;
    } else if (r < 5 && c.next_page > 0) {
      make(SSD_FOP_READ, uint16_t(c.block), uint16_t(rng() % c.next_page), uint16_t(1 + rng() % 4));
    } else {
      make(SSD_FOP_PROGRAM, uint16_t(c.block), uint16_t(c.next_page++), 1);
    }
  }
  // Each operation goes to both channels (copies: each channel owns its op), submitted `lead`
  // before its arrival as the flash controller does (its decode time).
  std::vector<std::unique_ptr<FlashOp>> copies;
  for (const auto& op : ops) copies.push_back(std::make_unique<FlashOp>(*op));
  sc_core::sc_spawn([&] {
    for (size_t i = 0; i < ops.size(); i++) {
      const sc_core::sc_time at = sc_core::sc_time::from_value(arrival_ps[i]);
      if (at - lead > sc_core::sc_time_stamp()) sc_core::wait(at - lead - sc_core::sc_time_stamp());
      ops[i]->t_submit = copies[i]->t_submit = at;
      tlm.submit(ops[i].get());
      rtl.submit(copies[i].get());
    }
  });
  sc_core::sc_start();   // until both channels are idle
  if (tlm_done.size() != kOps || rtl_done.size() != kOps) {
    std::printf("incomplete: TLM %zu, RTL %zu of %u operations\n", tlm_done.size(), rtl_done.size(), kOps);
    return 1;
  }
  const double cycle_ps = double(p.channel.cycle.value());
  size_t order_mismatches = 0, time_mismatches = 0;
  long long first_order = -1, first_time = -1;
  double max_diff = 0, min_diff = 0;
  std::map<uint64_t, sc_core::sc_time> tlm_time;
  for (const auto& c : tlm_done) tlm_time[c.id] = c.t;
  for (size_t i = 0; i < kOps; i++) {
    if (tlm_done[i].id != rtl_done[i].id && order_mismatches++ == 0) first_order = (long long)i;
    const double d = (double(rtl_done[i].t.value()) - double(tlm_time[rtl_done[i].id].value())) / cycle_ps;
    max_diff = std::max(max_diff, d);
    min_diff = std::min(min_diff, d);
    if (d != 0 && time_mismatches++ == 0) first_time = (long long)rtl_done[i].id;
  }
  // The bus phases and array operations the timeline shows: the same spans in both channels.
  size_t span_mismatches = tlm_spans.size() == rtl_spans.size() ? 0 : 1;
  for (const auto& [key, span] : tlm_spans) {
    auto it = rtl_spans.find(key);
    if (it == rtl_spans.end() || it->second != span) {
      if (span_mismatches++ == 0)
        std::printf("first span mismatch: operation %llu %s: TLM %.6f..%.6f us, RTL %s\n", (unsigned long long)key.first,
                    key.second == 3 ? "array" : ("bus phase " + std::to_string(key.second)).c_str(),
                    span.first.to_seconds() * 1e6, span.second.to_seconds() * 1e6,
                    it == rtl_spans.end() ? "none"
                                          : (std::to_string(it->second.first.to_seconds() * 1e6) + ".." +
                                             std::to_string(it->second.second.to_seconds() * 1e6) + " us").c_str());
    }
  }
  std::printf("%zu bus phase and array spans compared, %zu differ\n", tlm_spans.size(), span_mismatches);
  // Reads that overlapped another read of their die (independent plane reads at work).
  size_t overlapped = 0;
  {
    std::vector<std::vector<std::pair<sc_core::sc_time, sc_core::sc_time>>> arrays(kWays);
    for (const auto& op : ops)
      if (op->desc.opcode == SSD_FOP_READ) arrays[op->desc.way].push_back(tlm_spans[{op->id, 3}]);
    for (auto& a : arrays) {
      std::sort(a.begin(), a.end());
      for (size_t i = 1; i < a.size(); i++) overlapped += a[i].first < a[i - 1].second;
    }
  }
  std::printf("%u operations on %u ways of %u planes%s (seed %llu, bus %s MB/s, %.1f ms simulated): %zu reads "
              "overlapped another of their die; %zu complete in a different order (first at position %lld), %zu at "
              "a different time (first: operation %lld); RTL - TLM %.1f .. %.1f bus cycles; RTL late starts %llu\n",
              kOps, kWays, kPlanes, independent ? " reading independently" : "", (unsigned long long)seed, bus.c_str(),
              sc_core::sc_time_stamp().to_seconds() * 1e3, overlapped,
              order_mismatches, first_order, time_mismatches, first_time, min_diff, max_diff,
              (unsigned long long)rtl.late_starts());
  // With independent plane reads, reads must overlap (or the feature is not at work); without,
  // never.
  const bool overlap_ok = independent ? overlapped > 0 : overlapped == 0;
  if (!overlap_ok) std::printf("reads overlapping on a die: %zu, not as the feature says\n", overlapped);
  return order_mismatches == 0 && time_mismatches == 0 && span_mismatches == 0 && rtl.late_starts() == 0 && overlap_ok
             ? 0
             : 1;
}
