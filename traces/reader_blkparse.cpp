// blkparse (blktrace) default text output reader, e.g.
//   "  8,0    3        1     0.000000000  4162  D  WS 3417048 + 8 [jbd2/sda3-8]"
// fields: device(major,minor) cpu sequence time_s pid action RWBS [sector + sectors] [process].
//
// Models: one request per event line of the selected action (D, issue to the driver, by
// default; action=Q for queue events).  RWBS: D (discard) -> Trim, R -> Read, W -> Write,
// F with no data (FN, F, FWS 0 + 0) -> Flush; a write carrying a pre-flush (FWS with data)
// stays a Write.  N without F (a request with no data, e.g. a passthrough) yields nothing.
// Lines that are not event lines (the per-CPU and total summaries at the end, "m" messages)
// and events of other actions are skipped silently.  Device is "major,minor", pid the pid.
// Leaves out: custom -f output formats, merge/remap bookkeeping (A, M, F, X, ... actions).
#include <vector>

#include "traces/text_fields.h"
#include "traces/trace_formats.h"

namespace ssdvp::workload {

namespace {

constexpr const char* kLayout = "device cpu sequence time pid action RWBS sector + sectors";
constexpr uint64_t kSectorBytes = 512;
// Letters blkparse and the kernel's blk_fill_rwbs write into RWBS.
constexpr std::string_view kRwbsLetters = "FDWRNEASMB";

// "8,0": major,minor device numbers.
bool is_device_field(std::string_view field) {
  const size_t comma = field.find(',');
  return comma != std::string_view::npos && parse_unsigned(field.substr(0, comma)) &&
         parse_unsigned(field.substr(comma + 1));
}

class BlkparseParser : public TraceLineParser {
 public:
  explicit BlkparseParser(char action) : action_(action) {}

  std::optional<TraceRecord> parse(std::string_view line) override {
    split_blanks(line, fields_);
    if (fields_.empty() || !is_device_field(fields_[0])) return std::nullopt;  // summary text
    expect_min_field_count(fields_, 6, kLayout);
    unsigned_field(fields_[1], "cpu");
    unsigned_field(fields_[2], "sequence");
    TraceRecord record;
    record.time_ns = time_field_ns(fields_[3], 9, "time");
    unsigned_field(fields_[4], "pid");
    record.device = fields_[0];
    record.pid = fields_[4];
    if (fields_[5].size() != 1 || fields_[5][0] != action_) return std::nullopt;
    expect_min_field_count(fields_, 7, kLayout);
    const std::optional<Op> op = classify(fields_[6]);
    if (!op) return std::nullopt;
    record.op = *op;
    // Data-less requests may still print "sector + 0"; flushes carry no range either way.
    const bool has_range = fields_.size() >= 10 && fields_[8] == "+";
    const uint64_t sectors = has_range ? unsigned_field(fields_[9], "sectors") : 0;
    if (record.op == Op::Write && sectors == 0 && fields_[6].front() == 'F') record.op = Op::Flush;
    if (record.op == Op::Flush) return record;
    if (!has_range)
      throw TraceLineError("expected 'sector + sectors' after RWBS " + std::string(fields_[6]));
    record.offset = scaled_field(unsigned_field(fields_[7], "sector"), kSectorBytes, "sector");
    record.length = request_length(record.op, scaled_field(sectors, kSectorBytes, "sectors"));
    return record;
  }

 private:
  // The operation RWBS describes, nullopt for a data-less non-flush request.
  static std::optional<Op> classify(std::string_view rwbs) {
    for (const char letter : rwbs) {
      if (kRwbsLetters.find(letter) == std::string_view::npos) {
        throw TraceLineError("unknown RWBS '" + std::string(rwbs) + "'");
      }
    }
    const bool pre_flush = rwbs.front() == 'F';
    const std::string_view rest = pre_flush ? rwbs.substr(1) : rwbs;
    if (rest.empty()) return Op::Flush;
    switch (rest.front()) {
      case 'D': return Op::Trim;
      case 'R': return Op::Read;
      case 'W': return Op::Write;
      case 'F': return Op::Flush;
      case 'N': return pre_flush ? std::optional<Op>(Op::Flush) : std::nullopt;
      default: throw TraceLineError("RWBS '" + std::string(rwbs) + "' names no operation");
    }
  }

  char action_;
  std::vector<std::string_view> fields_;
};

bool looks_like_blkparse(std::string_view line) {
  std::vector<std::string_view> fields;
  split_blanks(line, fields);
  return fields.size() >= 6 && is_device_field(fields[0]) && parse_unsigned(fields[1]) &&
         parse_unsigned(fields[2]) && parse_scaled_decimal(fields[3], 9);
}

std::unique_ptr<TraceLineParser> make_blkparse_parser(const TraceParserOptions& options) {
  return std::make_unique<BlkparseParser>(options.action);
}

}  // namespace

const TraceFormat& blkparse_trace_format() {
  static const TraceFormat format{
      "blkparse", "", kLayout, true, true, true, &looks_like_blkparse, &make_blkparse_parser};
  return format;
}

}  // namespace ssdvp::workload
