// An NBD server (the network block device protocol, fixed newstyle) for ssdvp serve: one export
// whose requests go to the simulated drive.
//
// Models nothing: it is the drive's network front.  It listens on a Unix socket or on TCP bound
// to localhost, negotiates (EXPORT_NAME, INFO, GO, LIST, ABORT, STRUCTURED_REPLY; block sizes
// 4 KiB minimum and preferred), then reads each connection's requests on that connection's own
// thread, checks them (a request past the end or not 4 KiB aligned gets EINVAL, or ENOSPC for a
// write, and never reaches the drive; a malformed request closes the connection with a line
// naming the client and what it sent) and hands them to the simulation; replies go out on a
// writer thread per connection, in completion order (NBD allows any order).  Several
// connections (multi-conn) each get a connection number; the drive's flush covers them all.
// Why not nbdkit: Debian 12's nbdkit (1.32) cannot drop a client's connection with requests in
// flight (nbdkit_disconnect came later), which a power cut needs, and a plugin would put the
// SystemC kernel inside nbdkit's process and threads; see docs/serve.md.
// Leaves out: TLS, metadata contexts (block status), extended headers, NBD_CMD_CACHE.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace ssdvp::nbd {

// One request of a client, checked, on its way to the drive and back.
struct Request {
  uint32_t conn = 0;          // connection number (0, 1, ... in the order they came)
  uint16_t type = 0;          // Cmd
  uint16_t flags = 0;         // kCmdFlag*
  uint64_t handle = 0;        // the client's
  uint64_t offset = 0;        // bytes
  uint32_t length = 0;        // bytes
  std::vector<uint8_t> data;  // WRITE: the data; READ: room for it, filled by the drive
};

struct ExportInfo {
  std::string name;           // also served as "" (the default export)
  std::string description;
  uint64_t size = 0;          // bytes, a multiple of block
  uint32_t block = 4096;      // minimum and preferred block size
  uint32_t max_block = 32u << 20;
};

struct ServerStats {
  uint64_t connections = 0, requests = 0, refused = 0, protocol_errors = 0;
};

// Whether `path` can take a new Unix socket, before anything is built: its folder exists, it fits
// a socket address, and nothing is there but a stale socket (one no server answers on, which
// listen_unix replaces).  A file, a folder or a socket another server answers on is refused:
// throws std::runtime_error naming the path and what is there; nothing is removed.
void check_unix_socket_path(const std::string& path);
// Whether 127.0.0.1:port can be listened on now (port 0: any); throws naming the port.
void check_tcp_port(uint16_t port);

class Server {
 public:
  // `submit` takes each checked request (called on the connection's thread); `log` prints a
  // line (on any thread).
  using Submit = std::function<void(std::unique_ptr<Request>)>;
  Server(ExportInfo e, Submit submit, std::function<void(const std::string&)> log);
  ~Server();

  // Listens (throws std::runtime_error naming the socket); start() accepts connections.  A
  // Unix socket path is checked first (check_unix_socket_path); at the end the socket is removed
  // only if the path still is the one this server made.
  void listen_unix(const std::string& path);
  void listen_tcp(uint16_t port);        // 127.0.0.1 only
  void start();
  std::string uri() const { return uri_; }

  // The drive's answer (any thread): error 0 or an Error; message for structured error
  // replies.  A request of a connection that has gone is dropped.
  // not_before: the reply is not sent before then (realtime pacing: the wall-clock time of the
  // drive's completion, which the simulation may have reached early).
  void reply(std::unique_ptr<Request> r, uint32_t error, const std::string& message = "",
             std::chrono::steady_clock::time_point not_before = {});

  // Connections open now.  on_last_close is called (on the accepting thread) once no
  // connection has been open for `linger` seconds after at least one came: clients such as
  // fio and qemu-img connect more than once, one after the other.
  unsigned open_connections() const;
  std::function<void()> on_last_close;
  double linger = 2.0;
  // Stops accepting and closes every connection at once: replies still owed are never sent
  // (a power cut, or the end of the run).
  void close_all();
  ServerStats stats() const;

 private:
  struct Conn;
  void accept_loop();
  void serve(std::shared_ptr<Conn> c);
  bool negotiate(Conn& c);
  bool transmit(Conn& c);
  void writer(std::shared_ptr<Conn> c);
  void finish(Conn& c);

  ExportInfo e_;
  Submit submit_;
  std::function<void(const std::string&)> log_;
  int listen_fd_ = -1;
  std::string uri_, unix_path_;
  dev_t unix_dev_ = 0;                   // the socket file this server made (removed only if still there)
  ino_t unix_ino_ = 0;
  std::thread acceptor_;
  std::atomic<bool> closing_{false};
  mutable std::mutex mu_;
  std::map<uint32_t, std::shared_ptr<Conn>> conns_;
  std::vector<std::thread> threads_;
  ServerStats stats_;
  uint32_t next_conn_ = 0;
  std::chrono::steady_clock::time_point last_close_;
  bool idle_reported_ = false;
};

}  // namespace ssdvp::nbd
