// VMware/CloudPhysics vscsi trace reader, in the CSV form libCacheSim converts them to
// (its data/cloudPhysicsIO.csv): "version,time,op,size,lbn" after a header line of those names
// (skipped as in every format), with version the vscsi record version (1 or 2), time in
// seconds (libCacheSim writes the records' microseconds divided by 10^6, in whole seconds; a
// decimal fraction is read too), op the SCSI command's opcode in hexadecimal ("28" READ(10),
// "2a" WRITE(10)), size in bytes and lbn the first 512-byte logical block.
//
// Models: READ(6/10/12/16) and WRITE(6/10/12/16) as reads and writes, SYNCHRONIZE CACHE(10/16)
// as flushes; other commands (TEST UNIT READY, INQUIRY, READ CAPACITY, ...) carry no data and
// are valid lines without a request.  One virtual disk per trace: no device column.
// The time's unit is not in the file: libCacheSim's 2019 conversion (data/trace.csv) kept the
// microseconds.  time_unit= (s, ms, us, ns) says which; without it the time is seconds, and a
// time of 2^32 s or more, which libCacheSim never writes (its CSV times are 32-bit), is an
// error naming time_unit=.
// The binary vscsi records (32 or 40 bytes) reach this parser as these CSV lines with the
// record's microseconds as time, read with time_unit=us: the file layer turns each record into
// one (trace_file.h) and the record reader sets the unit (trace_record_reader.h).
// Leaves out: UNMAP and WRITE SAME (their ranges are in the command's parameter data, which
// the trace omits).
#include <charconv>
#include <vector>

#include "traces/text_fields.h"
#include "traces/trace_formats.h"

namespace ssdvp::workload {

namespace {

constexpr const char* kLayout = "version,time,op,size,lbn";
constexpr uint64_t kBlockBytes = 512;
// libCacheSim's CSV times are seconds below 2^32 (its csv reader asserts ts < UINT32_MAX).
constexpr uint64_t kLibCacheSimSecondsLimit = uint64_t{1} << 32;
constexpr unsigned kSecondsShift = 9;

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
  explicit VscsiParser(const std::string& time_unit)
      : time_shift_(time_unit_decimal_shift(time_unit).value_or(kSecondsShift)), unit_given_(!time_unit.empty()) {}

  std::optional<TraceRecord> parse(std::string_view line) override {
    split_on(line, ',', fields_);
    expect_field_count(fields_, 5, kLayout);
    const uint64_t version = unsigned_field(fields_[0], "version");
    if (version != 1 && version != 2) throw TraceLineError("version " + std::to_string(version) + " is not 1 or 2");
    TraceRecord record;
    record.time_ns = time_ns(fields_[1]);
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
  uint64_t time_ns(std::string_view field) const {
    if (!unit_given_) {
      const std::optional<uint64_t> seconds = parse_unsigned(field.substr(0, field.find('.')));
      if (seconds && *seconds >= kLibCacheSimSecondsLimit) {
        throw TraceLineError("time '" + std::string(field) +
                             "' is 2^32 seconds or more, not seconds as libCacheSim writes them: give time_unit= "
                             "(us for microseconds as in the binary records; s, ms, us or ns)");
      }
    }
    return time_field_ns(field, time_shift_, "time");
  }

  unsigned time_shift_;
  bool unit_given_;
  std::vector<std::string_view> fields_;
};

bool looks_like_vscsi(std::string_view line) {
  std::vector<std::string_view> fields;
  split_on(line, ',', fields);
  if (fields.size() != 5) return false;
  const std::optional<uint64_t> version = parse_unsigned(fields[0]);
  const std::optional<unsigned> opcode = scsi_opcode(fields[2]);
  return version && (*version == 1 || *version == 2) && parse_scaled_decimal(fields[1], 0) && opcode &&
         kind_of(*opcode) != Kind::Other && parse_unsigned(fields[3]) && parse_unsigned(fields[4]);
}

std::unique_ptr<TraceLineParser> make_vscsi_parser(const TraceParserOptions& options) {
  return std::make_unique<VscsiParser>(options.time_unit);
}

}  // namespace

const TraceFormat& vscsi_trace_format() {
  static const TraceFormat format{"vscsi", "", kLayout, false, false, false, &looks_like_vscsi, &make_vscsi_parser};
  return format;
}

}  // namespace ssdvp::workload
