// fio job files: sections to a spec of fio: generators ('&' side by side, ';' after a stonewall),
// options with no effect on a simulated host left out and listed, the rest refused by name.
#include <gtest/gtest.h>

#include "trace_test_support.h"
#include "traces/fio_job_file.h"

namespace ssdvp::workload::test {
namespace {

const WorkloadContext kContext{1ull << 30, 1};

TEST(FioJobFile, SectionsBecomeJobsAndGroups) {
  TempTrace file(
      "; fio's own job file\n"
      "[global]\n"
      "ioengine=libaio\n"
      "direct=1\n"
      "bs=4k\n"
      "iodepth = 16\n"
      "time_based\n"
      "runtime=10ms\n"
      "\n"
      "[writer]\n"
      "rw=randwrite\n"
      "rate_iops=500,200\n"
      "randseed=7\n"
      "# a comment\n"
      "[reader]\n"
      "rw=randread\n"
      "bs=8k\n"
      "[after]\n"
      "stonewall\n"
      "rw=read\n");
  ASSERT_TRUE(is_fio_job_file(file.path()));
  const FioJobFile job = read_fio_job_file(file.path(), kContext);
  EXPECT_EQ(job.spec,
            "fio:bs=4k,iodepth=16,time_based=1,runtime=10ms,rw=randwrite,rate_iops=500:200,seed=7"
            "&fio:bs=8k,iodepth=16,time_based=1,runtime=10ms,rw=randread"
            ";fio:bs=4k,iodepth=16,time_based=1,runtime=10ms,rw=read");
  EXPECT_EQ(job.ignored, (std::vector<std::string>{"ioengine=libaio (line 3)", "direct=1 (line 4)"}));
  // make_workload takes the file as it is
  const auto w = make_workload(file.path(), kContext);
  EXPECT_NE(w->describe().find("; then fio read"), std::string::npos) << w->describe();
  EXPECT_NE(w->describe().find("rate_iops=500:200:200/s"), std::string::npos) << w->describe();
}

TEST(FioJobFile, ATraceIsNotAJobFile) {
  TempTrace trace("# disksim\n100 0 8 8 1\n");
  EXPECT_FALSE(is_fio_job_file(trace.path()));
}

TEST(FioJobFile, MistakesAreNamedByLine) {
  const std::pair<std::string, std::string> cases[] = {
      {"bs=4k\n[a]\nrw=read\n", ":1: an option before any [section]"},
      {"[a]\nrw=read\ndirect=0\n", ":3: direct=0: buffered I/O is not modelled (the simulated host has no page cache): direct=1"},
      {"[a]\nrw=read\nbs=4k,8k\n", ":3: bs=4k,8k: per-direction values (fio's READ,WRITE) are taken for rate, rate_iops and "
                                   "fdp_pli only; give one value"},
      {"[global]\nstonewall\n[a]\n", ":2: stonewall belongs to a job, not to [global]"},
      {"[a]\ninclude other.fio\n", ":2: fio's includes and $VARIABLES are not read here; write the values out"},
      {"[global]\nbs=4k\n", ": no job section (only [global])"},
      {"[a\n", ":1: a section is [NAME]"},
      {"[global]\nrw=randread\n[one]\n[two]\niodeth=4\n",
       ":4: job [two]: workload 'fio:rw=randread,iodeth=4': unknown option 'iodeth'; did you mean 'iodepth'?"},
  };
  for (const auto& [content, message] : cases) {
    TempTrace file(content);
    const std::string error = workload_error([&] { read_fio_job_file(file.path(), kContext); });
    EXPECT_EQ(error.substr(0, file.path().size()), file.path());
    EXPECT_EQ(error.substr(file.path().size(), message.size()), message) << error;
  }
}

}  // namespace
}  // namespace ssdvp::workload::test
