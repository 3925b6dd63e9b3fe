// GDB remote serial protocol server for one ISS core, on a loopback TCP port
// (`ssdvp run --gdb PORT`), so that gdb-multiarch or riscv64-unknown-elf-gdb attaches to the
// running firmware: registers (x0-x31, pc), memory (code, SRAM, DRAM), software breakpoints,
// single step, continue, interrupt (Ctrl-C), detach, kill.
//
// While the debugger holds the core, the whole simulation waits: simulated time does not
// advance until the core runs again.  The core starts halted and waits for gdb to connect.
// The protocol itself (framing, commands) is in gdb_protocol.h; this is the socket around it.
// Leaves out: watchpoints, CSR and FP registers, non-stop mode, multi-core thread views.
#pragma once

#include <cstdint>
#include <string>

#include "models/cpu/gdb_protocol.h"

namespace ssdvp {

class GdbServer {
 public:
  using Resume = GdbResume;

  explicit GdbServer(uint16_t port);
  ~GdbServer();
  GdbServer(const GdbServer&) = delete;
  GdbServer& operator=(const GdbServer&) = delete;

  // Waits for the debugger (the core is halted), then serves packets until it resumes the
  // core; `signal` is reported first when the debugger is already attached (5 = SIGTRAP).
  Resume serve(DebugTarget& t, int signal);
  // While the core runs: true if the debugger asked for an interrupt (Ctrl-C).
  bool interrupt_requested();
  bool attached() const { return fd_ >= 0; }
  bool breakpoint_at(uint32_t pc) const { return commands_.breakpoint_at(pc); }
  bool has_breakpoints() const { return commands_.has_breakpoints(); }
  uint16_t port() const { return port_; }

 private:
  void accept_client();
  bool read_packet(std::string& out);
  void send_packet(const std::string& data);

  uint16_t port_;
  int listen_fd_ = -1, fd_ = -1;
  bool detached_ = false;
  GdbPacketFramer framer_;
  GdbCommands commands_;
};

}  // namespace ssdvp
