// The channel interface (architecture seam 3): how the flash controller hands operations to
// "a channel", whichever implementation (TLM model or Verilated RTL) is behind it.
#pragma once

#include <systemc>

#include <cstdint>
#include <functional>
#include <vector>

extern "C" {
#include "ftl-sw/hal/regs.h"
}

namespace ssdvp {

namespace nand { class Die; }

// One flash operation as the channel sees it: the firmware's descriptor with its scatter
// list resolved to one DRAM address per sector (planes in mask order).
struct FlashOp {
  ssd_flash_desc desc{};
  std::vector<uint32_t> sector_addrs;
  uint16_t status = SSD_FST_OK;
  sc_core::sc_time t_submit;       // reached the channel
  sc_core::sc_time t_done;         // completion time
  sc_core::sc_time t_array, t_array_end;   // the die's array operation (set by the channel)
  uint64_t id = 0;                 // order of submission (for tests and traces)
  uint32_t bank = 0;               // the register bank (firmware core) it came from
};

// Data movement between controller DRAM and a die's page registers: the flash controller's
// DMA engine.  Each call moves the data at once and returns when the DRAM side is done,
// reserving DRAM bandwidth from `start`.
class FlashDataPort {
 public:
  virtual ~FlashDataPort() = default;
  virtual sc_core::sc_time to_die(FlashOp& op, nand::Die& die, uint32_t plane, sc_core::sc_time start) = 0;
  virtual sc_core::sc_time from_die(FlashOp& op, nand::Die& die, uint32_t plane, sc_core::sc_time start) = 0;
};

// Operations of one die a channel keeps in flight at most (the RTL's SLOTS parameter): more
// than one only with independent plane reads (nand.independent_plane_reads), reads of
// different planes.
constexpr uint32_t kOpsInFlightPerDie = 4;

class ChannelIf {
 public:
  using DoneFn = std::function<void(FlashOp*)>;
  virtual ~ChannelIf() = default;
  // Accepts an operation that reaches the channel at op->t_submit (>= now); operations to one
  // die start in submission order (and, but for reads of different planes with independent
  // plane reads, also finish in it).
  virtual void submit(FlashOp* op) = 0;
  // Called once per operation, at any time up to its completion, with op->t_done set.
  virtual void on_done(DoneFn fn) = 0;
  // Observer of every bus phase (verification, timelines): way, phase (0 command/data in,
  // 1 data out, 2 status), operation id, start and end time.
  std::function<void(uint32_t way, uint32_t phase, uint64_t op, sc_core::sc_time start, sc_core::sc_time end)>
      on_bus_phase;
  virtual uint64_t bus_busy_ps() const = 0;
  virtual uint64_t ops_done() const = 0;
};

}  // namespace ssdvp
