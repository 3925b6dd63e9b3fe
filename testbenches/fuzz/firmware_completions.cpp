// Fuzzing harness: the firmware (ftl-sw, host-compiled) against hardware that answers
// unexpectedly: flash completions with any status word (ECC-corrected or uncorrectable reads,
// failed programs and erases, codes no device defines) or for tags no operation has, DMA done
// entries with cookies of no command, host commands with bad opcodes, lengths, LBA ranges or
// slots beyond the interface's.
//
// The real firmware boots (fw_main, with a configuration and geometry in DRAM as the platform
// writes them: one core, 2 channels x 1 way x 2 planes x 16 blocks of 8 MLC pages, or 32 of 64
// with demand-based mapping) on the HAL
// of firmware_fuzz_hal.cpp, and the harness plays the hardware: it keeps a host's command
// slots, takes the flash descriptors and DMA descriptors the firmware posts, and answers them
// in an order and with statuses the input picks.  An input is one byte choosing the
// configuration (write_configuration: page map or demand-based mapping, read cache, ring
// write buffer, write cache off, GC policy), then 8-byte actions: byte 0 picks one (0 a host
// command, 1 a flash completion, 2 the next DMA, 3 answer everything pending with success,
// 4 a DMA done entry with an arbitrary cookie); the other bytes its fields.  After each action the firmware polls (ftl_poll) until it has nothing to
// do.  Whatever it is given, the firmware must either go on or stop with its own refusal (a
// halt: hal_fatal / hal_halt); what it posts must be sane: flash addresses inside the
// geometry, DMA descriptors the host interface accepts (hif_dma_problem: no second completion,
// sectors inside the command).  DRAM addresses are checked by the HAL, the rest by ASan/UBSan.
// Leaves out: several cores, SLC/MLC placement, the decision-tree and sequential read-ahead,
// recovery after a power cut (a fresh drive is formatted), preconditioning commands, timing
// (the ring buffer's drain timeout never fires); the platform tests run those with
// well-behaved hardware.
#include <algorithm>
#include <csetjmp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "firmware_fuzz_hal.h"
#include "fuzz_check.h"
#include "models/host/hif_dma_check.h"

using ssdvp::fuzz::check;
using ssdvp::fuzz::note;

namespace {

constexpr size_t kDramBytes = 64u << 20;
constexpr uint32_t kConfigAddr = SSD_DRAM_BASE + 0x1000, kGeometryAddr = SSD_DRAM_BASE + 0x2000;
constexpr uint32_t kHeapAddr = SSD_DRAM_BASE + (1u << 20);

// The configuration the platform would write, varied by `variant` (the input's first byte):
// bits 0-1 the mapping (page map, DFTL, part-sched, adaptive), bit 2 an LRU read cache,
// bit 3 the ring write buffer, bit 4 the write cache off, bit 5 cost-benefit GC.
void write_configuration(uint8_t variant) {
  auto* fc = static_cast<ssd_fw_config*>(hal_dram_ptr(kConfigAddr));
  *fc = ssd_fw_config{};
  fc->magic = SSD_FW_CONFIG_MAGIC;
  fc->version = 1;
  fc->op_permille = 70;
  fc->gc_low_blocks = 2;
  fc->gc_high_blocks = 3;
  fc->wbuf_sectors = 600;
  fc->wbuf_kind = SSD_WBUF_SLOTS;
  fc->die_prog_limit = 2;
  fc->dram_heap_addr = kHeapAddr;
  fc->dram_heap_bytes = uint32_t(kDramBytes - (kHeapAddr - SSD_DRAM_BASE));
  static const uint32_t kMappings[] = {SSD_MAP_OPT, SSD_MAP_DFTL, SSD_MAP_PART_SCHED, SSD_MAP_ADAPTIVE};
  static const uint32_t kScheds[] = {SSD_SCHED_BYPASS, SSD_SCHED_BYPASS, SSD_SCHED_WRITE_STOP, SSD_SCHED_ADAPTIVE};
  fc->mapping = kMappings[variant & 3];
  fc->sched = kScheds[variant & 3];
  fc->cmt_permille = 1000;   // the whole map: a tiny drive's map is a few translation pages
  fc->cmt_clean_permille = 500;
  fc->adapt_window = 64;
  fc->map_write_cost = 20000;
  if (variant & 4) {
    fc->readahead = SSD_RA_LRU;
    fc->rc_sectors = 64;
    fc->item_sectors = 1;
  }
  if (variant & 8) {
    fc->wbuf_kind = SSD_WBUF_RING;
    fc->ring_timeout_us = 100;
  }
  fc->write_through = (variant & 16) ? 1 : 0;
  fc->gc_policy = (variant & 32) ? SSD_GC_COST_BENEFIT : SSD_GC_GREEDY;
  auto* geo = static_cast<ssd_geometry*>(hal_dram_ptr(kGeometryAddr));
  *geo = ssd_geometry{};
  geo->channels = 2;
  geo->ways = 1;
  geo->planes = 2;
  // Demand-based mapping needs two translation pages (1024 entries each) per cache region.
  const bool demand = (variant & 3) != 0;
  geo->blocks_per_plane = demand ? 32 : 16;
  geo->pages_per_block = demand ? 64 : 8;
  geo->sectors_per_page = 1;
  geo->slc_pages_per_block = 4;
  geo->slc_blocks_per_plane = 16;
  fuzz_hal_set_register(SSD_SYSCTL_BASE + SYSCTL_CONFIG_ADDR, kConfigAddr);
  fuzz_hal_set_register(SSD_FCTL_BASE + FCTL_GEOMETRY_ADDR, kGeometryAddr);
  fuzz_hal_set_register(SSD_SYSCTL_BASE + SYSCTL_NUM_CORES, 1);
  fuzz_hal_set_register(SSD_NOR_BASE + NOR_SIZE, 1024u * 1024u);
  fuzz_hal_set_register(SSD_SYSCTL_BASE + SYSCTL_DRAM_SIZE, uint32_t(kDramBytes));
}

// The host and the devices around the firmware.
struct Hardware {
  ftl* f = nullptr;
  uint32_t sub_head = 0, dma_head = 0;             // descriptors taken from the firmware's rings
  uint32_t cpl_tail = 0, cpl_phase = 1;            // flash completions posted
  uint32_t done_tail = 0, done_phase = 1;          // DMA done entries posted
  uint32_t cmd_tail = 0;                           // host commands posted
  std::deque<ssd_flash_desc> flash;                // submitted, not completed
  std::deque<ssd_hif_dma> dma;                     // posted, not yet moved
  std::vector<ssdvp::HifSlotState> slots = std::vector<ssdvp::HifSlotState>(SSD_HOST_SLOTS);
  std::vector<uint16_t> free_slots;

