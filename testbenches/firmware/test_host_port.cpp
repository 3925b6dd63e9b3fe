// The FTL's host side (ftl-sw/core/host_port.h): a command the host interface fetched reaches
// the owner of host commands in its slot, with its opcode, LBA and length; a finished DMA
// descriptor reaches the owner with its slot; the owner hears once per pass that commands
// arrived; with no owner registered a command halts the firmware.  The rings are laid out in
// the test HAL's DRAM as the host interface would fill them.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "hal_arena.h"

namespace {

std::vector<uint16_t> g_started, g_dma_done;
int g_arrivals = 0;

void owner_start(ftl* f, uint16_t slot) {
  g_started.push_back(slot);
  f->hc[slot].state = HC_DMA_IN;   // the owner keeps the slot's state
}
void owner_dma_done(ftl*, uint16_t slot) { g_dma_done.push_back(slot); }
void owner_arrived(ftl*) { g_arrivals++; }
const host_owner kOwner = {owner_start, owner_dma_done, owner_arrived, nullptr};

constexpr uint32_t kRing = 64;   // entries; the consumer index is reported every 16

struct Port {
  std::unique_ptr<ftl> f{new ftl()};
  fw_core* c;
  Port() {
    hal_arena_reset(16u << 20);
    g_started.clear();
    g_dma_done.clear();
    g_arrivals = 0;
    f->heap = fw_heap{SSD_DRAM_BASE, 16u << 20, 0, 16u << 20};
    f->stats = static_cast<ssd_fw_stats*>(fw_alloc(f.get(), sizeof(ssd_fw_stats), 64));
    c = static_cast<fw_core*>(fw_alloc(f.get(), sizeof(fw_core), 64));
    c->stats = &f->stats->core[0];
    c->cmd_ring = static_cast<ssd_host_cmd*>(fw_alloc(f.get(), kRing * sizeof(ssd_host_cmd), 64));
    c->cmd_pos = ring_pos{0, 0, kRing, 0, 0};
    c->cmd_tail = static_cast<volatile uint32_t*>(fw_alloc(f.get(), 64, 64));
    c->done_ring = static_cast<ssd_hif_done*>(fw_alloc(f.get(), kRing * sizeof(ssd_hif_done), 64));
    c->done_pos = ring_pos{0, 0, kRing, 1, 0};
    f->core[0] = f->cur = c;
    f->ncores = 1;
  }
  void command(uint16_t slot, uint8_t opcode, uint32_t lba, uint32_t nsect) {
    ssd_host_cmd& e = c->cmd_ring[*c->cmd_tail % kRing];
    e = ssd_host_cmd{};
    e.slot = slot;
    e.opcode = opcode;
    e.lba_lo = lba;
    e.nsect = nsect;
    ++*c->cmd_tail;
  }
  uint32_t done_tail = 0;
  void dma_done(uint16_t slot) {
    ssd_hif_done& e = c->done_ring[done_tail % kRing];
    e.cookie = slot;
    e.status = 0;
    e.phase = uint16_t(done_tail / kRing % 2 == 0 ? 1 : 0);
    done_tail++;
  }
};

}  // namespace

TEST(HostPort, CommandsAndFinishedDmaReachTheOwnerOfHostCommands) {
  Port p;
  host_register(p.f.get(), &kOwner);
  p.command(7, SSD_HOP_WRITE, 1234, 8);
  p.command(9, SSD_HOP_READ, 40, 1);
  EXPECT_EQ(hif_poll_cmds(p.f.get()), 2);
  EXPECT_EQ(g_started, (std::vector<uint16_t>{7, 9}));
  EXPECT_EQ(g_arrivals, 1);                       // once for the pass
  EXPECT_EQ(p.f->hc[7].opcode, SSD_HOP_WRITE);
  EXPECT_EQ(p.f->hc[7].lba, 1234u);
  EXPECT_EQ(p.f->hc[7].nsect, 8u);
  EXPECT_EQ(p.f->hc[9].opcode, SSD_HOP_READ);
  EXPECT_EQ(p.c->stats->host_cmds, 2u);
  p.dma_done(9);
  EXPECT_EQ(hif_poll_done(p.f.get(), p.c), 1);
  EXPECT_EQ(g_dma_done, (std::vector<uint16_t>{9}));
  EXPECT_EQ(hif_poll_cmds(p.f.get()), 0);         // nothing new
  EXPECT_EQ(g_arrivals, 1);
}

TEST(HostPort, ACommandWithNoOwnerHalts) {
  Port p;
  p.command(3, SSD_HOP_READ, 0, 1);
  EXPECT_EXIT(
      {
        hal_arena_expect_halts(true);
        hif_poll_cmds(p.f.get());
      },
      ::testing::ExitedWithCode(kFirmwareStoppedExit), "stopped after halt 0xd3a40000");
}
