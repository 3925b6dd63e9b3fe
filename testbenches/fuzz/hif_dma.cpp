// Fuzzing harness: HIF DMA descriptors as the firmware might post them, through the host
// interface's descriptor check (hif_dma_problem), with the slot bookkeeping the interface
// keeps around it (HostInterface::fetch, run_dma, complete).
//
// Input: 32-byte descriptors (struct ssd_hif_dma, as in the DMA ring); the first two bytes of
// each also say, before it is posted, how many commands to fetch into free slots and whether
// the pending completions finish.  A descriptor the check accepts must name a fetched
// command, move sectors inside it, and be the only completion of its command; the rest must
// be refused with a message that names the slot.
// Leaves out: the data movement itself (Dram::at checks the buffer addresses), timing, the
// firmware side (firmware_completions.cpp), the host's SQE (HostCommand, built by the
// platform's own driver: the model fetches it as it is, the firmware validates it).
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz_check.h"
#include "models/host/hif_dma_check.h"

using ssdvp::fuzz::check;

namespace {

struct Slot {
  bool used = false;
  uint32_t nsect = 0;
  bool completion_posted = false;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<Slot> slots(SSD_HOST_SLOTS);
  std::vector<uint16_t> pending;   // completions accepted, not yet finished
  uint32_t next_nsect = 1;
  for (size_t at = 0; at + sizeof(ssd_hif_dma) <= size; at += sizeof(ssd_hif_dma)) {
    ssd_hif_dma d;
    std::memcpy(&d, data + at, sizeof d);
    // Fetch some commands (1..256 sectors) into the lowest free slots, as the HIF would.
    for (unsigned n = data[at] & 7u, s = 0; n > 0 && s < SSD_HOST_SLOTS; s++) {
      if (slots[s].used) continue;
      slots[s] = Slot{true, next_nsect, false};
      next_nsect = next_nsect % SSD_MDTS_SECTORS + 1;
      n--;
    }
    if (data[at + 1] & 1u) {   // the posted completions reach the host: their slots are free
      for (uint16_t s : pending) slots[s] = Slot{};
      pending.clear();
    }
    ssdvp::HifSlotState state;
    if (d.slot < SSD_HOST_SLOTS && slots[d.slot].used)
      state = ssdvp::HifSlotState{true, slots[d.slot].nsect, slots[d.slot].completion_posted};
    const std::string problem = ssdvp::hif_dma_problem(d, state);
    if (!problem.empty()) {
      check(problem.rfind("slot " + std::to_string(d.slot), 0) == 0, "a refusal that does not name the slot: " + problem);
      continue;
    }
    check(d.slot < SSD_HOST_SLOTS && slots[d.slot].used, "a descriptor for an empty slot was accepted");
    check(!slots[d.slot].completion_posted, "a descriptor after the completion was accepted");
    check(d.dir <= SSD_DMA_FROM_HOST, "an unknown direction was accepted");
    if (d.dir != SSD_DMA_NONE)
      check(d.nsect > 0 && uint64_t(d.sect_off) + d.nsect <= slots[d.slot].nsect,
            "sectors outside the command were accepted");
    if (d.flags & SSD_DMAF_COMPLETE) {
      slots[d.slot].completion_posted = true;
      pending.push_back(d.slot);
    }
  }
  return 0;
}
