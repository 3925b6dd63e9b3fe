// Processed blktrace events as written by WiscSee ("blkparse-events-for-ftlsim.txt"):
//   "pid action op byte_offset size_bytes time_s delta_s sync"
// e.g. "39949 D read 299008 4096 0.000000000 0 False", action D = issue, C = complete.
//
// Models: one request per line of the selected action (D by default); op read -> Read,
// write -> Write, discard or trim -> Trim, flush -> Flush (any case).  pid is the stream key
// for streams=by_pid.
// Leaves out: delta (time since the previous event) and sync (True/False), which the
// platform does not need; they are not checked beyond the field count.
#include <vector>

#include "traces/text_fields.h"
#include "traces/trace_formats.h"

namespace ssdvp::workload {

namespace {

constexpr const char* kLayout = "pid action op byte_offset size_bytes time_s delta_s sync";

class BlkparseEventsParser : public TraceLineParser {
 public:
  explicit BlkparseEventsParser(char action) : action_(action) {}

  std::optional<TraceRecord> parse(std::string_view line) override {
    split_blanks(line, fields_);
    expect_field_count(fields_, 8, kLayout);
    TraceRecord record;
    unsigned_field(fields_[0], "pid");
    record.pid = fields_[0];
    if (fields_[1] != "D" && fields_[1] != "C") {
      throw TraceLineError("unknown action '" + std::string(fields_[1]) + "' (D or C)");
    }
    const std::string_view op = fields_[2];
    if (equals_ignoring_case(op, "read")) {
      record.op = Op::Read;
    } else if (equals_ignoring_case(op, "write")) {
      record.op = Op::Write;
    } else if (equals_ignoring_case(op, "discard") || equals_ignoring_case(op, "trim")) {
      record.op = Op::Trim;
    } else if (equals_ignoring_case(op, "flush")) {
      record.op = Op::Flush;
    } else {
      throw TraceLineError("unknown op '" + std::string(op) +
                           "' (read, write, discard, trim, flush)");
    }
    const uint64_t offset = unsigned_field(fields_[3], "byte_offset");
    const uint64_t bytes = unsigned_field(fields_[4], "size_bytes");
    record.time_ns = time_field_ns(fields_[5], 9, "time_s");
    if (fields_[1][0] != action_) return std::nullopt;
    if (record.op != Op::Flush) {
      record.offset = offset;
      record.length = request_length(record.op, bytes);
    }
    return record;
  }

 private:
  char action_;
  std::vector<std::string_view> fields_;
};

bool looks_like_blkparse_events(std::string_view line) {
  std::vector<std::string_view> fields;
  split_blanks(line, fields);
  return fields.size() == 8 && parse_unsigned(fields[0]) &&
         (fields[1] == "D" || fields[1] == "C") && parse_unsigned(fields[3]) &&
         parse_unsigned(fields[4]) && parse_scaled_decimal(fields[5], 9);
}

std::unique_ptr<TraceLineParser> make_blkparse_events_parser(const TraceParserOptions& options) {
  return std::make_unique<BlkparseEventsParser>(options.action);
}

}  // namespace

const TraceFormat& blkparse_events_trace_format() {
  static const TraceFormat format{
      "blkparse-events",           "", kLayout, false, true, true, &looks_like_blkparse_events,
      &make_blkparse_events_parser};
  return format;
}

}  // namespace ssdvp::workload
