// GDB remote protocol framing and commands: see gdb_protocol.h.
#include "models/cpu/gdb_protocol.h"

#include <algorithm>

namespace ssdvp {

namespace {

const char kHex[] = "0123456789abcdef";

std::string hex_bytes(const uint8_t* p, size_t n) {
  std::string s;
  for (size_t i = 0; i < n; i++) {
    s += kHex[p[i] >> 4];
    s += kHex[p[i] & 15];
  }
  return s;
}

int nibble(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool parse_hex(const std::string& s, uint32_t& v) {
  if (s.empty() || s.size() > 8) return false;
  v = 0;
  for (char c : s) {
    const int n = nibble(c);
    if (n < 0) return false;
    v = v << 4 | uint32_t(n);
  }
  return true;
}

std::string reg_hex(uint32_t v) {
  uint8_t b[4] = {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)};
  return hex_bytes(b, 4);
}

bool decode_reg(const std::string& s, uint32_t& v) {   // little-endian hex, 8 digits
  if (s.size() != 8) return false;
  v = 0;
  for (int i = 3; i >= 0; i--) {
    const int hi = nibble(s[size_t(2 * i)]), lo = nibble(s[size_t(2 * i + 1)]);
    if (hi < 0 || lo < 0) return false;
    v = v << 8 | uint32_t(hi << 4 | lo);
  }
  return true;
}

const char kTargetXml[] =
    "<?xml version=\"1.0\"?><!DOCTYPE target SYSTEM \"gdb-target.dtd\">"
    "<target version=\"1.0\"><architecture>riscv:rv32</architecture>"
    "<feature name=\"org.gnu.gdb.riscv.cpu\">"
    "<reg name=\"zero\" bitsize=\"32\" type=\"int\" regnum=\"0\"/>"
    "<reg name=\"ra\" bitsize=\"32\" type=\"code_ptr\"/><reg name=\"sp\" bitsize=\"32\" type=\"data_ptr\"/>"
    "<reg name=\"gp\" bitsize=\"32\" type=\"data_ptr\"/><reg name=\"tp\" bitsize=\"32\" type=\"data_ptr\"/>"
    "<reg name=\"t0\" bitsize=\"32\" type=\"int\"/><reg name=\"t1\" bitsize=\"32\" type=\"int\"/>"
    "<reg name=\"t2\" bitsize=\"32\" type=\"int\"/><reg name=\"fp\" bitsize=\"32\" type=\"data_ptr\"/>"
    "<reg name=\"s1\" bitsize=\"32\" type=\"int\"/><reg name=\"a0\" bitsize=\"32\" type=\"int\"/>"
    "<reg name=\"a1\" bitsize=\"32\" type=\"int\"/><reg name=\"a2\" bitsize=\"32\" type=\"int\"/>"
    "<reg name=\"a3\" bitsize=\"32\" type=\"int\"/><reg name=\"a4\" bitsize=\"32\" type=\"int\"/>"
    "<reg name=\"a5\" bitsize=\"32\" type=\"int\"/><reg name=\"a6\" bitsize=\"32\" type=\"int\"/>"
    "<reg name=\"a7\" bitsize=\"32\" type=\"int\"/><reg name=\"s2\" bitsize=\"32\" type=\"int\"/>"
    "<reg name=\"s3\" bitsize=\"32\" type=\"int\"/><reg name=\"s4\" bitsize=\"32\" type=\"int\"/>"
    "<reg name=\"s5\" bitsize=\"32\" type=\"int\"/><reg name=\"s6\" bitsize=\"32\" type=\"int\"/>"
    "<reg name=\"s7\" bitsize=\"32\" type=\"int\"/><reg name=\"s8\" bitsize=\"32\" type=\"int\"/>"
    "<reg name=\"s9\" bitsize=\"32\" type=\"int\"/><reg name=\"s10\" bitsize=\"32\" type=\"int\"/>"
    "<reg name=\"s11\" bitsize=\"32\" type=\"int\"/><reg name=\"t3\" bitsize=\"32\" type=\"int\"/>"
    "<reg name=\"t4\" bitsize=\"32\" type=\"int\"/><reg name=\"t5\" bitsize=\"32\" type=\"int\"/>"
    "<reg name=\"t6\" bitsize=\"32\" type=\"int\"/><reg name=\"pc\" bitsize=\"32\" type=\"code_ptr\"/>"
    "</feature></target>";

}  // namespace

GdbPacketFramer::Event GdbPacketFramer::feed(char c) {
  switch (state_) {
    case State::Idle:   // acks and stray bytes are skipped; 0x03 outside a packet is an interrupt
      if (c == 0x03) return Event::Interrupt;
      if (c == '$') {
        packet_.clear();
        sum_ = 0;
        reject_ = false;
        state_ = State::Data;
      }
      return Event::None;
    case State::Data:
      if (c == '#') {
        state_ = State::Checksum1;
        return Event::None;
      }
      sum_ = uint8_t(sum_ + uint8_t(c));
      if (packet_.size() < kMaxPacket) packet_ += c;
      else reject_ = true;   // too long
      return Event::None;
    case State::Checksum1:
      expected_ = uint8_t(std::max(nibble(c), 0) << 4);
      reject_ |= nibble(c) < 0;
      state_ = State::Checksum2;
      return Event::None;
    case State::Checksum2:
      state_ = State::Idle;
      if (reject_ || nibble(c) < 0 || uint8_t(expected_ | nibble(c)) != sum_) {
        packet_.clear();
        return Event::Rejected;
      }
      return Event::Packet;
  }
  return Event::None;
}

std::string gdb_frame(const std::string& data) {
  uint8_t sum = 0;
  for (char c : data) sum = uint8_t(sum + uint8_t(c));
  std::string pkt = "$" + data + "#";
  pkt += kHex[sum >> 4];
  pkt += kHex[sum & 15];
  return pkt;
}

bool GdbCommands::breakpoint_at(uint32_t pc) const {
  return std::find(breakpoints_.begin(), breakpoints_.end(), pc) != breakpoints_.end();
}

std::string GdbCommands::target_xml(const std::string& annex, const std::string& range) const {
  if (annex != "target.xml") return "E00";
  const auto comma = range.find(',');
  uint32_t off = 0, len = 0;
  if (comma == std::string::npos || !parse_hex(range.substr(0, comma), off) || !parse_hex(range.substr(comma + 1), len))
    return "E01";
  const std::string xml = kTargetXml;
  if (off >= xml.size()) return "l";
  const std::string part = xml.substr(off, len);
  return (off + part.size() >= xml.size() ? "l" : "m") + part;
}

std::string GdbCommands::handle(DebugTarget& t, const std::string& p, GdbResume& resume, bool& resumed) {
  if (p.empty()) return "";
  switch (p[0]) {
    case '?': return "S05";
    case 'g': {
      std::string s;
      for (unsigned r = 0; r <= 32; r++) s += reg_hex(t.read_reg(r));
      return s;
    }
    case 'G': {
      if (p.size() != 1 + 33 * 8) return "E01";
      for (unsigned r = 0; r <= 32; r++) {
        uint32_t v;
        if (!decode_reg(p.substr(1 + 8 * r, 8), v)) return "E01";
        if (r) t.write_reg(r, v);
      }
      return "OK";
    }
    case 'p': {
      uint32_t n;
      if (!parse_hex(p.substr(1), n)) return "E01";
      return n <= 32 ? reg_hex(t.read_reg(n)) : "E45";
    }
    case 'P': {
      const auto eq = p.find('=');
      uint32_t n, v;
      if (eq == std::string::npos || !parse_hex(p.substr(1, eq - 1), n) || !decode_reg(p.substr(eq + 1), v) || n > 32)
        return "E01";
      if (n) t.write_reg(n, v);
      return "OK";
    }
    case 'm': {
      const auto comma = p.find(',');
      uint32_t addr, len;
      if (comma == std::string::npos || !parse_hex(p.substr(1, comma - 1), addr) || !parse_hex(p.substr(comma + 1), len) ||
          len > 0x1000)
        return "E01";
      if (len == 0) return "";   // nothing to read: the target is not asked (no buffer to give it)
      std::vector<uint8_t> buf(len);
      if (!t.read_mem(addr, buf.data(), len)) return "E14";
      return hex_bytes(buf.data(), len);
    }
    case 'M': {
      const auto comma = p.find(','), colon = p.find(':');
      uint32_t addr, len;
      if (comma == std::string::npos || colon == std::string::npos || !parse_hex(p.substr(1, comma - 1), addr) ||
          !parse_hex(p.substr(comma + 1, colon - comma - 1), len) || p.size() - colon - 1 != 2 * size_t(len))
        return "E01";
      if (len == 0) return "OK";
      std::vector<uint8_t> buf(len);
      for (uint32_t i = 0; i < len; i++) {
        const int hi = nibble(p[colon + 1 + 2 * i]), lo = nibble(p[colon + 2 + 2 * i]);
        if (hi < 0 || lo < 0) return "E01";
        buf[i] = uint8_t(hi << 4 | lo);
      }
      return t.write_mem(addr, buf.data(), len) ? "OK" : "E14";
    }
    case 'Z':
    case 'z': {
      // Software and hardware breakpoints alike: the core checks PCs, memory is untouched.
      if (p.size() < 4 || (p[1] != '0' && p[1] != '1')) return "";
      const auto comma = p.find(',', 3);
      uint32_t addr;
      if (!parse_hex(p.substr(3, comma - 3), addr)) return "E01";
      auto it = std::find(breakpoints_.begin(), breakpoints_.end(), addr);
      if (p[0] == 'Z' && it == breakpoints_.end()) breakpoints_.push_back(addr);
      if (p[0] == 'z' && it != breakpoints_.end()) breakpoints_.erase(it);
      return "OK";
    }
    case 'c':
    case 's':
      if (p.size() > 1) {   // resume address
        uint32_t addr;
        if (!parse_hex(p.substr(1), addr)) return "E01";
        t.write_reg(32, addr);
      }
      resume = p[0] == 'c' ? GdbResume::Continue : GdbResume::Step;
      resumed = true;
      return "";
    case 'D':
      resume = GdbResume::Detach;
      resumed = true;
      return "";
    case 'k':
      resume = GdbResume::Kill;
      resumed = true;
      return "";
    case 'H': return "OK";
    case 'T': return "OK";
    case 'q':
      if (p.rfind("qSupported", 0) == 0) return "PacketSize=4000;qXfer:features:read+";
      if (p == "qAttached") return "1";
      if (p == "qC") return "QC1";
      if (p == "qfThreadInfo") return "m1";
      if (p == "qsThreadInfo") return "l";
      if (p.rfind("qXfer:features:read:", 0) == 0) {
        const std::string rest = p.substr(20);
        const auto colon = rest.find(':');
        return colon == std::string::npos ? "E00" : target_xml(rest.substr(0, colon), rest.substr(colon + 1));
      }
      return "";
    default: return "";   // unsupported: gdb falls back
  }
}

}  // namespace ssdvp
