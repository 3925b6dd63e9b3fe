// The public cloud block-trace readers (Alibaba Cloud, Tencent CBS, vscsi CSV) against
// hand-written lines of known meaning, their device/volume streams and filter, malformed lines
// named by file:line, and compressed traces (gzip, xz, zstd, bzip2) read as their plain text.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "compress_for_tests.h"
#include "trace_test_support.h"

namespace ssdvp::workload::test {
namespace {

struct BadLine {
  const char* line;
  const char* message;
};

// Each bad line appended after `good` lines is named as line `good_lines + 1` of the file.
void expect_errors(const std::string& good, size_t good_lines, const std::string& format,
                   std::initializer_list<BadLine> cases) {
  for (const BadLine& c : cases) {
    TempTrace trace(good + c.line + "\n", ".csv");
    const std::string message =
        workload_error([&] { build_and_drain("trace:" + trace.path() + ",format=" + format); });
    EXPECT_EQ(message.rfind(trace.path() + ":" + std::to_string(good_lines + 1) + ": " + c.message, 0), 0u)
        << message;
  }
}

const char* const kAlibaba =
    "device_id,opcode,offset,length,timestamp\n"
    "0,R,126703644672,4096,1577808000000626\n"
    "17,W,8192,16384,1577808000000700\n"
    "0,w,0,512,1577808001000626\n";

TEST(AlibabaReader, BytesMicrosecondsAndDisks) {
  TempTrace trace(kAlibaba, ".csv");
  const auto workload = make_workload("trace:" + trace.path() + ",format=alibaba", {});
  const std::vector<Request> r = drain(*workload);
  ASSERT_EQ(r.size(), 3u);   // the header is not a request
  EXPECT_EQ(r[0].op, Op::Read);
  EXPECT_EQ(r[0].offset, 126703644672u);
  EXPECT_EQ(r[0].length, 4096u);
  EXPECT_EQ(r[0].arrival_ns, 0u);
  EXPECT_EQ(r[1].op, Op::Write);
  EXPECT_EQ(r[1].offset, 8192u);
  EXPECT_EQ(r[1].length, 16384u);
  EXPECT_EQ(r[1].arrival_ns, 74000u);   // 74 us
  EXPECT_EQ(r[2].op, Op::Write);
  EXPECT_EQ(r[2].arrival_ns, 1000000000u);
}

TEST(AlibabaReader, StreamsByDiskAndOneDiskKept) {
  TempTrace trace(kAlibaba, ".csv");
  const auto by_volume = make_workload("trace:" + trace.path() + ",streams=by_volume", {});
  ASSERT_EQ(by_volume->streams(), 2u);   // disks 0 and 17, in order of appearance
  EXPECT_EQ(drain(*by_volume, 0).size(), 2u);
  EXPECT_EQ(drain(*by_volume, 1).at(0).offset, 8192u);
  const auto one = make_workload("trace:" + trace.path() + ",device=17", {});
  const std::vector<Request> r = drain(*one);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].offset, 8192u);
  EXPECT_NE(one->describe().find("device=17"), std::string::npos);
  const auto none = make_workload("trace:" + trace.path() + ",volume=5", {});
  EXPECT_TRUE(drain(*none).empty());
}

TEST(AlibabaReader, MalformedLinesNamePathAndLine) {
  expect_errors(kAlibaba, 4, "alibaba",
                {{"0,R,0,4096", "expected 5 fields (device_id,opcode,offset,length,timestamp), found 4"},
                 {"0,D,0,4096,1", "unknown opcode 'D' (R or W)"},
                 {"x,R,0,4096,1", "device_id 'x' is not a non-negative integer"},
                 {"0,R,-5,4096,1", "offset '-5' is not a non-negative integer"},
                 {"0,W,0,0,1", "size is 0 for a write"},
                 {"0,R,0,4096,1.5", "timestamp '1.5' is not a non-negative integer"}});
}

