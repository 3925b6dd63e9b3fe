#include "synthetic_trace_lines.h"

#include <cstdio>
#include <stdexcept>

namespace ssdvp::workload::test {

namespace {

// A cheap, deterministic mix of i (splitmix64's finaliser).
uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

void put_le(std::string& out, uint64_t v, int bytes) {
  for (int k = 0; k < bytes; k++) out.push_back(char(v >> (8 * k) & 0xFF));
}

}  // namespace

const std::vector<std::string>& synthetic_formats() {
  static const std::vector<std::string> formats = {"disksim", "msr",   "umass",   "blkparse",    "blkparse-events",
                                                   "alibaba", "tencent", "vscsi", "vscsi-binary"};
  return formats;
}

void append_synthetic_line(const std::string& format, uint64_t i, std::string& out) {
  const uint64_t r = mix(i);
  const bool write = r & 1;
  const uint64_t block = (r >> 8) % (1ull << 22);   // 4 KiB blocks of a 16 GiB range
  const uint64_t t_us = i * 10 + 5;                 // 100k requests per second
  char line[256];
  int n = 0;
  if (format == "disksim") {
    n = std::snprintf(line, sizeof line, "%llu 0 %llu 8 %d\n", (unsigned long long)(t_us * 1000),
                      (unsigned long long)(block * 8), write ? 0 : 1);
  } else if (format == "msr") {
    n = std::snprintf(line, sizeof line, "%llu,hm,1,%s,%llu,4096,120\n", 128166372000000000ull + t_us * 10,
                      write ? "Write" : "Read", (unsigned long long)(block * 4096));
  } else if (format == "umass") {
    n = std::snprintf(line, sizeof line, "0,%llu,4096,%c,%llu.%06llu\n", (unsigned long long)(block * 8),
                      write ? 'w' : 'r', (unsigned long long)(t_us / 1000000), (unsigned long long)(t_us % 1000000));
  } else if (format == "blkparse") {
    n = std::snprintf(line, sizeof line, "  8,0    1 %8llu %5llu.%09llu  4162  D  %s %llu + 8 [fio]\n",
                      (unsigned long long)(i + 1), (unsigned long long)(t_us / 1000000),
                      (unsigned long long)(t_us % 1000000 * 1000), write ? "W" : "R", (unsigned long long)(block * 8));
  } else if (format == "blkparse-events") {
    n = std::snprintf(line, sizeof line, "4162 D %s %llu 4096 %llu.%06llu 0.00001 False\n", write ? "write" : "read",
                      (unsigned long long)(block * 4096), (unsigned long long)(t_us / 1000000),
                      (unsigned long long)(t_us % 1000000));
  } else if (format == "alibaba") {
    n = std::snprintf(line, sizeof line, "3,%c,%llu,4096,%llu\n", write ? 'W' : 'R', (unsigned long long)(block * 4096),
                      1577808000000000ull + t_us);
  } else if (format == "tencent") {
    n = std::snprintf(line, sizeof line, "%llu,%llu,8,%d,1063\n", 1538323200ull + t_us / 1000000,
                      (unsigned long long)(block * 8), write ? 1 : 0);
  } else if (format == "vscsi") {
    n = std::snprintf(line, sizeof line, "2,%llu,%s,4096,%llu\n", (unsigned long long)t_us, write ? "2a" : "28",
                      (unsigned long long)(block * 8));
  } else if (format == "vscsi-binary") {   // version 2: cmd, ver, sn, len, nSG, lbn, ts, rt
    put_le(out, write ? 0x2A : 0x28, 2);
    put_le(out, 2u << 8, 2);
    put_le(out, i, 4);
    put_le(out, 4096, 4);
    put_le(out, 1, 4);
    put_le(out, block * 8, 8);
    put_le(out, t_us, 8);
    put_le(out, 100, 8);
    return;
  } else {
    throw std::invalid_argument("synthetic trace: unknown format " + format);
  }
  out.append(line, size_t(n));
}

}  // namespace ssdvp::workload::test
