// The GDB server driven by a real gdb (gdb-multiarch, batch mode): attach to the halted
// core, set a breakpoint on a firmware function, continue to it, read registers and DRAM,
// single-step, detach; the run then completes with every read verified.  (fw_main: called
// from the start-up assembly, so never inlined away.)
#include <gtest/gtest.h>

#include <regex>
#include <vector>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace {

uint16_t free_port() {
  const int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof(a));
  socklen_t len = sizeof(a);
  ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(s);
  return ntohs(a.sin_port);
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST(Gdb, BreakpointRegistersMemoryStepDetach) {
  const std::string dir = std::string(::testing::TempDir()) + "gdb-run";
  const uint16_t port = free_port();
  const std::string ssdvp = std::string(SSDVP_BINARY) + " run --gdb " + std::to_string(port) +
                            " --no-precondition --quiet --out " + dir +
                            " --set firmware.mode=iss --set nand.channels=2 --set nand.ways=1"
                            " --set nand.blocks_per_plane=32 --set dram.size_mib=128 --set sim.progress=false"
                            " --workload fio:rw=randrw,bs=4k,io=200";
  // ssdvp in the background; its exit status lands in a file.  gdb starts once ssdvp listens.
  std::system(("rm -rf " + dir + " " + dir + ".log " + dir + ".rc " + dir + ".gdb").c_str());
  ASSERT_EQ(std::system(("(" + ssdvp + " > " + dir + ".log 2>&1; echo $? > " + dir + ".rc) &").c_str()), 0);
  for (int i = 0; i < 600 && slurp(dir + ".log").find("waiting for gdb") == std::string::npos; i++) ::usleep(100000);
  ASSERT_NE(slurp(dir + ".log").find("waiting for gdb"), std::string::npos) << slurp(dir + ".log");
  const std::string gdb = "timeout 120 gdb-multiarch -batch -nx " + std::string(SSDVP_FIRMWARE_ELF) +
                          " -ex 'set tcp connect-timeout 30' -ex 'target remote 127.0.0.1:" + std::to_string(port) +
                          "' -ex 'info registers pc' -ex 'break fw_main' -ex continue -ex 'info registers pc'"
                          " -ex 'x/1wx 0x40000000' -ex stepi -ex 'info registers pc' -ex delete -ex detach > " +
                          dir + ".gdb 2>&1";
  EXPECT_EQ(std::system(gdb.c_str()), 0);
  for (int i = 0; i < 600 && slurp(dir + ".rc").empty(); i++) ::usleep(100000);
  const std::string out = slurp(dir + ".gdb");
  EXPECT_NE(out.find("0x0 <_start>"), std::string::npos) << out;             // halted at reset
  EXPECT_NE(out.find("Breakpoint 1, "), std::string::npos) << out;
  EXPECT_NE(out.find("in fw_main"), std::string::npos) << out;
  EXPECT_NE(out.find("0x53534456"), std::string::npos) << out;               // the config block's magic
  EXPECT_NE(out.find("detached"), std::string::npos) << out;
  // `info registers pc` at reset, at the breakpoint and after `stepi`: the step moved the PC.
  std::vector<unsigned long> pcs;
  const std::regex pc_line(R"(\npc\s+0x([0-9a-f]+))");
  for (std::sregex_iterator m(out.begin(), out.end(), pc_line), end; m != end; ++m)
    pcs.push_back(std::stoul((*m)[1].str(), nullptr, 16));
  ASSERT_EQ(pcs.size(), 3u) << out;
  EXPECT_EQ(pcs[0], 0u) << out;
  EXPECT_NE(pcs[1], 0u) << out;
  EXPECT_NE(pcs[2], pcs[1]) << "stepi did not move the PC\n" << out;
  EXPECT_EQ(slurp(dir + ".rc"), "0\n") << slurp(dir + ".log");
  const std::string json = slurp(dir + "/run.json");
  EXPECT_NE(json.find("\"mismatches\": 0"), std::string::npos);
}
