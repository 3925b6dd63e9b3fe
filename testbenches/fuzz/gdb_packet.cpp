// Fuzzing harness: the GDB remote protocol as the server parses it, without a socket
// (gdb_protocol.h): a byte stream through the packet framer, and each packet through the
// command handler against a small fake core.
//
// Input: the first byte picks the mode: even, the rest is the raw byte stream from the
// debugger (framing, checksums, Ctrl-C); odd, the rest is packet data separated by '\n',
// handed to the command handler directly (so that the fuzzer need not compute checksums).
// The fake core has 33 registers and 4 KiB of memory at 0x1000; every access the handler
// makes must be inside what it answers for.
// Leaves out: the socket (accept, acks on the wire, the connection going away), the ISS core
// behind the real DebugTarget.
#include <cstdint>
#include <cstring>
#include <string>

#include "fuzz_check.h"
#include "models/cpu/gdb_protocol.h"

using ssdvp::fuzz::check;
using ssdvp::fuzz::note;

namespace {

class FakeCore : public ssdvp::DebugTarget {
 public:
  uint32_t read_reg(unsigned n) override {
    check(n <= 32, "read_reg(" + std::to_string(n) + ")");
    return regs_[n];
  }
  void write_reg(unsigned n, uint32_t v) override {
    check(n <= 32, "write_reg(" + std::to_string(n) + ")");
    regs_[n] = v;
  }
  bool read_mem(uint32_t addr, uint8_t* out, uint32_t len) override {
    if (!inside(addr, len)) return false;
    std::memcpy(out, mem_ + (addr - kBase), len);
    return true;
  }
  bool write_mem(uint32_t addr, const uint8_t* in, uint32_t len) override {
    if (!inside(addr, len)) return false;
    std::memcpy(mem_ + (addr - kBase), in, len);
    return true;
  }

 private:
  static constexpr uint32_t kBase = 0x1000, kSize = 0x1000;
  static bool inside(uint32_t addr, uint32_t len) {
    return addr >= kBase && uint64_t(addr) + len <= uint64_t(kBase) + kSize;
  }
  uint32_t regs_[33] = {};
  uint8_t mem_[kSize] = {};
};

void serve(ssdvp::GdbCommands& commands, FakeCore& core, const std::string& packet) {
  ssdvp::GdbResume resume = ssdvp::GdbResume::Continue;
  bool resumed = false;
  const std::string reply = commands.handle(core, packet, resume, resumed);
  note("packet '" + packet + "' reply '" + reply + "'");
  check(!resumed || reply.empty(), "a resuming packet with a reply");
  check(reply.size() <= 2 * ssdvp::GdbPacketFramer::kMaxPacket, "a reply larger than a packet");
  ssdvp::gdb_frame(reply);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  FakeCore core;
  ssdvp::GdbCommands commands;
  const std::string rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] & 1u) {
    for (size_t start = 0; start <= rest.size();) {
      const size_t end = rest.find('\n', start);
      serve(commands, core, rest.substr(start, end == std::string::npos ? std::string::npos : end - start));
      if (end == std::string::npos) break;
      start = end + 1;
    }
    return 0;
  }
  ssdvp::GdbPacketFramer framer;
  for (char c : rest) {
    if (framer.feed(c) != ssdvp::GdbPacketFramer::Event::Packet) continue;
    check(framer.packet().size() <= ssdvp::GdbPacketFramer::kMaxPacket, "a packet beyond PacketSize");
    serve(commands, core, framer.packet());
  }
  return 0;
}
