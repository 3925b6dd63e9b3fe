// The public cloud block-trace readers (Alibaba Cloud, Tencent CBS, vscsi CSV) against
// hand-written lines of known meaning, their device/volume streams and filter, malformed lines
// named by file:line, and compressed traces (gzip, xz, zstd, bzip2) read as their plain text.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>
#include <vector>

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

TEST(VscsiReader, ScsiOpcodesBlocksAndSeconds) {
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
  EXPECT_EQ(r[1].arrival_ns, 2000000000u);   // seconds, as libCacheSim writes them
  EXPECT_EQ(r[2].op, Op::Flush);
  EXPECT_EQ(r[2].arrival_ns, 7000000000u);
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
// reads them, ts in microseconds: the same requests as their CSV lines (time = ts / 10^6 s),
// auto-detected, compressed too; a record cut short is an error.
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
    const std::string records = vscsi_record(version, 0x2a, 512, 42932745, 33898000000) +
                                vscsi_record(version, 0x28, 8192, 100, 33900000000) +
                                vscsi_record(version, 0x12, 36, 0, 33901000000) +
                                vscsi_record(version, 0x35, 0, 0, 33905000000) +
                                vscsi_record(version, 0x88, 4096, 8, 34000000000);
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
    TempTrace bad(records + vscsi_record(version, 0x1234, 512, 0, 40000000000), ".vscsi");
    const std::string b = workload_error([&] { build_and_drain("trace:" + bad.path()); });
    EXPECT_EQ(b.rfind(bad.path() + ":6: op '1234' is not a SCSI opcode", 0), 0u) << b;
  }
}

// One trace, two forms (docs/traces.md, "VMware / CloudPhysics vscsi"): the binary records
// (ts in microseconds) and the CSV libCacheSim converts them to (time = ts / 10^6 in whole
// seconds, as in its data/cloudPhysicsIO.csv) replay as the same requests at the same times.
struct VscsiTraceRecord {
  uint16_t cmd;
  uint32_t len;
  uint64_t lbn;
  uint64_t ts_us;
};

// Like the public 113,872-request trace: absolute microseconds since the host's start, two
// hours long, writes and reads; a flush, a command without data and the other opcode sizes.
std::vector<VscsiTraceRecord> vscsi_trace(bool whole_seconds) {
  const uint64_t start = 5633898368802;
  std::vector<VscsiTraceRecord> records = {
      {0x2a, 512, 42932745, start},       {0x2a, 512, 42932746, start + 242639},
      {0x28, 8192, 100, start + 2000000}, {0x12, 36, 0, start + 2500000},   // INQUIRY: no request
      {0x35, 0, 0, start + 7000001},      {0x88, 4096, 8, start + 61999999},
      {0x0a, 1024, 7, start + 3600000000}, {0x08, 512, 1, start + 7200089885},
  };
  if (whole_seconds)
    for (VscsiTraceRecord& r : records) r.ts_us -= r.ts_us % 1000000;
  return records;
}

std::string vscsi_binary(const std::vector<VscsiTraceRecord>& records, unsigned version) {
  std::string bytes;
  for (const VscsiTraceRecord& r : records) bytes += vscsi_record(version, r.cmd, r.len, r.lbn, r.ts_us);
  return bytes;
}

// The CSV of `records` with the time column written by `time_of` (libCacheSim: ts / 10^6).
std::string vscsi_csv(const std::vector<VscsiTraceRecord>& records, unsigned version,
                      const std::function<std::string(uint64_t ts_us)>& time_of) {
  std::string text = "version,time,op,size,lbn\n";
  char op[8];
  for (const VscsiTraceRecord& r : records) {
    std::snprintf(op, sizeof op, "%x", unsigned(r.cmd));
    text += std::to_string(version) + "," + time_of(r.ts_us) + "," + op + "," + std::to_string(r.len) + "," +
            std::to_string(r.lbn) + "\n";
  }
  return text;
}

std::string libcachesim_seconds(uint64_t ts_us) { return std::to_string(ts_us / 1000000); }

void expect_same_requests(const std::vector<Request>& got, const std::vector<Request>& expected, const std::string& what) {
  ASSERT_EQ(got.size(), expected.size()) << what;
  for (size_t i = 0; i < got.size(); i++) {
    EXPECT_EQ(got[i].op, expected[i].op) << what << " request " << i;
    EXPECT_EQ(got[i].offset, expected[i].offset) << what << " request " << i;
    EXPECT_EQ(got[i].length, expected[i].length) << what << " request " << i;
    EXPECT_EQ(got[i].arrival_ns, expected[i].arrival_ns) << what << " request " << i;
  }
}

std::vector<Request> replay_text(const std::string& text, const std::string& options = "") {
  TempTrace trace(text, ".vscsi");
  return drain(*make_workload("trace:" + trace.path() + options, {}));   // format=auto
}

