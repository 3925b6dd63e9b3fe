// MSR Cambridge block trace reader (SNIA IOTTA): CSV
// "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime" with Timestamp in Windows
// filetime ticks of 100 ns, Type Read/Write (any case), Offset and Size in bytes.
//
// Models: reads and writes; "Hostname,DiskNumber" is the device key for streams=by_device.
// Leaves out: ResponseTime (the recorded service time; the platform measures its own).  The
// published files have no header line; one naming the columns is skipped as in every format.
#include <vector>

#include "traces/text_fields.h"
#include "traces/trace_formats.h"

namespace ssdvp::workload {

namespace {

constexpr const char* kLayout = "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime";
constexpr uint64_t kNanosecondsPerTick = 100;

class MsrParser : public TraceLineParser {
 public:
  std::optional<TraceRecord> parse(std::string_view line) override {
    split_on(line, ',', fields_);
    expect_field_count(fields_, 7, kLayout);
    TraceRecord record;
    record.time_ns =
        scaled_field(unsigned_field(fields_[0], "Timestamp"), kNanosecondsPerTick, "Timestamp");
    if (fields_[1].empty()) throw TraceLineError("Hostname is empty");
    unsigned_field(fields_[2], "DiskNumber");
    // Hostname and DiskNumber are adjacent in the line: one view covers both.
    record.device = std::string_view(
        fields_[1].data(),
        static_cast<size_t>(fields_[2].data() + fields_[2].size() - fields_[1].data()));
    if (equals_ignoring_case(fields_[3], "read")) {
      record.op = Op::Read;
    } else if (equals_ignoring_case(fields_[3], "write")) {
      record.op = Op::Write;
    } else {
      throw TraceLineError("unknown Type '" + std::string(fields_[3]) + "' (Read or Write)");
    }
    record.offset = unsigned_field(fields_[4], "Offset");
    record.length = request_length(record.op, unsigned_field(fields_[5], "Size"));
    unsigned_field(fields_[6], "ResponseTime");
    return record;
  }

 private:
  std::vector<std::string_view> fields_;
};

bool looks_like_msr(std::string_view line) {
  std::vector<std::string_view> fields;
  split_on(line, ',', fields);
  return fields.size() == 7 && parse_unsigned(fields[0]) &&
         (equals_ignoring_case(fields[3], "read") || equals_ignoring_case(fields[3], "write"));
}

std::unique_ptr<TraceLineParser> make_msr_parser(const TraceParserOptions&) {
  return std::make_unique<MsrParser>();
}

}  // namespace

const TraceFormat& msr_trace_format() {
  static const TraceFormat format{"msr", "",    kLayout,         true,
                                  false, false, &looks_like_msr, &make_msr_parser};
  return format;
}

}  // namespace ssdvp::workload
