// DiskSim/MQSim ASCII trace reader: "time_ns device lba_sector size_sectors type" with type
// 0 = write, 1 = read and 512-byte sectors (MQSim's ASCII trace format).
//
// Models: reads and writes with the device number as the stream key.
// Leaves out: DiskSim's original millisecond timestamps and flag bits other than 0/1.
#include <vector>

#include "traces/text_fields.h"
#include "traces/trace_formats.h"

namespace ssdvp::workload {

namespace {

constexpr const char* kLayout = "time_ns device lba_sector size_sectors type";
constexpr uint64_t kSectorBytes = 512;

class DiskSimParser : public TraceLineParser {
 public:
  std::optional<TraceRecord> parse(std::string_view line) override {
    split_blanks(line, fields_);
    expect_field_count(fields_, 5, kLayout);
    TraceRecord record;
    record.time_ns = time_field_ns(fields_[0], 0, "time_ns");
    unsigned_field(fields_[1], "device");
    record.device = fields_[1];
    record.offset =
        scaled_field(unsigned_field(fields_[2], "lba_sector"), kSectorBytes, "lba_sector");
    const uint64_t sectors = unsigned_field(fields_[3], "size_sectors");
    if (fields_[4] == "0") {
      record.op = Op::Write;
    } else if (fields_[4] == "1") {
      record.op = Op::Read;
    } else {
      throw TraceLineError("unknown type '" + std::string(fields_[4]) + "' (0 = write, 1 = read)");
    }
    record.length = request_length(record.op, scaled_field(sectors, kSectorBytes, "size_sectors"));
    return record;
  }

 private:
  std::vector<std::string_view> fields_;
};

bool looks_like_disksim(std::string_view line) {
  std::vector<std::string_view> fields;
  split_blanks(line, fields);
  return fields.size() == 5 && parse_scaled_decimal(fields[0], 0) && parse_unsigned(fields[1]) &&
         parse_unsigned(fields[2]) && parse_unsigned(fields[3]) && parse_unsigned(fields[4]);
}

std::unique_ptr<TraceLineParser> make_disksim_parser(const TraceParserOptions&) {
  return std::make_unique<DiskSimParser>();
}

}  // namespace

const TraceFormat& disksim_trace_format() {
  static const TraceFormat format{
      "disksim", "mqsim", kLayout, true, false, false, &looks_like_disksim, &make_disksim_parser};
  return format;
}

}  // namespace ssdvp::workload