const char* const kTencent =
    "Timestamp,Offset,Size,IOType,VolumeID\n"
    "1538323200,2048,8,1,1063\n"
    "1538323200,16,256,0,2001\n"
    "1538323202,0,1,0,1063\n";

TEST(TencentReader, SectorsSecondsAndVolumes) {
  TempTrace trace(kTencent, ".csv");
  const auto workload = make_workload("trace:" + trace.path() + ",format=tencent", {});
  const std::vector<Request> r = drain(*workload);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].op, Op::Write);
  EXPECT_EQ(r[0].offset, 2048u * 512);
  EXPECT_EQ(r[0].length, 4096u);
  EXPECT_EQ(r[0].arrival_ns, 0u);
  EXPECT_EQ(r[1].op, Op::Read);
  EXPECT_EQ(r[1].offset, 8192u);
  EXPECT_EQ(r[1].length, 131072u);
  EXPECT_EQ(r[1].arrival_ns, 0u);   // the same second: the same instant
  EXPECT_EQ(r[2].length, 512u);
  EXPECT_EQ(r[2].arrival_ns, 2000000000u);
  const auto volumes = make_workload("trace:" + trace.path() + ",streams=by_volume", {});
  EXPECT_EQ(volumes->streams(), 2u);
  EXPECT_EQ(drain(*volumes, 0).size(), 2u);   // volume 1063
  EXPECT_EQ(drain(*make_workload("trace:" + trace.path() + ",volume=2001", {})).size(), 1u);
}

TEST(TencentReader, MalformedLinesNamePathAndLine) {
  expect_errors(kTencent, 4, "tencent",
                {{"1538323200,0,8,2,1063", "unknown IOType '2' (0 read, 1 write)"},
                 {"1538323200,0,0,0,1063", "size is 0 for a read"},
                 {"1538323200,0,8,1", "expected 5 fields (Timestamp,Offset,Size,IOType,VolumeID), found 4"},
                 {"1538323200,0,8,1,vol", "VolumeID 'vol' is not a non-negative integer"},
                 {"1538323200,99999999999999999,8,1,1", "Offset 99999999999999999 is too large"}});
}

const char* const kVscsi =
    "version,time,op,size,lbn\n"
    "1,33898,2a,512,42932745\n"
    "1,33900,28,8192,100\n"
    "1,33901,0x12,36,0\n"      // INQUIRY: no data, no request
    "2,33905,35,0,0\n"         // SYNCHRONIZE CACHE(10): a flush
    "2,34000,88,4096,8\n";     // READ(16)

TEST(VscsiReader, ScsiOpcodesBlocksAndMicroseconds) {
  TempTrace trace(kVscsi, ".csv");
  const auto workload = make_workload("trace:" + trace.path(), {});   // format=auto
  EXPECT_NE(workload->describe().find("format=vscsi"), std::string::npos) << workload->describe();
  const std::vector<Request> r = drain(*workload);
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[0].op, Op::Write);
  EXPECT_EQ(r[0].offset, 42932745ull * 512);
  EXPECT_EQ(r[0].length, 512u);
  EXPECT_EQ(r[1].op, Op::Read);
  EXPECT_EQ(r[1].offset, 51200u);
  EXPECT_EQ(r[1].length, 8192u);
  EXPECT_EQ(r[1].arrival_ns, 2000u);
  EXPECT_EQ(r[2].op, Op::Flush);
  EXPECT_EQ(r[2].arrival_ns, 7000u);
  EXPECT_EQ(r[3].op, Op::Read);
  EXPECT_EQ(r[3].offset, 4096u);
}

TEST(VscsiReader, MalformedLinesNamePathAndLine) {
  expect_errors(kVscsi, 6, "vscsi",
                {{"3,1,28,512,0", "version 3 is not 1 or 2"},
                 {"1,1,zz,512,0", "op 'zz' is not a SCSI opcode in hexadecimal"},
                 {"1,1,2a,0,0", "size is 0 for a write"},
                 {"1,1,28,512", "expected 5 fields (version,time,op,size,lbn), found 4"}});
  TempTrace trace(kVscsi, ".csv");
  EXPECT_NE(workload_error([&] { make_workload("trace:" + trace.path() + ",device=1", {}); })
                .find("device=: format vscsi has no device column"),
            std::string::npos);
}

