#include "platforms/serve/nbd_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <deque>
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>

#include "platforms/serve/nbd_protocol.h"

namespace ssdvp::nbd {

namespace {

// Big-endian fields in a byte buffer.
void put16(std::vector<uint8_t>& b, uint16_t v) {
  b.push_back(uint8_t(v >> 8));
  b.push_back(uint8_t(v));
}
void put32(std::vector<uint8_t>& b, uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) b.push_back(uint8_t(v >> s));
}
void put64(std::vector<uint8_t>& b, uint64_t v) {
  for (int s = 56; s >= 0; s -= 8) b.push_back(uint8_t(v >> s));
}
uint16_t get16(const uint8_t* p) { return uint16_t(p[0] << 8 | p[1]); }
uint32_t get32(const uint8_t* p) { return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3]; }
uint64_t get64(const uint8_t* p) { return uint64_t(get32(p)) << 32 | get32(p + 4); }

// Protocol errors: the connection cannot go on (what() says what the client sent).
struct ProtocolError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct Closed {};   // the client closed its end (or the server closes every connection)

}  // namespace

struct Server::Conn {
  int fd = -1;
  uint32_t id = 0;
  std::string peer;
  bool structured = false;
  std::mutex mu;
  std::condition_variable cv;
  struct Reply {
    std::vector<uint8_t> bytes;
    std::chrono::steady_clock::time_point not_before;
  };
  std::deque<Reply> replies;                  // to send, in order
  uint64_t outstanding = 0;                   // requests handed to the drive, not yet answered
  bool reader_done = false, dead = false;
  std::thread writer;

  void read_exact(void* buf, size_t n) {
    auto* p = static_cast<uint8_t*>(buf);
    while (n) {
      const ssize_t r = ::recv(fd, p, n, 0);
      if (r == 0) throw Closed{};
      if (r < 0) {
        if (errno == EINTR) continue;
        throw Closed{};
      }
      p += r;
      n -= size_t(r);
    }
  }
  void write_all(const uint8_t* p, size_t n) {
    while (n) {
      const ssize_t r = ::send(fd, p, n, MSG_NOSIGNAL);
      if (r < 0) {
        if (errno == EINTR) continue;
        throw Closed{};
      }
      p += r;
      n -= size_t(r);
    }
  }
  void write_all(const std::vector<uint8_t>& b) { write_all(b.data(), b.size()); }
};

namespace {

sockaddr_un unix_address(const std::string& path) {
  sockaddr_un a{};
  if (path.empty() || path.size() >= sizeof a.sun_path)
    throw std::runtime_error(fmt::format("ssdvp serve: --socket {}: {} (a Unix socket path has 1 to {} bytes)", path,
                                         path.empty() ? "empty" : "too long", sizeof a.sun_path - 1));
  a.sun_family = AF_UNIX;
  std::memcpy(a.sun_path, path.c_str(), path.size() + 1);
  return a;
}

const char* kind_of(mode_t m) {
  return S_ISDIR(m) ? "a folder" : S_ISREG(m) ? "a file" : S_ISLNK(m) ? "a symbolic link" : S_ISFIFO(m) ? "a FIFO"
                                                                                          : "not a socket";
}

}  // namespace

void check_unix_socket_path(const std::string& path) {
  sockaddr_un a = unix_address(path);
  const std::string folder = std::filesystem::path(path).parent_path().string();
  struct stat st {};
  if (!folder.empty() && (::stat(folder.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)))
    throw std::runtime_error(fmt::format("ssdvp serve: --socket {}: its folder {} does not exist", path, folder));
  if (::lstat(path.c_str(), &st) != 0) return;   // nothing there
  if (!S_ISSOCK(st.st_mode))
    throw std::runtime_error(fmt::format("ssdvp serve: --socket {}: {} is there, not a socket; refused (nothing was "
                                         "removed): give a free path",
                                         path, kind_of(st.st_mode)));
  const int probe = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const bool answered = probe >= 0 && ::connect(probe, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  if (probe >= 0) ::close(probe);
  if (answered)
    throw std::runtime_error(fmt::format("ssdvp serve: --socket {}: another server is listening on it; refused", path));
}

namespace {

// A TCP socket bound to 127.0.0.1:port, or -1 with errno set.
int bound_loopback_socket(uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  const int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) return fd;
  const int err = errno;
  ::close(fd);
  errno = err;
  return -1;
}

}  // namespace

