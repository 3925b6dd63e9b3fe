// Field helpers: exact decimal-to-integer conversion, splitting, byte sizes.
#include <gtest/gtest.h>

#include "traces/nearest_name.h"
#include "traces/spec_options.h"
#include "traces/text_fields.h"

namespace ssdvp::workload::test {
namespace {

TEST(TextFields, ScaledDecimalIsExact) {
  EXPECT_EQ(parse_scaled_decimal("0.000000001", 9), 1u);
  EXPECT_EQ(parse_scaled_decimal("1.413239137", 9), 1413239137u);
  EXPECT_EQ(parse_scaled_decimal("12", 9), 12000000000u);
  EXPECT_EQ(parse_scaled_decimal("1.5", 9), 1500000000u);
  EXPECT_EQ(parse_scaled_decimal(".25", 9), 250000000u);
  EXPECT_EQ(parse_scaled_decimal("0.0000000015", 9), 2u);  // rounds the tenth digit
  EXPECT_EQ(parse_scaled_decimal("938513000", 0), 938513000u);
  EXPECT_EQ(parse_scaled_decimal("7.3902e-05", 9), 73902u);
  EXPECT_FALSE(parse_scaled_decimal("-1", 9));
  EXPECT_FALSE(parse_scaled_decimal("1.2.3", 9));
  EXPECT_FALSE(parse_scaled_decimal(".", 9));
  EXPECT_FALSE(parse_scaled_decimal("", 9));
  EXPECT_FALSE(parse_scaled_decimal("99999999999999999999", 0));
  EXPECT_FALSE(parse_scaled_decimal("20000000000", 9));  // 2e19 ns does not fit in 64 bits
}

TEST(TextFields, Splitting) {
  std::vector<std::string_view> fields;
  split_blanks("  8,0 \t 3  1\r\n", fields);
  EXPECT_EQ(fields, (std::vector<std::string_view>{"8,0", "3", "1"}));
  split_on("a, b ,,c", ',', fields);
  EXPECT_EQ(fields, (std::vector<std::string_view>{"a", "b", "", "c"}));
  EXPECT_TRUE(is_blank_or_comment("   # note"));
  EXPECT_TRUE(is_blank_or_comment(" \t\r"));
  EXPECT_FALSE(is_blank_or_comment("1 # 2"));
}

TEST(TextFields, ByteSizes) {
  EXPECT_EQ(parse_byte_size("4k"), 4096u);
  EXPECT_EQ(parse_byte_size("2M"), 2u << 20);
  EXPECT_EQ(parse_byte_size("1g"), 1u << 30);
  EXPECT_EQ(parse_byte_size("3t"), 3ull << 40);
  EXPECT_EQ(parse_byte_size("512"), 512u);
  // fio's suffixes: KiB, KB and K all 1024-based, any case.
  EXPECT_EQ(parse_byte_size("4KiB"), 4096u);
  EXPECT_EQ(parse_byte_size("4kb"), 4096u);
  EXPECT_EQ(parse_byte_size("1MiB"), 1u << 20);
  EXPECT_EQ(parse_byte_size("2GB"), 2ull << 30);
  EXPECT_EQ(parse_byte_size("1tib"), 1ull << 40);
  EXPECT_FALSE(parse_byte_size("k"));
  EXPECT_FALSE(parse_byte_size("KiB"));
  EXPECT_FALSE(parse_byte_size("4ib"));
  EXPECT_FALSE(parse_byte_size("4b"));
  EXPECT_FALSE(parse_byte_size("4kibb"));
  EXPECT_FALSE(parse_byte_size("4xb"));
  EXPECT_FALSE(parse_byte_size("-4k"));
  EXPECT_FALSE(parse_byte_size("99999999999t"));
}

TEST(NearestName, FindsTheCloseOnesAndNothingElse) {
  const std::vector<std::string> options = {"rw", "bs", "iodepth", "numjobs", "rwmixread", "io_size", "io"};
  EXPECT_EQ(did_you_mean("iodeth", options), "; did you mean 'iodepth'?");
  EXPECT_EQ(did_you_mean("numjbos", options), "; did you mean 'numjobs'?");   // a swap is one edit
  EXPECT_EQ(did_you_mean("IODEPTH", options), "; did you mean 'iodepth'?");
  EXPECT_EQ(did_you_mean("zonemode", options), "");
  EXPECT_EQ(did_you_mean("x", options), "");
  const std::vector<std::string> keys = {"ftl.gc_policy", "ftl.op", "host.queues", "host.cpus"};
  EXPECT_EQ(did_you_mean("gc_policy", keys), "; did you mean 'ftl.gc_policy'?");   // its section left out
  EXPECT_EQ(did_you_mean("host.cpu", keys), "; did you mean 'host.cpus'?");
  EXPECT_EQ(nearest_names("ftl.gc_policyy", keys), std::vector<std::string>{"ftl.gc_policy"});
}

}  // namespace
}  // namespace ssdvp::workload::test

TEST(TextFields, PrintableKeepsUtf8AndQuotesOtherBytes) {
  EXPECT_EQ(ssdvp::workload::printable("0.1 0 -5 8 1"), "0.1 0 -5 8 1");
  EXPECT_EQ(ssdvp::workload::printable("caf\xc3\xa9 \xe2\x82\xac"), "caf\xc3\xa9 \xe2\x82\xac");   // é, €: kept
  EXPECT_EQ(ssdvp::workload::printable("a\xff" "b"), "a\\xffb");
  EXPECT_EQ(ssdvp::workload::printable("\xc3"), "\\xc3");                 // truncated sequence
  EXPECT_EQ(ssdvp::workload::printable("\xc0\xaf"), "\\xc0\\xaf");        // overlong '/'
  EXPECT_EQ(ssdvp::workload::printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");   // a UTF-16 surrogate
  EXPECT_EQ(ssdvp::workload::printable(std::string_view("x\0y\t", 4)), "x\\x00y\\x09");
}
