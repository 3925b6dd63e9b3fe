#include "models/cpu/gdb_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace ssdvp {

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
  char c;
  for (;;) {
    if (::read(fd_, &c, 1) != 1) return false;
    switch (framer_.feed(c)) {
      case GdbPacketFramer::Event::Packet: {
        const char ack = '+';
        (void)!::write(fd_, &ack, 1);
        out = framer_.packet();
        return true;
      }
      case GdbPacketFramer::Event::Rejected: {   // the debugger sends it again
        const char nack = '-';
        (void)!::write(fd_, &nack, 1);
        break;
      }
      default: break;   // acks, stray bytes, Ctrl-C while the core is halted anyway
    }
  }
}

void GdbServer::send_packet(const std::string& data) {
  const std::string pkt = gdb_frame(data);
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

GdbServer::Resume GdbServer::serve(DebugTarget& t, int signal) {
  if (detached_) return Resume::Detach;
  if (fd_ < 0) accept_client();
  else {
    const char hex[] = "0123456789abcdef";
    send_packet("S" + std::string(1, hex[(signal >> 4) & 15]) + hex[signal & 15]);
  }
  std::string pkt;
  for (;;) {
    if (!read_packet(pkt)) {   // connection gone: run on without the debugger
      detached_ = true;
      return Resume::Detach;
    }
    Resume resume = Resume::Continue;
    bool resumed = false;
    const std::string reply = commands_.handle(t, pkt, resume, resumed);
    if (resumed) {
      if (resume == Resume::Detach) send_packet("OK");
      if (resume == Resume::Detach) detached_ = true;
      return resume;
    }
    send_packet(reply);
  }
}

}  // namespace ssdvp