// The sample traces and the readers above, compressed every way, give the same requests.
TEST(CompressedTraces, ReadAsTheirPlainText) {
  std::ifstream sample(sample_path("tpcc-small.trace"), std::ios::binary);
  const std::string tpcc((std::istreambuf_iterator<char>(sample)), {});
  ASSERT_GT(tpcc.size(), 1000u);
  for (const std::string& text : {tpcc, std::string(kAlibaba), std::string(kTencent), std::string(kVscsi)}) {
    TempTrace plain(text, ".trace");
    const auto expected = drain(*make_workload("trace:" + plain.path() + ",streams=single", {}));
    ASSERT_FALSE(expected.empty());
    for (const char* kind : {"gzip", "xz", "zstd", "bzip2"}) {
      TempTrace packed(compress(text, kind), std::string(".") + kind);
      const auto workload = make_workload("trace:" + packed.path(), {});   // format detected through it
      const auto got = drain(*workload);
      ASSERT_EQ(got.size(), expected.size()) << kind;
      for (size_t i = 0; i < got.size(); i++) {
        EXPECT_EQ(got[i].op, expected[i].op) << kind << " request " << i;
        EXPECT_EQ(got[i].offset, expected[i].offset) << kind << " request " << i;
        EXPECT_EQ(got[i].length, expected[i].length) << kind << " request " << i;
        EXPECT_EQ(got[i].arrival_ns, expected[i].arrival_ns) << kind << " request " << i;
      }
    }
  }
}

TEST(CompressedTraces, CorruptOrCutStreamsAreErrorsNamingTheFile) {
  std::string text;
  for (int i = 0; i < 20000; i++) text += std::to_string(i) + ",R," + std::to_string(i * 4096) + ",4096," + std::to_string(1000 + i) + "\n";
  for (const char* kind : {"gzip", "xz", "zstd", "bzip2"}) {
    const std::string packed = compress(text, kind);
    // Cut anywhere, inside a line or at a line's end: the stream has no end marker.
    const std::string half_text = text.substr(0, text.size() / 2);
    const std::string cut_at_line_end = compress(half_text.substr(0, half_text.rfind('\n') + 1), kind);
    for (const std::string& cut_bytes : {packed.substr(0, packed.size() / 2), packed.substr(0, packed.size() - 1),
                                         cut_at_line_end.substr(0, cut_at_line_end.size() - 4)}) {
      TempTrace cut(cut_bytes, std::string(".") + kind);
      const std::string message = workload_error([&] { build_and_drain("trace:" + cut.path() + ",format=alibaba"); });
      EXPECT_EQ(message.rfind(cut.path() + ": the " + kind + " stream is cut short", 0), 0u) << message;
    }
    // Corrupt data inside the stream is an error naming the file: the decoder's, or (zstd
    // checks its content checksum only at the frame's end) a line the garbage made.
    std::string corrupt = packed;
    for (size_t i = 100; i < 200; i++) corrupt[i] = char(corrupt[i] ^ 0x5A);
    TempTrace damaged(corrupt, std::string(".") + kind);
    const std::string m = workload_error([&] { build_and_drain("trace:" + damaged.path() + ",format=alibaba"); });
    EXPECT_EQ(m.rfind(damaged.path() + ":", 0), 0u) << kind << ": " << m;
    if (std::string(kind) != "zstd") {
      EXPECT_NE(m.find("corrupt"), std::string::npos) << kind << ": " << m;
    }
  }
}

