// Field checks shared by the trace line parsers: see trace_line_parser.h.
#include "traces/trace_line_parser.h"

#include <limits>

#include "traces/text_fields.h"

namespace ssdvp::workload {

namespace {

std::string quoted(std::string_view text) {
  return "'" + std::string(text) + "'";
}

}  // namespace

void expect_field_count(const std::vector<std::string_view>& fields, size_t count,
                        const char* layout) {
  if (fields.size() != count) {
    throw TraceLineError("expected " + std::to_string(count) + " fields (" + layout + "), found " +
                         std::to_string(fields.size()));
  }
}

void expect_min_field_count(const std::vector<std::string_view>& fields, size_t count,
                            const char* layout) {
  if (fields.size() < count) {
    throw TraceLineError("expected at least " + std::to_string(count) + " fields (" + layout +
                         "), found " + std::to_string(fields.size()));
  }
}

uint64_t unsigned_field(std::string_view field, const char* name) {
  const std::optional<uint64_t> value = parse_unsigned(field);
  if (!value)
    throw TraceLineError(std::string(name) + " " + quoted(field) +
                         " is not a non-negative integer");
  return *value;
}

uint64_t time_field_ns(std::string_view field, unsigned decimal_shift, const char* name) {
  const std::optional<uint64_t> value = parse_scaled_decimal(field, decimal_shift);
  if (!value) {
    throw TraceLineError(std::string(name) + " " + quoted(field) +
                         " is not a non-negative number that fits in 64-bit nanoseconds");
  }
  return *value;
}

std::optional<unsigned> time_unit_decimal_shift(std::string_view unit) {
  if (unit == "s") return 9;
  if (unit == "ms") return 6;
  if (unit == "us") return 3;
  if (unit == "ns") return 0;
  return std::nullopt;
}

uint64_t scaled_field(uint64_t value, uint64_t factor, const char* name) {
  if (factor != 0 && value > std::numeric_limits<uint64_t>::max() / factor) {
    throw TraceLineError(std::string(name) + " " + std::to_string(value) + " is too large");
  }
  return value * factor;
}

uint32_t request_length(Op op, uint64_t bytes) {
  if (op != Op::Flush && bytes == 0) {
    throw TraceLineError(std::string("size is 0 for a ") + op_name(op));
  }
  if (bytes > std::numeric_limits<uint32_t>::max()) {
    throw TraceLineError("size " + std::to_string(bytes) + " bytes is 4 GiB or more");
  }
  return static_cast<uint32_t>(bytes);
}

}  // namespace ssdvp::workload
