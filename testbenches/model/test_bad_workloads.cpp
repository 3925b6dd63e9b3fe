// Bad input on the command line, as a new user meets it: a bad workload (a generator value out
// of range, a trace with a malformed line, a missing trace, random bytes) is named on stderr
// before any platform is built, with exit status 2 and no results table, whatever --quiet
// says; an error found during the run also reaches stderr with --quiet; every string in
// run.json is valid UTF-8, even when the input was not.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <nlohmann/json.hpp>

#include "model/platform_test_support.h"

namespace {

struct CliRun {
  int status = -1;
  std::string out, err;
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

CliRun run_cli(const std::string& name, const std::string& workload, bool quiet,
               std::vector<std::string> sets = ssdvp::test::small_platform()) {
  const std::string dir = std::string(::testing::TempDir()) + "bad-workload-" + name;
  std::filesystem::remove_all(dir);
  std::string cmd = std::string(SSDVP_BINARY) + " run --test-aids " + (quiet ? "-q " : "") + "--out '" + dir + "' --workload '" + workload + "'";
  for (const auto& s : sets) cmd += " --set '" + s + "'";
  cmd += " > '" + dir + ".out' 2> '" + dir + ".err'";
  CliRun r;
  const int rc = std::system(cmd.c_str());
  r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  r.out = slurp(dir + ".out");
  r.err = slurp(dir + ".err");
  return r;
}

void expect_named_before_elaboration(const std::string& name, const std::string& workload, const std::string& want) {
  for (bool quiet : {false, true}) {
    SCOPED_TRACE(name + (quiet ? " -q" : ""));
    const CliRun r = run_cli(name, workload, quiet);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find(want), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("requests"), std::string::npos) << "a results table for a run that never ran:\n" << r.out;
    EXPECT_FALSE(std::filesystem::exists(std::string(::testing::TempDir()) + "bad-workload-" + name + "/run.json"));
  }
}

}  // namespace

TEST(BadWorkloads, GeneratorValueOutOfRange) {
  expect_named_before_elaboration("rr", "rr:ratio=150", "workload 'rr:ratio=150': ratio=150: must be in 0..100");
}

TEST(BadWorkloads, ZeroQueueDepth) {
  expect_named_before_elaboration("iodepth", "fio:rw=randread,bs=4k,iodepth=0,io=100", "iodepth=0: must be in 1..65535");
}

TEST(BadWorkloads, NegativeLbaOnLineTwoOfATrace) {
  const std::string path = std::string(::testing::TempDir()) + "negative-lba.trace";
  std::ofstream(path) << "0.0 0 100 8 0\n0.1 0 -5 8 1\n";
  expect_named_before_elaboration("negative", path, path + ":2: lba_sector '-5' is not a non-negative integer");
}

TEST(BadWorkloads, MissingTraceFile) {
  expect_named_before_elaboration("missing", "/nonexistent/missing.trace", "workload '/nonexistent/missing.trace'");
  expect_named_before_elaboration("missing-trace", "trace:/nonexistent/missing.trace",
                                  "/nonexistent/missing.trace: cannot open trace file");
}

TEST(BadWorkloads, MalformedLineDeepInABigTrace) {
  const std::string path = std::string(::testing::TempDir()) + "deep.trace";
  {
    std::ofstream out(path);
    for (int i = 0; i < 20000; i++) out << i * 0.01 << " 0 " << (i * 8) % 100000 << " 8 " << (i & 1) << "\n";
    out << "200.5 0 64 eight 1\n";
  }
  expect_named_before_elaboration("deep", path, path + ":20001:");
}

TEST(BadWorkloads, RandomBytesAreNamedAsABinaryFile) {
  const std::string path = std::string(::testing::TempDir()) + "random-bytes.trace";
  {
    std::mt19937 rng(7);
    std::ofstream out(path, std::ios::binary);
    for (int i = 0; i < 3000; i++) out.put(char(rng() & 0xFF));
  }
  expect_named_before_elaboration("random", path, path + ":");
  const CliRun r = run_cli("random", path, true);
  EXPECT_EQ(r.err.find("json.exception"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(": a binary file, not a text trace"), std::string::npos) << "named as binary, not quoted: " << r.err;
  // the message is valid UTF-8: JSON takes it
  EXPECT_NO_THROW((void)nlohmann::json(r.err).dump());
}

TEST(BadWorkloads, RunTimeErrorReachesStderrWithQuiet) {
  // A mapping cache below two translation pages per region: the firmware refuses it at boot.
  auto sets = ssdvp::test::small_platform();
  sets.push_back("ftl.mapping=dftl");
  sets.push_back("ftl.cmt_ratio=0.00001");
  const CliRun r = run_cli("runtime", "fio:rw=randread,bs=4k,iodepth=4,io=100", true, sets);
  EXPECT_NE(r.status, 0);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_NE(r.err.find("ftl.cmt_ratio"), std::string::npos) << r.err;
}

TEST(BadWorkloads, ACapacityThatLeavesGcNoSpareIsRefusedNamingTheKey) {
  // Within the NAND (the configuration accepts it) but past what GC's spare leaves: the firmware
  // refuses it at boot, and the message names the key.
  auto sets = ssdvp::test::small_platform();
  sets.push_back("ftl.logical_sectors=65000");   // the small drive has 65,536 sectors
  const CliRun r = run_cli("capacity", "fio:rw=randread,bs=4k,iodepth=4,io=100", true, sets);
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("ftl.logical_sectors"), std::string::npos) << r.err;
}

