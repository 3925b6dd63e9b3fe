// The ISS core on its own: small RV32 programs (programs/*.c, built with the firmware) run on
// an IssCore with DRAM, system control, timer and UART behind the router, and check exact
// quantum timing, trap and interrupt entry/return through mtvec, sleep until interrupt, MMIO
// routing and bus errors.  Each TEST elaborates its own bench, in its own process.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "models/bus/router.h"
#include "models/common/fatal.h"
#include "models/common/params.h"
#include "models/cpu/iss_core.h"
#include "models/cpu/mailbox.h"
#include "models/cpu/sysctl.h"
#include "models/cpu/timer.h"
#include "models/cpu/uart.h"
#include "models/dram/dram.h"

using namespace ssdvp;

namespace {

struct IssBench {
  std::unique_ptr<Dram> dram;
  std::unique_ptr<SysCtl> sysctl;
  std::unique_ptr<Timer> timer;
  std::unique_ptr<Uart> uart;
  std::unique_ptr<Router> router;
  std::unique_ptr<Mailbox> mailbox;
  std::vector<std::unique_ptr<IssCore>> cores;
  IssCore* core = nullptr;

  IssBench(const std::string& program, uint32_t quantum, uint32_t ncores = 1, bool exact = false, bool skip = false) {
    DramParams dp;
    dp.size_bytes = 64u << 20;
    dp.bandwidth_mbps = 10000;
    dram = std::make_unique<Dram>(dp);
    sysctl = std::make_unique<SysCtl>("sysctl", ncores, dp.size_bytes, 0);
    timer = std::make_unique<Timer>("timer", *sysctl);
    uart = std::make_unique<Uart>("uart");
    router = std::make_unique<Router>("bus");
    std::vector<std::pair<uint32_t, MmioDevice*>> devices = {
        {SSD_TIMER_BASE, timer.get()}, {SSD_UART_BASE, uart.get()}, {SSD_SYSCTL_BASE, sysctl.get()}};
    if (ncores > 1) {
      mailbox = std::make_unique<Mailbox>("mailbox", *sysctl);
      devices.push_back({SSD_MBOX_BASE, mailbox.get()});
    }
    int port = 0;
    for (auto [base, dev] : devices) {
      router->initiator.bind(dev->socket);
      router->map((base - SSD_PERIPH_BASE) / SSD_PERIPH_SIZE, port++);
    }
    IssParams p;
    p.clock_mhz = 800;
    p.cpi = 1.0;
    p.quantum_instructions = quantum;
    p.exact_quanta = exact;
    p.skip_idle_syncs = skip;
    const std::string path = std::string(SSDVP_FIRMWARE_DIR) + "/iss-test-" + program + ".elf";
    for (uint32_t c = 0; c < ncores; c++) {
      cores.push_back(std::make_unique<IssCore>(("core" + std::to_string(c)).c_str(), c, p, *dram, *sysctl,
                                                ElfImage::load(path, IssCore::loadable_regions(c))));
      cores.back()->socket.bind(router->target);
    }
    core = cores[0].get();
  }
  // Runs until the program halts; true if it ended with the test's "done" code.
  bool run() {
    sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_MS));
    return !fatal_errors().empty() && fatal_errors()[0].find("code 0x600d") != std::string::npos;
  }
  uint32_t result(int i) { return dram->as<uint32_t>(SSD_DRAM_BASE + 0x2000)[i]; }
};

void quantum_case(uint32_t quantum, bool exact) {
  IssBench b("quantum", quantum, 1, exact);
  ASSERT_TRUE(b.run()) << (fatal_errors().empty() ? "no halt" : fatal_errors()[0]);
  // 1001 instructions at 800 MHz, CPI 1: 1251.25 ns; the timer counts whole ns.
  EXPECT_NEAR(double(b.result(0)), 1251.25, 0.75) << "quantum " << quantum;
}

}  // namespace

// Per-block quanta (the default) and exact ones: the timer reads see the same time.
TEST(IssCore, QuantumTimingIsExactWithSmallQuanta) { quantum_case(7, false); }
TEST(IssCore, QuantumTimingIsExactWithMediumQuanta) { quantum_case(100, false); }
TEST(IssCore, QuantumTimingIsExactWithLargeQuanta) { quantum_case(100000, false); }
TEST(IssCore, QuantumTimingIsExactWithSmallExactQuanta) { quantum_case(7, true); }
TEST(IssCore, QuantumTimingIsExactWithMediumExactQuanta) { quantum_case(100, true); }
TEST(IssCore, QuantumTimingIsExactWithLargeExactQuanta) { quantum_case(100000, true); }

// How often the core synchronises on a run of 1000 nops between two timer reads: exact
// quanta of 100 end every 100 instructions; per-block quanta end at the first block end at or
// after 100, and Unicorn's blocks of nops are long (up to a page), so far fewer quanta.
void synchronisation_case(bool exact) {
  IssBench b("quantum", 100, 1, exact);
  ASSERT_TRUE(b.run()) << (fatal_errors().empty() ? "no halt" : fatal_errors()[0]);
  const uint64_t at_budget = b.core->instructions() / 100;
  if (exact) EXPECT_GE(b.core->quanta(), at_budget);
  else EXPECT_LT(b.core->quanta(), at_budget / 2) << b.core->instructions() << " instructions";
}
TEST(IssCore, ExactQuantaSynchroniseAtTheBudget) { synchronisation_case(true); }
TEST(IssCore, PerBlockQuantaSynchroniseAtBlockEnds) { synchronisation_case(false); }