void check_tcp_port(uint16_t port) {
  const int fd = bound_loopback_socket(port);
  if (fd < 0)
    throw std::runtime_error(fmt::format("ssdvp serve: --tcp {}: cannot listen on 127.0.0.1:{}: {}", port, port,
                                         std::strerror(errno)));
  ::close(fd);
}

Server::Server(ExportInfo e, Submit submit, std::function<void(const std::string&)> log)
    : e_(std::move(e)), submit_(std::move(submit)), log_(std::move(log)) {}

Server::~Server() {
  close_all();
  if (acceptor_.joinable()) acceptor_.join();
  for (std::thread& t : threads_)
    if (t.joinable()) t.join();
  // Only the socket this server made: another server may have taken the path since.
  struct stat st {};
  if (!unix_path_.empty() && ::lstat(unix_path_.c_str(), &st) == 0 && st.st_dev == unix_dev_ && st.st_ino == unix_ino_)
    ::unlink(unix_path_.c_str());
}

void Server::listen_unix(const std::string& path) {
  check_unix_socket_path(path);   // (again: the path may have changed since the command checked it)
  sockaddr_un a = unix_address(path);
  listen_fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0 && S_ISSOCK(st.st_mode)) ::unlink(path.c_str());   // a stale socket: no one answers
  if (listen_fd_ < 0 || ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(listen_fd_, 16) != 0)
    throw std::runtime_error(fmt::format("ssdvp serve: cannot listen on the Unix socket {}: {}", path, std::strerror(errno)));
  if (::lstat(path.c_str(), &st) == 0) {
    unix_dev_ = st.st_dev;
    unix_ino_ = st.st_ino;
  }
  unix_path_ = path;
  uri_ = "nbd+unix:///?socket=" + path;
}

void Server::listen_tcp(uint16_t port) {
  listen_fd_ = bound_loopback_socket(port);
  if (listen_fd_ < 0 || ::listen(listen_fd_, 16) != 0)
    throw std::runtime_error(fmt::format("ssdvp serve: cannot listen on 127.0.0.1:{}: {}", port, std::strerror(errno)));
  uri_ = fmt::format("nbd://127.0.0.1:{}/", port);
}

void Server::start() { acceptor_ = std::thread([this] { accept_loop(); }); }

void Server::accept_loop() {
  while (!closing_) {
    pollfd p{listen_fd_, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) {
      bool idle = false;
      {
        std::lock_guard<std::mutex> g(mu_);
        idle = conns_.empty() && stats_.connections > 0 && !idle_reported_ &&
               std::chrono::steady_clock::now() - last_close_ >= std::chrono::duration<double>(linger);
        if (idle) idle_reported_ = true;
      }
      if (idle && on_last_close) on_last_close();
      continue;
    }
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);   // (fails harmlessly on Unix sockets)
    auto c = std::make_shared<Conn>();
    c->fd = fd;
    {
      std::lock_guard<std::mutex> g(mu_);
      if (closing_) {
        ::close(fd);
        break;
      }
      c->id = next_conn_++;
      idle_reported_ = false;
      c->peer = fmt::format("client {} ({})", c->id, uri_);
      conns_[c->id] = c;
      stats_.connections++;
      threads_.emplace_back([this, c] { serve(c); });
    }
  }
}

unsigned Server::open_connections() const {
  std::lock_guard<std::mutex> g(mu_);
  return unsigned(conns_.size());
}

