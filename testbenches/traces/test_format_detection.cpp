// format=auto: every format is recognised from its first content lines.
#include <gtest/gtest.h>

#include "trace_test_support.h"
#include "traces/trace_formats.h"

namespace ssdvp::workload::test {
namespace {

struct DetectionCase {
  const char* content;
  const char* format;
};

TEST(FormatDetection, RecognisesEveryFormat) {
  const DetectionCase cases[] = {
      {"# a comment\n\n938513000 4 264719034 16 0\n", "disksim"},
      {"128166372003061629,hm,1,Read,383496192,32768,4022\n", "msr"},
      {"0,303567,3584,w,0.000000\n", "umass"},
      {"0,303567,3584,W,0.000000,1,2\n", "umass"},
      {"  8,0    3        1     0.000000000  4162  Q  WS 3417048 + 8 [jbd2/sda3-8]\n", "blkparse"},
      {"39949 D read 299008 4096 0.000000000 0 False\n", "blkparse-events"},
      {"0,R,126703644672,4096,1577808000000626\n", "alibaba"},
      {"device_id,opcode,offset,length,timestamp\n3,W,0,512,1577808000000000\n", "alibaba"},
      {"1538323200,2048,8,1,1063\n", "tencent"},
      {"version,time,op,size,lbn\n1,33898,2a,512,42932745\n", "vscsi"},
      {"2,33898,28,4096,7\n", "vscsi"},
  };
  for (const DetectionCase& c : cases) {
    TempTrace trace(c.content);
    EXPECT_EQ(detect_trace_format(trace.path()).name, c.format) << c.content;
    const auto workload = make_workload(trace.path(), {});
    EXPECT_NE(workload->describe().find(std::string("format=") + c.format + " "), std::string::npos)
        << workload->describe();
  }
}

TEST(FormatDetection, LooksPastUnrecognisedLeadingLines) {
  TempTrace trace("garbage first line\n100 0 8 8 1\n");
  EXPECT_EQ(detect_trace_format(trace.path()).name, "disksim");
}

TEST(FormatDetection, UnrecognisedFileNamesFirstContentLine) {
  TempTrace trace("# only comments\n\nhello world\nstill nothing\n");
  EXPECT_EQ(workload_error([&] { detect_trace_format(trace.path()); }),
            trace.path() + ":3: cannot detect the trace format; give format= (hello world)");
}

// A binary file (here an ELF header's bytes) is named as binary, not quoted as hundreds of
// escaped bytes; text with a stray control character is still text.
TEST(FormatDetection, ABinaryFileIsNamedAsBinary) {
  static const char elf[] = "\x7f" "ELF\x02\x01\x01\x03\0\0\0\0\0\0\0\0\x02\0>\0\x01\0\0\0 \x85H";
  TempTrace binary(std::string(elf, sizeof elf - 1) + "\n100 0 8 8 1\n");
  EXPECT_EQ(workload_error([&] { detect_trace_format(binary.path()); }),
            binary.path() + ":1: a binary file, not a text trace (a trace is text, a request a line, or such a file "
                            "compressed with gzip, xz, zstd or bzip2: docs/traces.md)");
  TempTrace text("odd \x01 line of text, but text\n100 0 8 8 1\n");
  EXPECT_EQ(detect_trace_format(text.path()).name, "disksim");
}

// A file without line breaks (a binary file given as a trace) is refused at its first line,
// not read whole into memory; lines up to the limit, and a last line without '\n', are read.
TEST(FormatDetection, ALineLongerThanOneMebibyteIsAnError) {
  TempTrace trace("100 0 8 8 1\n" + std::string((1u << 20) + 10, 'x') + "\n");
  EXPECT_EQ(workload_error([&] { build_and_drain("trace:" + trace.path() + ",format=disksim"); }),
            trace.path() + ":2: a line longer than 1048576 bytes: not a trace file?");
  TempTrace long_comment("# " + std::string((1u << 20) - 2, 'c') + "\n100 0 8 8 1");
  EXPECT_EQ(detect_trace_format(long_comment.path()).name, "disksim");
}

TEST(FormatDetection, EmptyFileIsAnError) {
  TempTrace trace("# nothing\n\n");
  EXPECT_EQ(workload_error([&] { make_workload(trace.path(), {}); }),
            trace.path() + ": no request lines to detect the trace format from");
}

TEST(FormatDetection, ExplicitFormatOnEmptyFileGivesNoRequests) {
  TempTrace trace("");
  const auto workload = make_workload("trace:" + trace.path() + ",format=msr", {});
  EXPECT_FALSE(workload->next(0).has_value());
}

}  // namespace
}  // namespace ssdvp::workload::test