  Hardware() {
    for (uint32_t s = SSD_HOST_SLOTS; s-- > 0;) free_slots.push_back(uint16_t(s));
  }
  fw_core* core() const { return f->core[0]; }

  // What the firmware posted since the last look.
  void collect() {
    const ftl_geo& g = f->geo;
    for (const uint32_t tail = fuzz_hal_register(SSD_FCTL_BASE + FCTL_SUB_TAIL); sub_head != tail; sub_head++) {
      const ssd_flash_desc d = core()->fsub[sub_head % FLASH_RING];
      check(d.opcode >= SSD_FOP_READ && d.opcode <= SSD_FOP_ERASE, "the firmware submitted flash opcode " + std::to_string(d.opcode));
      check(d.channel < g.channels && d.way < g.ways && d.block < g.blocks && d.page < g.pages && d.plane_mask != 0 &&
                d.plane_mask < (1u << g.planes),
            "the firmware submitted a flash operation outside the geometry");
      flash.push_back(d);
    }
    fuzz_hal_set_register(SSD_FCTL_BASE + FCTL_SUB_HEAD, sub_head);
    for (const uint32_t tail = fuzz_hal_register(SSD_HIF_BASE + HIF_DMA_TAIL); dma_head != tail; dma_head++) {
      const ssd_hif_dma d = core()->dma_ring[dma_head % HIF_DMA_RING];
      const std::string problem = ssdvp::hif_dma_problem(d, d.slot < SSD_HOST_SLOTS ? slots[d.slot] : ssdvp::HifSlotState{});
      check(problem.empty(), "the firmware posted a DMA descriptor the host interface refuses: " + problem);
      if (d.flags & SSD_DMAF_COMPLETE) slots[d.slot].completion_posted = true;
      dma.push_back(d);
    }
    fuzz_hal_set_register(SSD_HIF_BASE + HIF_DMA_HEAD, dma_head);
  }

