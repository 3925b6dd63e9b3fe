// What the FTL's sources run on when the host runs them (models/host/host_ftl.h): the HAL
// context (models/cpu/hal_context.h) of a host thread in one of the FTL's critical sections.
//
// Models: register accesses go straight to the host FTL's devices (its front end, its flash
// back end, timer, system control, NOR) with no bus time; the FTL's DRAM is host memory; the
// FTL's work (hal_cost) is CPU time at the host CPU's speed: each kind of work costs what the
// same code costs in instructions on the ISS (host.ftl.cost.*_instructions, measured by
// scripts/host_ftl_costs.py), divided by host.cpu.clock_mhz x host.cpu.ipc.  The time a
// section spends is collected and run on its thread's CPU by the host FTL, in two parts, as
// pblk's code runs: the bookkeeping of the map, the ring and the flash completions inside the
// FTL's lock, and the data copies and the building of device commands and DMA descriptors
// (host.ftl.copy_gbps; the flash_submit and dma_submit kinds) outside it, preemptible.
// Leaves out: caches and memory stalls beyond the IPC, the firmware's own sleeps (a host FTL's
// threads wait on their own events; only boot waits for an interrupt).
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <vector>

#include "models/cpu/hal_context.h"

namespace ssdvp {

class Dram;
class SysCtl;

class HostFtlContext : public sc_core::sc_module, public HalContext {
 public:
  tlm_utils::simple_initiator_socket<HostFtlContext> socket;

  // cost[k]: CPU time of one unit of hal_cost kind k; spin: one turn of a spin.
  HostFtlContext(sc_core::sc_module_name name, Dram& mem, SysCtl& sysctl, std::vector<sc_core::sc_time> cost,
                 sc_core::sc_time spin);

  // A section starts on FTL core `core`: this is the current HAL context from now on.
  void enter(uint32_t core);
  // The CPU time the section has spent so far, inside and outside the lock (and start
  // counting afresh).
  struct Spent {
    sc_core::sc_time locked, unlocked;
  };
  Spent take_spent();
  // Work outside the hal_cost kinds (the host's copies): outside the lock.
  void charge(sc_core::sc_time t) { spent_.unlocked += t; }
  // How many units of each kind the sections asked for (run.json: where the time went).
  const std::vector<uint64_t>& units() const { return units_; }

  uint32_t read32(uint32_t addr) override;
  void write32(uint32_t addr, uint32_t value) override;
  void sleep(bool clear_on_wake) override;
  void cost(unsigned kind, uint32_t count) override;
  void relax() override { spent_.locked += spin_; }
  Dram& dram() override { return mem_; }
  uint8_t* sram() override { return sram_.data(); }

 private:
  void access(tlm::tlm_command cmd, uint32_t addr, uint32_t* data);
  Dram& mem_;
  SysCtl& sysctl_;
  std::vector<sc_core::sc_time> cost_;
  sc_core::sc_time spin_;
  Spent spent_;
  std::vector<uint64_t> units_;
  std::vector<uint8_t> sram_;
  uint32_t core_ = 0;
  tlm::tlm_generic_payload trans_;
};

}  // namespace ssdvp