// With skip_idle_syncs, the same 1000 nops between two timer reads: nothing else has activity,
// so the core runs through its sync points in few ISS calls, and the reads see the same time.
void skipping_case(bool exact) {
  IssBench b("quantum", 100, 1, exact, true);
  ASSERT_TRUE(b.run()) << (fatal_errors().empty() ? "no halt" : fatal_errors()[0]);
  EXPECT_NEAR(double(b.result(0)), 1251.25, 0.75);
  const uint64_t at_budget = b.core->instructions() / 100;
  EXPECT_GT(b.core->syncs_skipped(), 0u);
  if (exact) {   // per block, Unicorn's long blocks of nops already cross most sync points
    EXPECT_GE(b.core->syncs_skipped(), at_budget / 2);
    EXPECT_LT(b.core->quanta(), at_budget / 4) << b.core->instructions() << " instructions";
  }
}
TEST(IssCore, IdleSyncPointsAreRunThroughWithExactQuanta) { skipping_case(true); }
TEST(IssCore, IdleSyncPointsAreRunThroughPerBlock) { skipping_case(false); }

TEST(IssCore, TrapAndInterruptEntryAndReturn) {
  IssBench b("traps", 1000);
  const bool ok = b.run();
  ASSERT_TRUE(ok) << (fatal_errors().empty() ? "no halt" : fatal_errors()[0]) << " r0=" << b.result(0) << " r1=" << b.result(1) << " traps=" << b.core->traps() << " pc=" << std::hex << b.core->pc() << " instr=" << std::dec << b.core->instructions();
  EXPECT_EQ(b.result(0), 11u);            // ecall from M-mode
  EXPECT_EQ(b.result(1), 1u);             // mepc pointed at the ecall
  EXPECT_EQ(b.result(2), 1u);             // one timer interrupt taken
  EXPECT_EQ(b.result(3), 0x8000000Bu);    // machine external interrupt
  EXPECT_EQ(b.result(4), 1u);             // mret restored MIE
  EXPECT_EQ(b.core->traps(), 2u);
}

TEST(IssCore, SleepUntilInterruptCostsNoInstructions) {
  IssBench b("sleep", 1000);
  ASSERT_TRUE(b.run()) << (fatal_errors().empty() ? "no halt" : fatal_errors()[0]);
  EXPECT_GE(b.result(0), 50000u);
  EXPECT_LT(b.result(0), 52000u);
  EXPECT_EQ(b.result(1), 1u);
  EXPECT_LT(b.core->instructions(), 2000u);               // asleep, not spinning
  EXPECT_GE(b.core->idle_time(), sc_core::sc_time(49, sc_core::SC_US));
  EXPECT_EQ(b.core->wakeups(), 1u);
}

TEST(IssCore, MmioRoutingAndBusErrors) {
  IssBench b("mmio", 1000);
  b.run();
  ASSERT_FALSE(b.uart->lines().empty());
  EXPECT_EQ(b.uart->lines()[0], "hello from the ISS");
  EXPECT_EQ(b.result(0), 0u);
  EXPECT_EQ(b.result(1), 64u << 20);
  ASSERT_FALSE(fatal_errors().empty());
  EXPECT_NE(fatal_errors()[0].find("bus error at register 0x20003000"), std::string::npos) << fatal_errors()[0];
}

TEST(IssCore, TwoCoresExchangeMailboxMessages) {
  IssBench b("mailbox", 1000, 2);
  ASSERT_TRUE(b.run()) << (fatal_errors().empty() ? "no halt" : fatal_errors()[0]);
  EXPECT_EQ(b.result(0), 100u);
  EXPECT_EQ(b.result(1), 1u);
  EXPECT_EQ(b.result(2), 0u);
  EXPECT_EQ(b.mailbox->messages_sent(), 200u);
  EXPECT_GE(b.cores[1]->wakeups(), 50u);      // core 1 slept between messages
  EXPECT_GT(b.cores[1]->instructions(), 1000u);
}

// The firmware's lock (AMOs only: amoswap/amoor) on 2 and 4 ISS cores whose quanta of 7
// instructions split every critical section: no increment of the shared counter is lost, the
// cores really did wait for each other, and the lock's holder is always the one recorded.
void lock_case(uint32_t cores, bool exact) {
  IssBench b("locks", 7, cores, exact);
  ASSERT_TRUE(b.run()) << (fatal_errors().empty() ? "no halt" : fatal_errors()[0]);
  EXPECT_EQ(b.result(3), cores);
  EXPECT_EQ(b.result(0), cores * 2000u) << "increments lost: the lock let two cores in";
  EXPECT_GT(b.result(1), 100u) << "the cores never met at the lock: the test proves nothing";
  EXPECT_EQ(b.result(2), 0u);
}
TEST(IssCore, FirmwareLockHoldsAcrossQuantaOnTwoCores) { lock_case(2, true); }
TEST(IssCore, FirmwareLockHoldsAcrossQuantaOnFourCores) { lock_case(4, false); }
