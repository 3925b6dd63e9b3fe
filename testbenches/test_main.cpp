// Test entry point for the suites without SystemC: GoogleTest with a temporary directory per
// process (test_temp_dir.h).
#include <gtest/gtest.h>

#include "test_temp_dir.h"

int main(int argc, char* argv[]) {
  ::testing::InitGoogleTest(&argc, argv);
  ssdvp::test::use_own_temp_dir();
  const int status = RUN_ALL_TESTS();
  ssdvp::test::remove_own_temp_dir(status == 0);
  return status;
}
