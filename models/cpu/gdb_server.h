// GDB remote serial protocol server for one ISS core, on a loopback TCP port
// (`ssdvp run --gdb PORT`), so that gdb-multiarch or riscv64-unknown-elf-gdb attaches to the
// running firmware: registers (x0-x31, pc), memory (code, SRAM, DRAM), software breakpoints,
// single step, continue, interrupt (Ctrl-C), detach, kill.
//
// While the debugger holds the core, the whole simulation waits: simulated time does not
// advance until the core runs again.  The core starts halted and waits for gdb to connect.
// Leaves out: watchpoints, CSR and FP registers, non-stop mode, multi-core thread views.
#pragma once

#include <cstdint>
#include <functional>
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

class GdbServer {
 public:
  enum class Resume { Continue, Step, Detach, Kill };

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
  bool breakpoint_at(uint32_t pc) const;
  bool has_breakpoints() const { return !breakpoints_.empty(); }
  uint16_t port() const { return port_; }

 private:
  void accept_client();
  bool read_packet(std::string& out);
  void send_packet(const std::string& data);
  std::string handle(DebugTarget& t, const std::string& pkt, Resume& resume, bool& resumed);
  std::string target_xml(const std::string& annex, const std::string& range) const;

  uint16_t port_;
  int listen_fd_ = -1, fd_ = -1;
  bool detached_ = false;
  std::vector<uint32_t> breakpoints_;
};

}  // namespace ssdvp
