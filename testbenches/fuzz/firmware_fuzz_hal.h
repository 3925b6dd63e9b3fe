// The HAL the firmware runs on in the firmware fuzzing harness (firmware_fuzz_hal.cpp): the
// harness plays the hardware and reaches in through these.
#pragma once

#include <csetjmp>
#include <cstddef>
#include <cstdint>

extern "C" {
#include "ftl-sw/core/ftl.h"
#include "ftl-sw/hal/hal.h"
}

// DRAM of `bytes` at SSD_DRAM_BASE (zero when first mapped; the firmware clears what it
// allocates at boot); registers cleared.
void fuzz_hal_reset(size_t bytes);
// Where control goes when the firmware halts (1) or wants to sleep because it has nothing to
// do (2): the harness sets it with setjmp before it calls into the firmware.  A halt ends the
// firmware's run, as on the platform, where the halting core never runs again.
std::jmp_buf* fuzz_hal_jump_target();
constexpr int kFuzzHalted = 1, kFuzzIdle = 2;
// Register values the firmware reads (what the platform's devices would answer) and wrote.
void fuzz_hal_set_register(uint32_t addr, uint32_t value);
uint32_t fuzz_hal_register(uint32_t addr);
// Firmware halt code of the last halt.
// Flash completions the functional mode posted (the harness continues the ring from there).
void fuzz_hal_flash_completions(uint32_t* tail, uint32_t* phase);
uint32_t fuzz_hal_halt_code();
