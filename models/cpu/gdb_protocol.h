// The GDB remote serial protocol without the socket: the framing of the byte stream from the
// debugger into packets, and the answer to each packet against the core being debugged (a
// DebugTarget).  GdbServer (gdb_server.h) puts these on a TCP connection; the fuzzing
// harness feeds them bytes from memory.
//
// Models: "$data#cs" packets (the checksum checked: a bad one is answered with '-' and the
// packet dropped; packets longer than the advertised PacketSize are dropped the same way),
// Ctrl-C (0x03) outside a packet; the commands ?, g, G, p, P, m, M, Z0/Z1, z0/z1, c, s, D, k,
// H, T, qSupported, qAttached, qC, q[fs]ThreadInfo, qXfer:features:read (target.xml).
// Leaves out: binary transfers (X, escapes and run-length encoding in packets), no-ack mode,
// watchpoints, CSR and FP registers, non-stop mode, multi-core thread views.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ssdvp {

// What the server needs from the core it debugs.
class DebugTarget {
 public:
  virtual ~DebugTarget() = default;
  virtual uint32_t read_reg(unsigned n) = 0;          // 0-31: x0-x31, 32: pc
  virtual void write_reg(unsigned n, uint32_t v) = 0;
  virtual bool read_mem(uint32_t addr, uint8_t* out, uint32_t len) = 0;
  virtual bool write_mem(uint32_t addr, const uint8_t* in, uint32_t len) = 0;
};

enum class GdbResume { Continue, Step, Detach, Kill };

// The packets of a byte stream, one byte at a time.
class GdbPacketFramer {
 public:
  // Largest packet data accepted: the PacketSize the server advertises (0x4000 bytes).
  static constexpr size_t kMaxPacket = 0x4000;
  enum class Event {
    None,       // nothing complete yet
    Packet,     // packet() holds a packet's data: acknowledge with '+'
    Rejected,   // a packet with a bad checksum or too long was dropped: answer '-'
    Interrupt,  // Ctrl-C (0x03) outside a packet
  };
  Event feed(char c);
  const std::string& packet() const { return packet_; }

 private:
  enum class State { Idle, Data, Checksum1, Checksum2 } state_ = State::Idle;
  std::string packet_;
  uint8_t sum_ = 0, expected_ = 0;
  bool reject_ = false;   // too long, or a checksum digit that is not hex
};

// "$data#cs" for `data`.
std::string gdb_frame(const std::string& data);

// The answers to packets; keeps the breakpoints.
class GdbCommands {
 public:
  // The reply to packet `p` ("" for an unsupported command, as the protocol says), or, when
  // the packet resumes the core (c, s, D, k), sets `resumed` and `resume` and returns "".
  std::string handle(DebugTarget& t, const std::string& p, GdbResume& resume, bool& resumed);
  bool breakpoint_at(uint32_t pc) const;
  bool has_breakpoints() const { return !breakpoints_.empty(); }

 private:
  std::string target_xml(const std::string& annex, const std::string& range) const;
  std::vector<uint32_t> breakpoints_;
};

}  // namespace ssdvp
