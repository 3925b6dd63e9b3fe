// CoreTurns: the rule that orders firmware cores resuming at one instant by their ids.
#include <gtest/gtest.h>

#include "models/cpu/core_turns.h"

namespace ssdvp {
namespace {

using sc_core::SC_US;
using sc_core::sc_time;

TEST(CoreTurns, EveryCoreStartsDueAtTimeZeroSoTheyStartInIdOrder) {
  CoreTurns t(3);
  EXPECT_FALSE(t.lower_core_due(0, sc_core::SC_ZERO_TIME));
  EXPECT_TRUE(t.lower_core_due(1, sc_core::SC_ZERO_TIME));
  t.runs(0);
  EXPECT_FALSE(t.lower_core_due(1, sc_core::SC_ZERO_TIME));
  EXPECT_TRUE(t.lower_core_due(2, sc_core::SC_ZERO_TIME));   // core 1 has not run yet
  t.runs(1);
  EXPECT_FALSE(t.lower_core_due(2, sc_core::SC_ZERO_TIME));
}

TEST(CoreTurns, ATimedWaitEndingAtTheSameInstantGoesFirstAndOnlyThen) {
  CoreTurns t(2);
  t.runs(0);
  t.runs(1);
  t.resumes_at(0, sc_time(5, SC_US));
  EXPECT_TRUE(t.lower_core_due(1, sc_time(5, SC_US)));
  EXPECT_FALSE(t.lower_core_due(1, sc_time(4, SC_US)));
  EXPECT_FALSE(t.lower_core_due(0, sc_time(5, SC_US)));   // nobody below core 0
}

TEST(CoreTurns, ASleepingCoreIsDueWhenItsInterruptFiresNowAndNotBefore) {
  CoreTurns t(2);
  t.runs(1);
  t.sleeps(0);
  EXPECT_FALSE(t.lower_core_due(1, sc_time(5, SC_US)));
  t.irq_notified(0, sc_time(7, SC_US));
  t.irq_notified(0, sc_time(5, SC_US));   // an earlier notification replaces the later one
  t.irq_notified(0, sc_time(9, SC_US));   // a later one does not
  EXPECT_TRUE(t.lower_core_due(1, sc_time(5, SC_US)));
  EXPECT_FALSE(t.lower_core_due(1, sc_time(7, SC_US)));
  t.irq_fired(0);   // woken: due in this delta cycle until it runs
  EXPECT_TRUE(t.lower_core_due(1, sc_time(5, SC_US)));
  t.sleeps(0);      // the line it woke for was gone: back to sleep, not due
  EXPECT_FALSE(t.lower_core_due(1, sc_time(5, SC_US)));
}

TEST(CoreTurns, AnInterruptThatFiredWhileTheCoreRanLeavesNoStaleTurn) {
  CoreTurns t(2);
  t.runs(0);
  t.runs(1);
  t.irq_notified(0, sc_time(5, SC_US));
  t.irq_fired(0);   // core 0 was running: it takes the line at its next sync point
  t.sleeps(0);
  EXPECT_FALSE(t.lower_core_due(1, sc_time(5, SC_US)));
  t.stops(0);
  t.irq_notified(0, sc_time(6, SC_US));
  EXPECT_FALSE(t.lower_core_due(1, sc_time(6, SC_US)));   // a halted core never runs again
}

}  // namespace
}  // namespace ssdvp
