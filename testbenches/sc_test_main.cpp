// Test entry point: SystemC's library owns main() and calls sc_main, so tests start here.
#include <gtest/gtest.h>

#include <systemc>

#include "test_temp_dir.h"

int sc_main(int argc, char* argv[]) {
  sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
  ::testing::InitGoogleTest(&argc, argv);
  ssdvp::test::use_own_temp_dir();
  const int status = RUN_ALL_TESTS();
  ssdvp::test::remove_own_temp_dir(status == 0);
  return status;
}
