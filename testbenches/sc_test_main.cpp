// Test entry point: SystemC's library owns main() and calls sc_main, so tests start here.
#include <gtest/gtest.h>
#include <systemc>

int sc_main(int argc, char* argv[]) {
  sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
