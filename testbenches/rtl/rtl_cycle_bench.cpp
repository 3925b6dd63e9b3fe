// rtl_cycle_bench: raw speed of the Verilated channel controller (the 16-way instance the
// platform uses), clocked on every cycle with no skipping, its 16 dies kept busy by a stream
// of reads and programs (simple die timers answer R/B#).  Prints clocked cycles per wall
// second and the bus utilisation reached.  A benchmark, not a test.
//   build/testbenches/rtl_cycle_bench [cycles]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "Vnand_channel_ctrl16.h"
#include "verilated.h"
#pragma GCC diagnostic pop

double sc_time_stamp() { return 0; }   // the Verilated runtime's time hook (no SystemC here)

int main(int argc, char* argv[]) {
  const uint64_t cycles = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 20'000'000;
  constexpr int kWays = 16;
  VerilatedContext ctx;
  auto m = std::make_unique<Vnand_channel_ctrl16>(&ctx);
  uint64_t busy_left[kWays] = {};
  const uint64_t t_array[4] = {0, 8000, 120000, 400000};   // cycles of tR, tPROG, tBERS at 400 MT/s
  std::mt19937 rng(1);
  uint64_t now = 0, bus_cycles = 0, completions = 0;
  auto clock = [&] {
    for (int i = 0; i < kWays * 8 / 32; i++) m->plane_ready[i] = 0;   // 8 planes a way, one R/B# a die here
    for (int w = 0; w < kWays; w++)
      if (busy_left[w] == 0) m->plane_ready[w / 4] |= 0xFFu << (w % 4 * 8);
    m->now = now;
    m->clk = 0;
    m->eval();
    const uint32_t go = m->array_go;
    const int op = m->array_op;
    if (m->bus_busy) bus_cycles++;
    if (m->cpl_valid) completions++;
    m->clk = 1;
    m->eval();
    for (int w = 0; w < kWays; w++) {
      if (go >> w & 1) busy_left[w] = t_array[op];
      else if (busy_left[w]) busy_left[w]--;
    }
    now++;
  };
  m->rst_n = 0;
  m->cpl_ready = 1;
  clock();
  m->rst_n = 1;
  const auto t0 = std::chrono::steady_clock::now();
  for (uint64_t i = 0; i < cycles; i++) {
    // Keep every way's queue non-empty: a read of 4 KiB (80%) or a two-plane 16 KiB program.
    const int w = int(rng() % kWays);
    const bool read = rng() % 5 != 0;
    m->desc_valid = 1;
    m->desc_way = uint8_t(w);
    m->desc_op = read ? 1 : 2;
    m->desc_mask = read ? 1 : 3;
    m->desc_xfer = read ? 4096 : 16384;
    m->desc_tag = uint16_t(i);
    m->desc_start = now + 1;
    clock();
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  m->final();
  std::printf("%llu cycles clocked in %.2f s: %.2f M cycles/s; bus busy %.1f%%, %llu operations completed\n",
              (unsigned long long)cycles, wall, double(cycles) / wall / 1e6, 100.0 * double(bus_cycles) / double(cycles),
              (unsigned long long)completions);
  return 0;
}
