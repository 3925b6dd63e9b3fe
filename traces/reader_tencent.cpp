// Tencent Cloud Block Storage trace reader (SNIA IOTTA "Tencent CBS", 2018): CSV
// "Timestamp,Offset,Size,IOType,VolumeID" with Timestamp in seconds (Unix epoch), Offset and
// Size in 512-byte sectors, IOType 0 for a read and 1 for a write, VolumeID the cloud disk.
//
// Models: reads and writes; VolumeID is the device key (streams=by_volume or by_device;
// device= keeps one volume).  A header line naming the columns is skipped (as in every format).
// Leaves out: sub-second timing, which the traces do not have: every request of one second
// arrives at the same instant in an open-loop replay (replay=closed ignores the times).
#include <vector>

#include "traces/text_fields.h"
#include "traces/trace_formats.h"

namespace ssdvp::workload {

namespace {

constexpr const char* kLayout = "Timestamp,Offset,Size,IOType,VolumeID";
constexpr uint64_t kNanosecondsPerSecond = 1000000000;
constexpr uint64_t kSectorBytes = 512;

class TencentParser : public TraceLineParser {
 public:
  std::optional<TraceRecord> parse(std::string_view line) override {
    split_on(line, ',', fields_);
    expect_field_count(fields_, 5, kLayout);
    TraceRecord record;
    record.time_ns = scaled_field(unsigned_field(fields_[0], "Timestamp"), kNanosecondsPerSecond, "Timestamp");
    record.offset = scaled_field(unsigned_field(fields_[1], "Offset"), kSectorBytes, "Offset");
    const uint64_t size = scaled_field(unsigned_field(fields_[2], "Size"), kSectorBytes, "Size");
    const std::string_view type = trim(fields_[3]);
    if (type == "0") {
      record.op = Op::Read;
    } else if (type == "1") {
      record.op = Op::Write;
    } else {
      throw TraceLineError("unknown IOType '" + std::string(fields_[3]) + "' (0 read, 1 write)");
    }
    record.length = request_length(record.op, size);
    unsigned_field(fields_[4], "VolumeID");
    record.device = fields_[4];
    return record;
  }

 private:
  std::vector<std::string_view> fields_;
};

bool looks_like_tencent(std::string_view line) {
  std::vector<std::string_view> fields;
  split_on(line, ',', fields);
  if (fields.size() != 5) return false;
  for (std::string_view f : fields)
    if (!parse_unsigned(f)) return false;
  const std::string_view type = trim(fields[3]);
  return type == "0" || type == "1";
}

std::unique_ptr<TraceLineParser> make_tencent_parser(const TraceParserOptions&) {
  return std::make_unique<TencentParser>();
}

}  // namespace

const TraceFormat& tencent_trace_format() {
  static const TraceFormat format{"tencent", "", kLayout, true, false, false, &looks_like_tencent, &make_tencent_parser};
  return format;
}

}  // namespace ssdvp::workload
