// The host interface on its own (no firmware: the test plays it through the interface's
// registers and rings): a firmware that posts two completions for one command gets a fatal
// error naming the slot, raised when the second descriptor is posted.  Before, both
// descriptors passed the check, the first completion freed the slot and the second completed
// whatever the slot held next (nothing: a null command; or another command, whose slot was
// then handed out twice, so that the host waited for ever).
#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <string>
#include <vector>

#include "models/common/event_queue.h"
#include "models/common/fatal.h"
#include "models/cpu/sysctl.h"
#include "models/dram/dram.h"
#include "models/host/host_interface.h"

using namespace ssdvp;
using sc_core::SC_NS;
using sc_core::SC_US;
using sc_core::sc_time;

namespace {

// The interface with its registers reachable, as the firmware reaches them over the bus.
struct TestHostInterface : HostInterface {
  using HostInterface::HostInterface;
  void write(uint32_t offset, uint32_t value) {
    sc_time delay = sc_core::SC_ZERO_TIME;
    write32(offset, value, delay);
  }
};

// The bus side of the devices' register sockets (the test writes registers directly).
struct Bus : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Bus> to_hif{"to_hif"}, to_sysctl{"to_sysctl"};
  explicit Bus(sc_core::sc_module_name name) : sc_core::sc_module(name) {}
};

constexpr uint32_t kCmdRing = SSD_DRAM_BASE + 0x1000, kDmaRing = SSD_DRAM_BASE + 0x2000,
                   kDoneRing = SSD_DRAM_BASE + 0x3000, kRingEntries = 16;

}  // namespace

TEST(HostInterfaceSlots, ASecondCompletionForOneSlotIsAFatalErrorNamingTheSlot) {
  DramParams dp;
  dp.size_bytes = 1 << 20;
  dp.bandwidth_mbps = 1000;
  dp.latency = sc_time(10, SC_NS);
  Dram dram(dp);
  SysCtl sysctl("sysctl", 1, dp.size_bytes, 0);
  EventQueue events("events");
  HostParams hp;
  hp.queues = 1;
  hp.queue_entries = 16;
  hp.link_mbps = 1000;
  hp.link_latency = sc_time(100, SC_NS);
  hp.irq = sc_time(100, SC_NS);
  hp.tlp_overhead_bytes = 24;
  hp.max_transfer_sectors = 256;
  TestHostInterface hif("hif", hp, dram, sysctl, false, events);
  Bus bus("bus");
  bus.to_hif.bind(hif.socket);
  bus.to_sysctl.bind(sysctl.socket);

  HostCommand flush;
  flush.opcode = SSD_HOP_FLUSH;
  unsigned completions = 0;
  hif.on_complete = [&](HostCommand* c) {
    EXPECT_EQ(c, &flush);
    completions++;
  };
  uint16_t slot = 0xFFFF;
  sc_core::sc_spawn([&] {
    // Rings and enable, as the firmware's boot does.
    hif.write(HIF_CMD_RING_ADDR, kCmdRing);
    hif.write(HIF_CMD_RING_SIZE, kRingEntries);
    hif.write(HIF_DMA_RING_ADDR, kDmaRing);
    hif.write(HIF_DMA_RING_SIZE, kRingEntries);
    hif.write(HIF_DONE_RING_ADDR, kDoneRing);
    hif.write(HIF_DONE_RING_SIZE, kRingEntries);
    hif.write(HIF_ENABLE, 1);
    hif.submit(&flush);
    hif.ring_doorbell(0, sc_core::SC_ZERO_TIME);
    sc_core::wait(10, SC_US);   // fetched into the command ring
    slot = dram.as<ssd_host_cmd>(kCmdRing)->slot;
    // The buggy firmware: two completing descriptors for the one command, in one doorbell.
    for (uint32_t i = 0; i < 2; i++) {
      ssd_hif_dma* d = dram.as<ssd_hif_dma>(kDmaRing + i * uint32_t(sizeof(ssd_hif_dma)));
      *d = ssd_hif_dma{};
      d->slot = slot;
      d->dir = SSD_DMA_NONE;
      d->flags = SSD_DMAF_COMPLETE;
      d->status = SSD_ST_OK;
    }
    hif.write(HIF_DMA_TAIL, 2);
  });
  sc_core::sc_start(sc_time(1, sc_core::SC_MS));

  ASSERT_LT(slot, SSD_HOST_SLOTS);
  ASSERT_EQ(fatal_errors().size(), 1u);
  EXPECT_EQ(fatal_errors()[0], "host interface: bad DMA descriptor (firmware bug): slot " + std::to_string(slot) +
                                   " completed twice: a second completion for its command");
  // The run stopped at the second descriptor, before either completion reached the host.
  EXPECT_EQ(completions, 0u);
}