ServerStats Server::stats() const {
  std::lock_guard<std::mutex> g(mu_);
  return stats_;
}

void Server::close_all() {
  closing_ = true;
  std::lock_guard<std::mutex> g(mu_);
  if (listen_fd_ >= 0) {
    ::close(listen_fd_);
    listen_fd_ = -1;
  }
  for (auto& [id, c] : conns_) {
    std::lock_guard<std::mutex> cg(c->mu);
    c->dead = true;
    ::shutdown(c->fd, SHUT_RDWR);
    c->cv.notify_all();
  }
}

void Server::serve(std::shared_ptr<Conn> c) {
  try {
    if (negotiate(*c)) {
      c->writer = std::thread([this, c] { writer(c); });
      transmit(*c);
    }
  } catch (const Closed&) {
  } catch (const ProtocolError& e) {
    {
      std::lock_guard<std::mutex> g(mu_);
      stats_.protocol_errors++;
    }
    log_(fmt::format("ssdvp serve: {}: {}; connection closed", c->peer, e.what()));
  }
  finish(*c);
}

// The fixed newstyle handshake; true: transmission follows.
bool Server::negotiate(Conn& c) {
  std::vector<uint8_t> b;
  put64(b, kNbdMagic);
  put64(b, kOptMagic);
  put16(b, kFlagFixedNewstyle | kFlagNoZeroes);
  c.write_all(b);
  uint8_t cf[4];
  c.read_exact(cf, 4);
  const uint32_t client_flags = get32(cf);
  if (client_flags & ~(kClientFixedNewstyle | kClientNoZeroes))
    throw ProtocolError(fmt::format("unknown client flags 0x{:x} in the handshake", client_flags));
  const bool no_zeroes = client_flags & kClientNoZeroes;
  const uint16_t tflags = kFlagHasFlags | kFlagSendFlush | kFlagSendFua | kFlagSendTrim | kFlagSendWriteZeroes | kFlagCanMultiConn;
  const auto option_reply = [&](uint32_t opt, uint32_t type, const std::vector<uint8_t>& data) {
    std::vector<uint8_t> r;
    put64(r, kRepMagic);
    put32(r, opt);
    put32(r, type);
    put32(r, uint32_t(data.size()));
    r.insert(r.end(), data.begin(), data.end());
    c.write_all(r);
  };
  const auto error_reply = [&](uint32_t opt, uint32_t type, const std::string& why) {
    option_reply(opt, type, std::vector<uint8_t>(why.begin(), why.end()));
  };
  const auto known = [&](const std::string& name) { return name.empty() || name == e_.name; };
  for (;;) {
    uint8_t h[16];
    c.read_exact(h, 16);
    if (get64(h) != kOptMagic) throw ProtocolError(fmt::format("option magic 0x{:016x}, not IHAVEOPT", get64(h)));
    const uint32_t opt = get32(h + 8), len = get32(h + 12);
    if (len > 65536) throw ProtocolError(fmt::format("option {} of {} bytes (at most 65536)", opt, len));
    std::vector<uint8_t> data(len);
    if (len) c.read_exact(data.data(), len);
    switch (opt) {
      case kOptExportName: {
        const std::string name(data.begin(), data.end());
        if (!known(name)) throw ProtocolError("NBD_OPT_EXPORT_NAME '" + name + "': no such export (serving '" + e_.name + "')");
        std::vector<uint8_t> r;
        put64(r, e_.size);
        put16(r, tflags);
        if (!no_zeroes) r.resize(r.size() + 124, 0);
        c.write_all(r);
        return true;
      }
      case kOptAbort:
        option_reply(opt, kRepAck, {});
        return false;
      case kOptList: {
        if (len) {
          error_reply(opt, kRepErrInvalid, "NBD_OPT_LIST takes no data");
          break;
        }
        std::vector<uint8_t> r;
        put32(r, uint32_t(e_.name.size()));
        r.insert(r.end(), e_.name.begin(), e_.name.end());
        option_reply(opt, kRepServer, r);
        option_reply(opt, kRepAck, {});
        break;
      }
      case kOptStructuredReply:
        if (len) {
          error_reply(opt, kRepErrInvalid, "NBD_OPT_STRUCTURED_REPLY takes no data");
          break;
        }
        c.structured = true;
        option_reply(opt, kRepAck, {});
        break;
      case kOptInfo:
      case kOptGo: {
        if (len < 6 || get32(data.data()) > len - 6 || len != 6 + get32(data.data()) + 2u * get16(data.data() + 4 + get32(data.data()))) {
          error_reply(opt, kRepErrInvalid, "malformed NBD_OPT_INFO/GO");
          break;
        }
        const uint32_t nlen = get32(data.data());
        const std::string name(data.begin() + 4, data.begin() + 4 + nlen);
        if (!known(name)) {
          error_reply(opt, kRepErrUnknown, "no export '" + name + "' (serving '" + e_.name + "')");
          break;
        }
        std::vector<uint8_t> r;
        put16(r, kInfoExport);
        put64(r, e_.size);
        put16(r, tflags);
        option_reply(opt, kRepInfo, r);
        r.clear();
        put16(r, kInfoBlockSize);
        put32(r, e_.block);
        put32(r, e_.block);
        put32(r, e_.max_block);
        option_reply(opt, kRepInfo, r);
        if (!e_.description.empty()) {
          r.clear();
          put16(r, kInfoDescription);
          r.insert(r.end(), e_.description.begin(), e_.description.end());
          option_reply(opt, kRepInfo, r);
        }
        option_reply(opt, kRepAck, {});
        if (opt == kOptGo) return true;
        break;
      }
      case kOptStartTls:
        error_reply(opt, kRepErrPolicy, "ssdvp serve has no TLS (use the Unix socket, or TCP on localhost)");
        break;
      default:
        error_reply(opt, kRepErrUnsup, fmt::format("option {} is not supported", opt));
        break;
    }
  }
}

