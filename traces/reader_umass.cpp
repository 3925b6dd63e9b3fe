// UMass Trace Repository / SPC trace reader (Financial, WebSearch): CSV
// "ASU,LBA,Size,Opcode,Timestamp[,...]" with LBA in 512-byte sectors, Size in bytes, Opcode
// r/w (any case) and Timestamp in seconds.
//
// Models: reads and writes; ASU (application storage unit) is the device key for
// streams=by_device.  Fields after Timestamp are ignored, as some copies carry extras.
// Leaves out: nothing else is in the format.
#include <vector>

#include "traces/text_fields.h"
#include "traces/trace_formats.h"

namespace ssdvp::workload {

namespace {

constexpr const char* kLayout = "ASU,LBA,Size,Opcode,Timestamp";
constexpr uint64_t kSectorBytes = 512;

class UmassParser : public TraceLineParser {
 public:
  std::optional<TraceRecord> parse(std::string_view line) override {
    split_on(line, ',', fields_);
    expect_min_field_count(fields_, 5, kLayout);
    TraceRecord record;
    unsigned_field(fields_[0], "ASU");
    record.device = fields_[0];
    record.offset = scaled_field(unsigned_field(fields_[1], "LBA"), kSectorBytes, "LBA");
    const uint64_t bytes = unsigned_field(fields_[2], "Size");
    if (equals_ignoring_case(fields_[3], "r")) {
      record.op = Op::Read;
    } else if (equals_ignoring_case(fields_[3], "w")) {
      record.op = Op::Write;
    } else {
      throw TraceLineError("unknown Opcode '" + std::string(fields_[3]) + "' (r or w)");
    }
    record.length = request_length(record.op, bytes);
    record.time_ns = time_field_ns(fields_[4], 9, "Timestamp");
    return record;
  }

 private:
  std::vector<std::string_view> fields_;
};

bool looks_like_umass(std::string_view line) {
  std::vector<std::string_view> fields;
  split_on(line, ',', fields);
  return fields.size() >= 5 && parse_unsigned(fields[0]) && parse_unsigned(fields[1]) &&
         (equals_ignoring_case(fields[3], "r") || equals_ignoring_case(fields[3], "w")) &&
         parse_scaled_decimal(fields[4], 9);
}

std::unique_ptr<TraceLineParser> make_umass_parser(const TraceParserOptions&) {
  return std::make_unique<UmassParser>();
}

}  // namespace

const TraceFormat& umass_trace_format() {
  static const TraceFormat format{"umass", "spc", kLayout,           true,
                                  false,   false, &looks_like_umass, &make_umass_parser};
  return format;
}

}  // namespace ssdvp::workload