TEST(VscsiReader, BinaryAndLibCacheSimCsvOfOneTraceGiveTheSameRequests) {
  for (unsigned version : {1u, 2u}) {
    // Whole seconds: libCacheSim's CSV loses nothing, so the forms agree exactly.
    const auto records = vscsi_trace(true);
    const auto binary = replay_text(vscsi_binary(records, version));
    ASSERT_EQ(binary.size(), 7u) << "version " << version;
    EXPECT_EQ(binary[0].op, Op::Write);
    EXPECT_EQ(binary[0].offset, 42932745ull * 512);
    EXPECT_EQ(binary[3].op, Op::Flush);
    EXPECT_EQ(binary[3].arrival_ns, 7000000000u);
    EXPECT_EQ(binary[6].op, Op::Read);
    EXPECT_EQ(binary[6].arrival_ns, 7200000000000u);   // two hours, not 7.2 ms
    expect_same_requests(replay_text(vscsi_csv(records, version, libcachesim_seconds)), binary,
                         "libCacheSim CSV, version " + std::to_string(version));
    expect_same_requests(replay_text(compress(vscsi_csv(records, version, libcachesim_seconds), "gzip")), binary,
                         "gzip CSV, version " + std::to_string(version));

    // Microseconds: a CSV with decimal seconds keeps them; libCacheSim's whole seconds give
    // the binary trace's times cut to the second.
    const auto exact = vscsi_trace(false);
    const auto decimal_seconds = [](uint64_t ts_us) {
      char text[40];
      std::snprintf(text, sizeof text, "%llu.%06llu", (unsigned long long)(ts_us / 1000000),
                    (unsigned long long)(ts_us % 1000000));
      return std::string(text);
    };
    const auto exact_binary = replay_text(vscsi_binary(exact, version));
    EXPECT_EQ(exact_binary[1].arrival_ns, 242639000u);
    expect_same_requests(replay_text(vscsi_csv(exact, version, decimal_seconds)), exact_binary,
                         "decimal-seconds CSV, version " + std::to_string(version));
    expect_same_requests(replay_text(vscsi_csv(exact, version, libcachesim_seconds)), binary,
                         "libCacheSim CSV of microseconds, version " + std::to_string(version));
  }
}

// libCacheSim's first conversion (its data/trace.csv of 2019) kept the microseconds: time_unit=
// says so, and a time no libCacheSim seconds can be (2^32 s or more) is refused naming it.
TEST(VscsiReader, CsvTimeUnitIsSecondsUnlessTimeUnitSaysOtherwise) {
  const auto records = vscsi_trace(true);
  const auto binary = replay_text(vscsi_binary(records, 1));
  const struct {
    const char* unit;
    uint64_t per_second;
  } units[] = {{"s", 1}, {"ms", 1000}, {"us", 1000000}, {"ns", 1000000000}};
  for (const auto& u : units) {
    const std::string csv =
        vscsi_csv(records, 1, [&](uint64_t ts_us) { return std::to_string(ts_us / 1000000 * u.per_second); });
    expect_same_requests(replay_text(csv, std::string(",time_unit=") + u.unit), binary, u.unit);
  }
  const std::string microseconds = vscsi_csv(records, 1, [](uint64_t ts_us) { return std::to_string(ts_us); });
  TempTrace old_csv(microseconds, ".csv");
  EXPECT_EQ(workload_error([&] { build_and_drain("trace:" + old_csv.path()); }),
            old_csv.path() +
                ":2: time '5633898000000' is 2^32 seconds or more, not seconds as libCacheSim writes them: "
                "give time_unit= (us for microseconds as in the binary records; s, ms, us or ns) "
                "(1,5633898000000,2a,512,42932745)");
  // Microseconds rebased to 0 stay below 2^32: read as seconds, a long one leaves the clock's range.
  TempTrace rebased("version,time,op,size,lbn\n1,0,28,512,0\n1,5000000,28,512,8\n", ".csv");
  const std::string range = workload_error([&] { build_and_drain("trace:" + rebased.path()); });
  EXPECT_EQ(range.rfind(rebased.path() + ":3: arrival 5e+15 ns after the first request", 0), 0u) << range;
  EXPECT_NE(range.find("its time column was read in seconds: give time_unit= if it is in another unit"),
            std::string::npos) << range;
  EXPECT_EQ(drain(*make_workload("trace:" + rebased.path() + ",time_unit=us", {})).at(1).arrival_ns, 5000000000u);
  // A binary trace's records say their unit; other formats have one unit.
  TempTrace bin(vscsi_binary(records, 2), ".vscsi");
  const std::string bin_spec = "trace:" + bin.path() + ",time_unit=ms";
  EXPECT_EQ(workload_error([&] { make_workload(bin_spec, {}); }),
            "workload '" + bin_spec + "': time_unit=: binary vscsi records give their times in microseconds");
  EXPECT_NE(make_workload("trace:" + old_csv.path() + ",time_unit=us", {})->describe().find(" time_unit=us"),
            std::string::npos);
}

}  // namespace
}  // namespace ssdvp::workload::test
