// Test HAL for firmware unit tests (see hal_arena.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

extern "C" {
#include "ftl-sw/core/ftl.h"
#include "ftl-sw/hal/hal.h"
}

void hal_arena_reset(size_t bytes);
const std::vector<uint32_t>& hal_arena_halts();
