#include "models/cpu/gdb_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <stdexcept>

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

GdbServer::GdbServer(uint16_t port) : port_(port) {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  if (listen_fd_ < 0) throw std::runtime_error("gdb server: cannot create a socket");
  int one = 1;
  setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&a), sizeof(a)) != 0 || ::listen(listen_fd_, 1) != 0) {
    ::close(listen_fd_);
    throw std::runtime_error("gdb server: cannot listen on 127.0.0.1:" + std::to_string(port) + ": " +
                             std::strerror(errno));
  }
}

GdbServer::~GdbServer() {
  if (fd_ >= 0) ::close(fd_);
  if (listen_fd_ >= 0) ::close(listen_fd_);
}

void GdbServer::accept_client() {
  std::fprintf(stderr, "ssdvp: waiting for gdb on 127.0.0.1:%u (target remote :%u)\n", port_, port_);
  fd_ = ::accept(listen_fd_, nullptr, nullptr);
  if (fd_ < 0) throw std::runtime_error("gdb server: accept failed");
  int one = 1;
  setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

bool GdbServer::read_packet(std::string& out) {
  out.clear();
  char c;
  for (;;) {   // skip to '$' (acks and stray bytes; 0x03 outside a packet is an interrupt)
    if (::read(fd_, &c, 1) != 1) return false;
    if (c == '$') break;
  }
  for (;;) {
    if (::read(fd_, &c, 1) != 1) return false;
    if (c == '#') break;
    out += c;
  }
  char cs[2];
  if (::read(fd_, cs, 2) != 2) return false;
  const char ack = '+';
  (void)!::write(fd_, &ack, 1);
  return true;
}

void GdbServer::send_packet(const std::string& data) {
  uint8_t sum = 0;
  for (char c : data) sum = uint8_t(sum + uint8_t(c));
  std::string pkt = "$" + data + "#";
  pkt += kHex[sum >> 4];
  pkt += kHex[sum & 15];
  for (;;) {
    if (::write(fd_, pkt.data(), pkt.size()) != ssize_t(pkt.size())) return;
    char ack;
    if (::read(fd_, &ack, 1) != 1 || ack != '-') return;   // '+' (or connection gone)
  }
}

bool GdbServer::interrupt_requested() {
  if (fd_ < 0 || detached_) return false;
  pollfd p{fd_, POLLIN, 0};
  if (::poll(&p, 1, 0) <= 0) return false;
  char c;
  if (::recv(fd_, &c, 1, MSG_PEEK) != 1) return false;
  if (c != 0x03) return false;
  (void)!::read(fd_, &c, 1);
  return true;
}

bool GdbServer::breakpoint_at(uint32_t pc) const {
  return std::find(breakpoints_.begin(), breakpoints_.end(), pc) != breakpoints_.end();
}

std::string GdbServer::target_xml(const std::string& annex, const std::string& range) const {
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

GdbServer::Resume GdbServer::serve(DebugTarget& t, int signal) {
  if (detached_) return Resume::Detach;
  if (fd_ < 0) accept_client();
  else send_packet("S" + std::string(1, kHex[(signal >> 4) & 15]) + kHex[signal & 15]);
  std::string pkt;
  for (;;) {
    if (!read_packet(pkt)) {   // connection gone: run on without the debugger
      detached_ = true;
      return Resume::Detach;
    }
    Resume resume = Resume::Continue;
    bool resumed = false;
    const std::string reply = handle(t, pkt, resume, resumed);
    if (resumed) {
      if (resume == Resume::Detach) send_packet("OK");
      if (resume == Resume::Detach) detached_ = true;
      return resume;
    }
    send_packet(reply);
  }
}

std::string GdbServer::handle(DebugTarget& t, const std::string& p, Resume& resume, bool& resumed) {
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
      resume = p[0] == 'c' ? Resume::Continue : Resume::Step;
      resumed = true;
      return "";
    case 'D':
      resume = Resume::Detach;
      resumed = true;
      return "";
    case 'k':
      resume = Resume::Kill;
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