TEST(BadWorkloads, RunJsonIsValidUtf8WhenAPathIsNot) {
  const std::string path = std::string(::testing::TempDir()) + "latin1-\xe9t\xe9.trace";
  std::ofstream(path) << "0.0 0 100 8 0\n0.1 0 100 8 1\n";
  const CliRun r = run_cli("latin1", "trace:" + path, true);
  EXPECT_EQ(r.status, 0) << r.err;
  const std::string json = slurp(std::string(::testing::TempDir()) + "bad-workload-latin1/run.json");
  nlohmann::json doc;
  ASSERT_NO_THROW(doc = nlohmann::json::parse(json));
  EXPECT_NO_THROW((void)doc.dump());
}

// A trace that gives no request is bad input, not a run of nothing with exit 0: a header
// only, and a device= filter that no line matches.
TEST(BadWorkloads, ATraceWithNoRequestIsRefused) {
  const std::string header = std::string(::testing::TempDir()) + "header-only.csv";
  std::ofstream(header) << "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n";
  expect_named_before_elaboration("header-only", "trace:" + header + ",format=msr", header + ": no request in the trace");
  const std::string msr = std::string(::testing::TempDir()) + "two-lines.csv";
  std::ofstream(msr) << "128166372003061629,hm,1,Read,383496192,32768,4022\n128166372003061729,hm,1,Write,4096,4096,100\n";
  expect_named_before_elaboration("no-device", "trace:" + msr + ",device=prn_0", msr + ": no request of device/volume prn_0");
}

// Requests beyond the namespace folded into it are said on the summary, with their count.
TEST(BadWorkloads, FoldedRequestsAreSaidOnTheSummary) {
  const std::string path = std::string(::testing::TempDir()) + "beyond.trace";
  std::ofstream(path) << "0.0 0 100 8 0\n0.1 0 900000000 8 0\n0.2 0 900000008 8 1\n";   // DiskSim: sectors of 512 B
  const CliRun r = run_cli("folded", "trace:" + path, false);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("note: 2 requests addressed beyond the namespace were folded into it"), std::string::npos) << r.out;
}

// A generator range within the raw NAND but beyond the namespace the firmware reports is found
// once the drive has booted: still bad input (exit 2, the line naming the key and the
// namespace's bytes), no table of a run that did not run.  (It exited 3 with an empty summary.)
TEST(BadWorkloads, ARangeBeyondTheNamespaceIsBadInput) {
  const CliRun r = run_cli("beyond-namespace", "fio:rw=randread,bs=4k,size=230m,io=100", false);   // raw 256 MiB
  EXPECT_EQ(r.status, 2) << r.err;
  const std::string said = "size=230m: offset + size exceeds the namespace's capacity (";
  const size_t at = r.err.find(said);
  ASSERT_NE(at, std::string::npos) << r.err;
  EXPECT_LT(std::stoull(r.err.substr(at + said.size())), 256ull << 20) << "the namespace's bytes, not the raw NAND's";
  EXPECT_EQ(r.out.find("requests"), std::string::npos) << r.out;
}

// Beyond even the raw NAND, the range is refused before the platform is built: the line says the
// bound it was checked against is the raw capacity, not the namespace's (it called it "the capacity").
TEST(BadWorkloads, ARangeBeyondTheRawNandSaysItWasCheckedAgainstTheRawCapacity) {
  const CliRun r = run_cli("beyond-raw", "fio:rw=randread,bs=4k,size=1g,io=100", false);   // raw 256 MiB
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("size=1g: offset + size exceeds the drive's raw capacity (268435456 bytes; the namespace, "
                       "smaller, is known once the firmware reports it)"),
            std::string::npos)
      << r.err;
}
