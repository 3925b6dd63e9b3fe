// Each test process gets a temporary directory of its own.  ctest -j runs the cases of one
// binary in parallel processes, and ::testing::TempDir() is the same for all of them, so two
// cases (or two parameters of one case) writing "TempDir()/name" raced: one read the other's
// half-written trace.  use_own_temp_dir() points TEST_TMPDIR (which TempDir() reads on every
// call) at <TEST_TMPDIR or /tmp>/ssdvp-tests/<pid>/; remove_own_temp_dir() deletes it after a
// green run and keeps it (and says where) after a failure, for the post-mortem.
#pragma once

#include <string>

namespace ssdvp::test {

void use_own_temp_dir();
void remove_own_temp_dir(bool passed);

}  // namespace ssdvp::test
