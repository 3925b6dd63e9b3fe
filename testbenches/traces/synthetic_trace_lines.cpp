// Synthetic trace lines: see synthetic_trace_lines.h.
#include "synthetic_trace_lines.h"

#include <cstdio>
#include <stdexcept>

namespace ssdvp::workload::test {

namespace {

constexpr uint64_t kSectorBytes = 512;
constexpr uint32_t kRequestBytes = 4096;

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

using ull = unsigned long long;

}  // namespace

const std::vector<std::string>& synthetic_formats() {
  static const std::vector<std::string> formats = {"disksim", "msr",   "umass",   "blkparse",    "blkparse-events",
                                                   "alibaba", "tencent", "vscsi", "vscsi-binary"};
  return formats;
}

SyntheticRequest append_synthetic_line(const std::string& format, uint64_t i, std::string& out) {
  const uint64_t r = mix(i);
  const bool write = r & 1;
  const uint64_t block = (r >> 8) % (1ull << 22);                       // 4 KiB blocks of a 16 GiB range
  const uint64_t t_us = (i / 100) * 1000000 + (i % 100) * 10 + 5;     // 100 requests at each second's start
  const uint64_t seconds = t_us / 1000000, micros = t_us % 1000000;
  SyntheticRequest w;
  w.op = write ? Op::Write : Op::Read;
  w.length = kRequestBytes;
  char line[256];
  int n = 0;
  if (format == "disksim") {   // time_ns device lba_sector size_sectors type(0 write)
    const uint64_t time_ns = t_us * 1000, lba = block * 8;
    n = std::snprintf(line, sizeof line, "%llu 0 %llu 8 %d\n", ull(time_ns), ull(lba), write ? 0 : 1);
    w.time_ns = time_ns;
    w.offset = lba * kSectorBytes;
    w.length = 8 * kSectorBytes;
  } else if (format == "msr") {   // filetime ticks of 100 ns, bytes
    const uint64_t ticks = 128166372000000000ull + t_us * 10, offset = block * 4096;
    n = std::snprintf(line, sizeof line, "%llu,hm,1,%s,%llu,4096,120\n", ull(ticks), write ? "Write" : "Read",
                      ull(offset));
    w.time_ns = ticks * 100;
    w.offset = offset;
  } else if (format == "umass") {   // LBA in sectors, size in bytes, seconds with a fraction
    const uint64_t lba = block * 8;
    n = std::snprintf(line, sizeof line, "0,%llu,4096,%c,%llu.%06llu\n", ull(lba), write ? 'w' : 'r', ull(seconds),
                      ull(micros));
    w.time_ns = seconds * 1000000000 + micros * 1000;
    w.offset = lba * kSectorBytes;
  } else if (format == "blkparse") {   // seconds.nanoseconds, sector + sectors
    const uint64_t nanos = micros * 1000, sector = block * 8;
    n = std::snprintf(line, sizeof line, "  8,0    1 %8llu %5llu.%09llu  4162  D  %s %llu + 8 [fio]\n", ull(i + 1),
                      ull(seconds), ull(nanos), write ? "W" : "R", ull(sector));
    w.time_ns = seconds * 1000000000 + nanos;
    w.offset = sector * kSectorBytes;
    w.length = 8 * kSectorBytes;
  } else if (format == "blkparse-events") {   // bytes, seconds with a fraction
    const uint64_t offset = block * 4096;
    n = std::snprintf(line, sizeof line, "4162 D %s %llu 4096 %llu.%06llu 0.00001 False\n", write ? "write" : "read",
                      ull(offset), ull(seconds), ull(micros));
    w.time_ns = seconds * 1000000000 + micros * 1000;
    w.offset = offset;
  } else if (format == "alibaba") {   // bytes, microseconds since the epoch
    const uint64_t offset = block * 4096, timestamp_us = 1577808000000000ull + t_us;
    n = std::snprintf(line, sizeof line, "3,%c,%llu,4096,%llu\n", write ? 'W' : 'R', ull(offset), ull(timestamp_us));
    w.time_ns = timestamp_us * 1000;
    w.offset = offset;
  } else if (format == "tencent") {   // whole seconds since the epoch, sectors, IOType 1 write
    const uint64_t timestamp_s = 1538323200ull + seconds, sector = block * 8;
    n = std::snprintf(line, sizeof line, "%llu,%llu,8,%d,1063\n", ull(timestamp_s), ull(sector), write ? 1 : 0);
    w.time_ns = timestamp_s * 1000000000;
    w.offset = sector * kSectorBytes;
    w.length = 8 * kSectorBytes;
  } else if (format == "vscsi") {   // libCacheSim's CSV: whole seconds (ts / 10^6), opcode in hex, lbn
    const uint64_t lbn = block * 8;
    n = std::snprintf(line, sizeof line, "2,%llu,%s,4096,%llu\n", ull(seconds), write ? "2a" : "28", ull(lbn));
    w.time_ns = seconds * 1000000000;
    w.offset = lbn * kSectorBytes;
  } else if (format == "vscsi-binary") {   // version 2: cmd, ver, sn, len, nSG, lbn, ts (us), rt
    const uint64_t lbn = block * 8;
    put_le(out, write ? 0x2A : 0x28, 2);
    put_le(out, 2u << 8, 2);
    put_le(out, i, 4);
    put_le(out, kRequestBytes, 4);
    put_le(out, 1, 4);
    put_le(out, lbn, 8);
    put_le(out, t_us, 8);
    put_le(out, 100, 8);
    w.time_ns = t_us * 1000;
    w.offset = lbn * kSectorBytes;
    return w;
  } else {
    throw std::invalid_argument("synthetic trace: unknown format " + format);
  }
  out.append(line, size_t(n));
  return w;
}

}  // namespace ssdvp::workload::test
