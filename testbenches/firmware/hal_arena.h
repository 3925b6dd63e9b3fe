// Test HAL for firmware unit tests (see hal_arena.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

extern "C" {
#include "ftl-sw/core/ftl.h"
#include "ftl-sw/hal/hal.h"
}

// The exit status of a test process whose firmware stopped for good (hal_sleep after a halt).
constexpr int kFirmwareStoppedExit = 86;

// Fresh DRAM of `bytes`; halts fail the test again.
void hal_arena_reset(size_t bytes);
// A test that provokes a firmware halt on purpose says so first, then checks hal_arena_halts().
void hal_arena_expect_halts(bool expect);
const std::vector<uint32_t>& hal_arena_halts();
