// make_workload dispatch and op_name.
#include <gtest/gtest.h>

#include "trace_test_support.h"

namespace ssdvp::workload::test {
namespace {

TEST(MakeWorkload, DispatchesOnPrefix) {
  const WorkloadContext context{1ull << 30, 7};
  EXPECT_EQ(make_workload("fio:rw=randread", context)->describe().rfind("fio randread", 0), 0u);
  EXPECT_EQ(make_workload("rr:ratio=10,bs=4k", context)->describe().rfind("rr ratio=10", 0), 0u);
  TempTrace trace("100 0 8 8 1\n");
  EXPECT_EQ(make_workload("trace:" + trace.path(), context)->describe().rfind("trace ", 0), 0u);
}

TEST(MakeWorkload, BarePathIsATrace) {
  TempTrace trace("100 0 8 8 1\n200 0 8 8 0\n");
  EXPECT_EQ(drain(*make_workload(trace.path(), {})).size(), 2u);
  EXPECT_EQ(drain(*make_workload(trace.path() + ",max=1", {})).size(), 1u);
}

TEST(MakeWorkload, UnknownSpecIsAnError) {
  EXPECT_EQ(workload_error([] { make_workload("/no/such/file.trace", {}); }),
            "workload '/no/such/file.trace': not fio:..., rr:..., trace:PATH... nor the path of "
            "an existing file");
  EXPECT_EQ(workload_error([] { make_workload("iometer:x=1", {}); }),
            "workload 'iometer:x=1': not fio:..., rr:..., trace:PATH... nor the path of an "
            "existing file");
}

TEST(MakeWorkload, PhasesRunOneAfterTheOther) {
  WorkloadContext context;
  context.capacity_bytes = 1 << 20;
  auto w = make_workload("fio:rw=randwrite,bs=4k,io=5,iodepth=8;fio:rw=randread,bs=4k,io=3,iodepth=8", context);
  EXPECT_TRUE(w->closed_loop());
  EXPECT_EQ(w->queue_depth(), 8u);
  const auto all = drain(*w);
  ASSERT_EQ(all.size(), 8u);
  for (size_t i = 0; i < all.size(); i++) EXPECT_EQ(all[i].op, i < 5 ? Op::Write : Op::Read) << i;
  EXPECT_NE(w->describe().find(" ; then "), std::string::npos);
}

TEST(MakeWorkload, PhasesMustAgree) {
  WorkloadContext context;
  context.capacity_bytes = 1 << 20;
  EXPECT_EQ(workload_error([&] { make_workload("fio:rw=read,iodepth=4;fio:rw=write,iodepth=8", context); }),
            "workload 'fio:rw=write,iodepth=8' (phase 2): iodepth 8 differs from phase 1's 4 (the driver keeps "
            "one queue depth)");
  EXPECT_EQ(workload_error([&] { make_workload("fio:rw=read;", context); }), "workload phase 2 is empty");
  TempTrace trace("100 0 8 8 1\n");
  EXPECT_NE(workload_error([&] { make_workload("fio:rw=read;trace:" + trace.path(), context); }).find("closed-loop"),
            std::string::npos);
}

TEST(MakeWorkload, OpNames) {
  EXPECT_STREQ(op_name(Op::Read), "read");
  EXPECT_STREQ(op_name(Op::Write), "write");
  EXPECT_STREQ(op_name(Op::Flush), "flush");
  EXPECT_STREQ(op_name(Op::Trim), "trim");
}

}  // namespace
}  // namespace ssdvp::workload::test
