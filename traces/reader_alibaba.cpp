// Alibaba Cloud block trace reader (github.com/alibaba/block-traces, 2020, io_traces.csv): CSV
// "device_id,opcode,offset,length,timestamp" with device_id the virtual disk (an integer),
// opcode R or W, offset and length in bytes, timestamp in microseconds (Unix epoch).
//
// Models: reads and writes; device_id is the device key (streams=by_device, or by_volume;
// device= keeps one disk).  A header line naming the columns is skipped (as in every format).
// Leaves out: device_size.csv (each disk's capacity: addresses fold onto the drive as for
// every trace, workload.address).
#include <vector>

#include "traces/text_fields.h"
#include "traces/trace_formats.h"

namespace ssdvp::workload {

namespace {

constexpr const char* kLayout = "device_id,opcode,offset,length,timestamp";
constexpr uint64_t kNanosecondsPerMicrosecond = 1000;

class AlibabaParser : public TraceLineParser {
 public:
  std::optional<TraceRecord> parse(std::string_view line) override {
    split_on(line, ',', fields_);
    expect_field_count(fields_, 5, kLayout);
    TraceRecord record;
    unsigned_field(fields_[0], "device_id");
    record.device = fields_[0];
    if (equals_ignoring_case(fields_[1], "r")) {
      record.op = Op::Read;
    } else if (equals_ignoring_case(fields_[1], "w")) {
      record.op = Op::Write;
    } else {
      throw TraceLineError("unknown opcode '" + std::string(fields_[1]) + "' (R or W)");
    }
    record.offset = unsigned_field(fields_[2], "offset");
    record.length = request_length(record.op, unsigned_field(fields_[3], "length"));
    record.time_ns = scaled_field(unsigned_field(fields_[4], "timestamp"), kNanosecondsPerMicrosecond, "timestamp");
    return record;
  }

 private:
  std::vector<std::string_view> fields_;
};

bool looks_like_alibaba(std::string_view line) {
  std::vector<std::string_view> fields;
  split_on(line, ',', fields);
  return fields.size() == 5 && parse_unsigned(fields[0]) && parse_unsigned(fields[2]) && parse_unsigned(fields[3]) &&
         parse_unsigned(fields[4]) && (equals_ignoring_case(fields[1], "r") || equals_ignoring_case(fields[1], "w"));
}

std::unique_ptr<TraceLineParser> make_alibaba_parser(const TraceParserOptions&) {
  return std::make_unique<AlibabaParser>();
}

}  // namespace

const TraceFormat& alibaba_trace_format() {
  static const TraceFormat format{"alibaba", "", kLayout, true, false, false, &looks_like_alibaba, &make_alibaba_parser};
  return format;
}

}  // namespace ssdvp::workload
