// VMware/CloudPhysics vscsi trace reader, in the CSV form libCacheSim converts them to
// (its data/trace.csv): "version,time,op,size,lbn" after a header line of those names (skipped
// as in every format), with
// version the vscsi record version (1 or 2), time in microseconds from the trace's start, op
// the SCSI command's opcode in hexadecimal ("28" READ(10), "2a" WRITE(10)), size in bytes and
// lbn the first 512-byte logical block.
//
// Models: READ(6/10/12/16) and WRITE(6/10/12/16) as reads and writes, SYNCHRONIZE CACHE(10/16)
// as flushes; other commands (TEST UNIT READY, INQUIRY, READ CAPACITY, ...) carry no data and
// are valid lines without a request.  One virtual disk per trace: no device column.
// The binary vscsi records (32 or 40 bytes) reach this parser as these CSV lines: the file
// layer turns each record into one (trace_file.h).
// Leaves out: UNMAP and WRITE SAME (their ranges are in the command's parameter data, which
// the trace omits).
#include <charconv>
#include <vector>

#include "traces/text_fields.h"
#include "traces/trace_formats.h"

namespace ssdvp::workload {

namespace {

constexpr const char* kLayout = "version,time,op,size,lbn";
constexpr uint64_t kNanosecondsPerMicrosecond = 1000;
constexpr uint64_t kBlockBytes = 512;

// The SCSI opcode in hex (with or without 0x), or nullopt.
std::optional<unsigned> scsi_opcode(std::string_view text) {
  text = trim(text);
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) text.remove_prefix(2);
  unsigned value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, 16);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || value > 0xFF) return std::nullopt;
  return value;
}

enum class Kind { Read, Write, Flush, Other };
Kind kind_of(unsigned opcode) {
  switch (opcode) {
    case 0x08: case 0x28: case 0xA8: case 0x88: return Kind::Read;
    case 0x0A: case 0x2A: case 0xAA: case 0x8A: return Kind::Write;
    case 0x35: case 0x91: return Kind::Flush;
    default: return Kind::Other;
  }
}

class VscsiParser : public TraceLineParser {
 public:
  std::optional<TraceRecord> parse(std::string_view line) override {
    split_on(line, ',', fields_);
    expect_field_count(fields_, 5, kLayout);
    const uint64_t version = unsigned_field(fields_[0], "version");
    if (version != 1 && version != 2) throw TraceLineError("version " + std::to_string(version) + " is not 1 or 2");
    TraceRecord record;
    record.time_ns = scaled_field(unsigned_field(fields_[1], "time"), kNanosecondsPerMicrosecond, "time");
    const std::optional<unsigned> opcode = scsi_opcode(fields_[2]);
    if (!opcode) throw TraceLineError("op '" + std::string(fields_[2]) + "' is not a SCSI opcode in hexadecimal");
    const uint64_t size = unsigned_field(fields_[3], "size");
    const uint64_t offset = scaled_field(unsigned_field(fields_[4], "lbn"), kBlockBytes, "lbn");
    switch (kind_of(*opcode)) {
      case Kind::Read: record.op = Op::Read; break;
      case Kind::Write: record.op = Op::Write; break;
      case Kind::Flush: record.op = Op::Flush; return record;
      case Kind::Other: return std::nullopt;
    }
    record.offset = offset;
    record.length = request_length(record.op, size);
    return record;
  }

 private:
  std::vector<std::string_view> fields_;
};

bool looks_like_vscsi(std::string_view line) {
  std::vector<std::string_view> fields;
  split_on(line, ',', fields);
  if (fields.size() != 5) return false;
  const std::optional<uint64_t> version = parse_unsigned(fields[0]);
  const std::optional<unsigned> opcode = scsi_opcode(fields[2]);
  return version && (*version == 1 || *version == 2) && parse_unsigned(fields[1]) && opcode &&
         kind_of(*opcode) != Kind::Other && parse_unsigned(fields[3]) && parse_unsigned(fields[4]);
}

std::unique_ptr<TraceLineParser> make_vscsi_parser(const TraceParserOptions&) {
  return std::make_unique<VscsiParser>();
}

}  // namespace

const TraceFormat& vscsi_trace_format() {
  static const TraceFormat format{"vscsi", "", kLayout, false, false, false, &looks_like_vscsi, &make_vscsi_parser};
  return format;
}

}  // namespace ssdvp::workload