// Reads requests until NBD_CMD_DISC, the client's close or a protocol error.
bool Server::transmit(Conn& c) {
  for (;;) {
    uint8_t h[28];
    c.read_exact(h, 28);
    if (get32(h) != kRequestMagic)
      throw ProtocolError(fmt::format("request magic 0x{:08x}, not 0x{:08x}", get32(h), kRequestMagic));
    auto r = std::make_unique<Request>();
    r->conn = c.id;
    r->flags = get16(h + 4);
    r->type = get16(h + 6);
    r->handle = get64(h + 8);
    r->offset = get64(h + 16);
    r->length = get32(h + 24);
    if (r->type == kCmdDisc) return true;
    const bool writes = r->type == kCmdWrite;
    if (writes && r->length > 4 * e_.max_block)   // too much to read and drop
      throw ProtocolError(fmt::format("NBD_CMD_WRITE of {} bytes at offset {} (the export's maximum block is {})", r->length,
                                      r->offset, e_.max_block));
    if (writes) {
      r->data.resize(r->length);
      if (r->length) c.read_exact(r->data.data(), r->length);
    }
    // Checks: what the drive never sees.
    uint32_t error = kOk;
    std::string why;
    const bool ranged = r->type == kCmdRead || writes || r->type == kCmdTrim || r->type == kCmdWriteZeroes;
    if (!ranged && r->type != kCmdFlush) {
      error = kEinval;
      why = fmt::format("command {} is not supported", r->type);
    } else if (ranged && (r->offset % e_.block || r->length % e_.block)) {
      error = kEinval;
      why = fmt::format("offset {} length {} is not aligned to the export's {}-byte blocks", r->offset, r->length, e_.block);
    } else if (ranged && (r->offset > e_.size || r->length > e_.size - r->offset)) {
      error = writes || r->type == kCmdWriteZeroes ? kEnospc : kEinval;
      why = fmt::format("offset {} length {} goes past the end of the export ({} bytes)", r->offset, r->length, e_.size);
    } else if (ranged && r->length > e_.max_block && r->type != kCmdTrim && r->type != kCmdWriteZeroes) {
      error = kEinval;
      why = fmt::format("length {} is over the export's maximum block ({} bytes)", r->length, e_.max_block);
    } else if (ranged && r->length == 0) {
      why = "empty";   // nothing to do: success
    }
    {
      std::lock_guard<std::mutex> g(c.mu);
      c.outstanding++;
    }
    {
      std::lock_guard<std::mutex> g(mu_);
      stats_.requests++;
      if (error) stats_.refused++;
    }
    if (error || !why.empty()) {
      r->data.clear();
      reply(std::move(r), error, why);
      continue;
    }
    if (r->type == kCmdRead) r->data.assign(r->length, 0);
    submit_(std::move(r));
  }
}