// Members written one after another (pigz, pzstd, `cat a.gz b.gz`) read as one text.
TEST(CompressedTraces, ConcatenatedMembersReadAsOneText) {
  const std::string first = "0,R,0,4096,1000\n1,W,4096,4096,2000\n", second = "2,R,8192,4096,3000\n";
  for (const char* kind : {"gzip", "xz", "zstd", "bzip2"}) {
    TempTrace packed(compress(first, kind) + compress(second, kind), std::string(".") + kind);
    const auto r = drain(*make_workload("trace:" + packed.path() + ",format=alibaba", {}));
    ASSERT_EQ(r.size(), 3u) << kind;
    EXPECT_EQ(r[2].offset, 8192u) << kind;
  }
}

// Binary vscsi records (32-byte version 1, 40-byte version 2), little-endian as libCacheSim
// reads them: the same requests as their CSV lines, auto-detected, compressed too; a record
// cut short is an error.
std::string vscsi_record(unsigned version, uint16_t cmd, uint32_t len, uint64_t lbn, uint64_t ts) {
  std::string r(version == 1 ? 32 : 40, '\0');
  auto put = [&](size_t at, uint64_t v, size_t bytes) {
    for (size_t i = 0; i < bytes; i++) r[at + i] = char(v >> (8 * i) & 0xFF);
  };
  if (version == 1) {
    put(0, 7, 4);           // sn
    put(4, len, 4);
    put(8, 1, 4);           // nSG
    put(12, cmd, 2);
    put(14, 1u << 8, 2);    // ver: the version in its high byte
  } else {
    put(0, cmd, 2);
    put(2, 2u << 8, 2);
    put(4, 7, 4);
    put(8, len, 4);
    put(12, 1, 4);
    put(32, 123, 8);        // rt
  }
  put(16, lbn, 8);
  put(24, ts, 8);
  return r;
}

TEST(VscsiReader, BinaryRecordsOfBothVersionsReadAsTheirCsvLines) {
  TempTrace csv(kVscsi, ".csv");
  const auto expected = drain(*make_workload("trace:" + csv.path(), {}));
  for (unsigned version : {1u, 2u}) {
    const std::string records = vscsi_record(version, 0x2a, 512, 42932745, 33898) +
                                vscsi_record(version, 0x28, 8192, 100, 33900) +
                                vscsi_record(version, 0x12, 36, 0, 33901) + vscsi_record(version, 0x35, 0, 0, 33905) +
                                vscsi_record(version, 0x88, 4096, 8, 34000);
    for (const std::string& bytes : {records, compress(records, "zstd")}) {
      TempTrace bin(bytes, ".vscsi");
      const auto workload = make_workload("trace:" + bin.path(), {});   // format=auto
      EXPECT_NE(workload->describe().find("format=vscsi"), std::string::npos) << workload->describe();
      const auto got = drain(*workload);
      ASSERT_EQ(got.size(), expected.size()) << "version " << version;
      for (size_t i = 0; i < got.size(); i++) {
        EXPECT_EQ(got[i].op, expected[i].op) << "version " << version << " request " << i;
        EXPECT_EQ(got[i].offset, expected[i].offset) << "version " << version << " request " << i;
        EXPECT_EQ(got[i].length, expected[i].length) << "version " << version << " request " << i;
        EXPECT_EQ(got[i].arrival_ns, expected[i].arrival_ns) << "version " << version << " request " << i;
      }
    }
    // The last record cut short; a bad opcode named by its record number.
    TempTrace cut(records.substr(0, records.size() - 3), ".vscsi");
    const std::string m = workload_error([&] { build_and_drain("trace:" + cut.path()); });
    EXPECT_EQ(m.rfind(cut.path() + ": the last binary vscsi record (record 5) is cut short", 0), 0u) << m;
    TempTrace bad(records + vscsi_record(version, 0x1234, 512, 0, 40000), ".vscsi");
    const std::string b = workload_error([&] { build_and_drain("trace:" + bad.path()); });
    EXPECT_EQ(b.rfind(bad.path() + ":6: op '1234' is not a SCSI opcode", 0), 0u) << b;
  }
}

}  // namespace
}  // namespace ssdvp::workload::test