  void post_completion(uint32_t tag, uint16_t status) {
    core()->fcpl[cpl_tail % FLASH_CPL_RING] = ssd_flash_cpl{tag, status, uint16_t(cpl_phase), 0, 0};
    if (++cpl_tail % FLASH_CPL_RING == 0) cpl_phase ^= 1u;
  }
  void post_done(uint32_t cookie) {
    core()->done_ring[done_tail % HIF_DONE_RING] = ssd_hif_done{cookie, SSD_ST_OK, uint16_t(done_phase)};
    if (++done_tail % HIF_DONE_RING == 0) done_phase ^= 1u;
  }
  // The oldest DMA moves its data: the host sees its completion, the firmware its done entry.
  void move_dma() {
    const ssd_hif_dma d = dma.front();
    dma.pop_front();
    if (d.flags & SSD_DMAF_COMPLETE) {
      slots[d.slot] = ssdvp::HifSlotState{};
      free_slots.push_back(d.slot);
    }
    if (d.flags & SSD_DMAF_NOTIFY) post_done(d.cookie);
  }
  void post_command(const ssd_host_cmd& cmd) {
    core()->cmd_ring[cmd_tail % HIF_CMD_RING] = cmd;
    cmd_tail++;
    *core()->cmd_tail = cmd_tail;
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  fuzz_hal_reset(kDramBytes);
  write_configuration(data[0]);
  Hardware hw;
  hw.f = static_cast<ftl*>(hal_dram_ptr((kHeapAddr + 63u) & ~63u));
  static bool booted;
  booted = false;
  const int jumped = setjmp(*fuzz_hal_jump_target());
  if (jumped == kFuzzHalted) {            // the firmware refused what it was given
    char code[64];
    std::snprintf(code, sizeof code, "halted 0x%x %s", unsigned(fuzz_hal_halt_code()), booted ? "running" : "at boot");
    note(code);
    if (std::getenv("SSDVP_FUZZ_VERBOSE"))
      std::fprintf(stderr, "firmware halted with code 0x%x (%s)\n", unsigned(fuzz_hal_halt_code()),
                   booted ? "running" : "at boot");
    return 0;
  }
  if (jumped == 0) fw_main();              // boots, then sleeps in its event loop: kFuzzIdle
  check(!booted, "the firmware slept inside ftl_poll");
  booted = true;
  check(fuzz_hal_register(SSD_HIF_BASE + HIF_ENABLE) == 1, "the firmware did not enable the host interface");
  hw.sub_head = fuzz_hal_register(SSD_FCTL_BASE + FCTL_SUB_HEAD);   // the format's scan went before
  fuzz_hal_flash_completions(&hw.cpl_tail, &hw.cpl_phase);
  for (size_t at = 1; at + 8 <= size; at += 8) {
    const uint8_t* e = data + at;
    uint32_t word;
    std::memcpy(&word, e + 3, 4);
    switch (e[0] % 5) {
      case 0: {   // a host command
        if (hw.cmd_tail - hw.core()->cmd_pos.head >= HIF_CMD_RING) break;
        ssd_host_cmd cmd{};
        static const uint8_t kOpcodes[] = {SSD_HOP_READ, SSD_HOP_WRITE, SSD_HOP_TRIM, SSD_HOP_FLUSH};
        cmd.opcode = (e[1] & 0x80) ? e[2] : kOpcodes[e[1] & 3];
        if (cmd.opcode == SSD_HOP_PRECONDITION) cmd.opcode = 0xC1;   // see the header
        const uint32_t span = hw.f->geo.logical_sectors + 16;
        cmd.lba_lo = (e[1] & 0x40) ? word : uint32_t(e[3] | e[4] << 8) % span;
        cmd.lba_hi = (e[1] & 0x20) ? 1 : 0;
        cmd.nsect = (e[6] & 2) ? uint32_t(e[5]) * 4 : 1u + e[5] % 8;
        cmd.cdw[0] = (e[6] & 4) ? SSD_WRITE_FUA : 0;
        if (e[6] & 1) {   // a slot the input names: beyond the slots (the firmware must refuse
          cmd.slot = uint16_t(word);       // it), or a free one taken out of order
          if (cmd.slot < SSD_HOST_SLOTS) {
            // A slot the host still holds: reusing it is the interface's bug, which the
            // firmware cannot see (it may have finished the slot's command already).
            if (hw.slots[cmd.slot].holds_command) break;
            hw.free_slots.erase(std::find(hw.free_slots.begin(), hw.free_slots.end(), cmd.slot));
          }
        } else {
          if (hw.free_slots.empty()) break;
          cmd.slot = hw.free_slots.back();
          hw.free_slots.pop_back();
        }
        if (cmd.slot < SSD_HOST_SLOTS) hw.slots[cmd.slot] = ssdvp::HifSlotState{true, cmd.nsect, false};
        hw.post_command(cmd);
        break;
      }
      case 1: {   // a flash completion: the oldest operation's, or any tag
        const uint16_t status = (e[1] & 8) ? uint16_t(e[1] & 7) : (e[1] & 0x80) ? uint16_t(word) : SSD_FST_OK;
        if (e[2] & 1) {
          hw.post_completion(word, status);
        } else if (!hw.flash.empty()) {
          hw.post_completion(hw.flash.front().tag, status);
          hw.flash.pop_front();
        }
        break;
      }
      case 2:
        if (!hw.dma.empty()) hw.move_dma();
        break;
      case 3:   // everything pending succeeds
        while (!hw.flash.empty()) {
          hw.post_completion(hw.flash.front().tag, SSD_FST_OK);
          hw.flash.pop_front();
        }
        while (!hw.dma.empty()) hw.move_dma();
        break;
      default:   // a done entry for no DMA
        hw.post_done(uint32_t(e[1] | e[2] << 8));
        break;
    }
    // The firmware works until it has nothing to do (ftl_poll does not sleep: a sleep would
    // jump back to the setjmp above).
    for (int pass = 0; pass < 256; pass++) {
      const int n = ftl_poll(hw.f);
      hw.collect();
      if (n == 0) break;
    }
  }
  note("ran to the end of the input");
  return 0;
}