void Server::reply(std::unique_ptr<Request> r, uint32_t error, const std::string& message,
                   std::chrono::steady_clock::time_point not_before) {
  std::shared_ptr<Conn> c;
  {
    std::lock_guard<std::mutex> g(mu_);
    auto it = conns_.find(r->conn);
    if (it == conns_.end()) return;
    c = it->second;
  }
  std::vector<uint8_t> b;
  if (r->type == kCmdRead && c->structured) {
    if (error == kOk) {
      put32(b, kStructuredReplyMagic);
      put16(b, kReplyFlagDone);
      put16(b, kReplyTypeOffsetData);
      put64(b, r->handle);
      put32(b, 8 + r->length);
      put64(b, r->offset);
      b.insert(b.end(), r->data.begin(), r->data.end());
    } else {
      const std::string m = message.substr(0, 4096);
      put32(b, kStructuredReplyMagic);
      put16(b, kReplyFlagDone);
      put16(b, kReplyTypeError);
      put64(b, r->handle);
      put32(b, uint32_t(6 + m.size()));
      put32(b, error);
      put16(b, uint16_t(m.size()));
      b.insert(b.end(), m.begin(), m.end());
    }
  } else {
    put32(b, kSimpleReplyMagic);
    put32(b, error);
    put64(b, r->handle);
    if (r->type == kCmdRead && error == kOk) b.insert(b.end(), r->data.begin(), r->data.end());
  }
  std::lock_guard<std::mutex> g(c->mu);
  c->replies.push_back({std::move(b), not_before});
  c->outstanding--;
  c->cv.notify_all();
}

void Server::writer(std::shared_ptr<Conn> c) {
  ::prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);   // realtime replies wait microseconds, not Linux's default 50
  std::unique_lock<std::mutex> lk(c->mu);
  for (;;) {
    c->cv.wait(lk, [&] { return c->dead || !c->replies.empty() || (c->reader_done && c->outstanding == 0); });
    if (c->dead) return;
    if (c->replies.empty()) return;   // the reader is done and nothing is owed
    Conn::Reply rep = std::move(c->replies.front());
    c->replies.pop_front();
    lk.unlock();
    if (rep.not_before > std::chrono::steady_clock::now()) std::this_thread::sleep_until(rep.not_before);
    try {
      c->write_all(rep.bytes);
    } catch (const Closed&) {
      lk.lock();
      c->dead = true;
      return;
    }
    lk.lock();
  }
}

// The reader is done: the writer sends what is owed (requests already with the drive are
// answered first, unless the server is closing), then the connection goes.
void Server::finish(Conn& c) {
  {
    std::lock_guard<std::mutex> g(c.mu);
    c.reader_done = true;
    c.cv.notify_all();
  }
  if (c.writer.joinable()) c.writer.join();
  std::lock_guard<std::mutex> g(mu_);
  ::close(c.fd);
  conns_.erase(c.id);
  last_close_ = std::chrono::steady_clock::now();
}

}  // namespace ssdvp::nbd
