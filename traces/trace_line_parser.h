// What a trace reader does with one line: the record it yields and the helpers that check
// its fields.
//
// Models: one format-specific parser per trace format turns a content line (not blank, not a
// comment) into a TraceRecord in the trace's own clock, or says the line is not a request of
// interest (nullopt), or throws TraceLineError saying what is wrong.  File handling, line
// numbers, time scaling, stream numbering and skip_bad live in TraceLineSource/TraceWorkload.
// Leaves out: everything about files; parsers see one line at a time.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "traces/workload.h"

namespace ssdvp::workload {

struct TraceRecord {
  uint64_t time_ns = 0;  // trace clock, nanoseconds (absolute; the reader rebases it)
  Op op = Op::Read;
  uint64_t offset = 0;      // bytes (0 for Flush)
  uint32_t length = 0;      // bytes (0 for Flush)
  std::string_view device;  // device column as written (empty if the format has none)
  std::string_view pid;     // process column as written (empty if the format has none)
};

// A malformed line; what() says what is wrong without the path, line number or line text.
class TraceLineError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct TraceParserOptions {
  char action = 'D';  // blkparse formats: the event action whose lines become requests
  std::string device;  // device= / volume=: only requests whose device column is this ("": all)
  // time_unit=: "s", "ms", "us" or "ns", the unit of a time column whose writers disagree on it
  // (the vscsi CSV); "": the format's own unit.
  std::string time_unit;
};

// The decimal shift of time_field_ns for a time_unit= value (s 9, ms 6, us 3, ns 0), or
// nullopt for any other text.
std::optional<unsigned> time_unit_decimal_shift(std::string_view unit);

class TraceLineParser {
 public:
  virtual ~TraceLineParser() = default;
  // The request on `line`, or nullopt for a line that is valid but carries no request of
  // interest.  The record's views point into `line`.  Throws TraceLineError.
  virtual std::optional<TraceRecord> parse(std::string_view line) = 0;
};

// Field checks for parsers; each throws TraceLineError naming the field (`name`).
void expect_field_count(const std::vector<std::string_view>& fields, size_t count,
                        const char* layout);
void expect_min_field_count(const std::vector<std::string_view>& fields, size_t count,
                            const char* layout);
uint64_t unsigned_field(std::string_view field, const char* name);
// A non-negative decimal time converted to nanoseconds; `decimal_shift` is 9 for a field in
// seconds and 0 for a field in nanoseconds.
uint64_t time_field_ns(std::string_view field, unsigned decimal_shift, const char* name);
// Multiplies with overflow check (sector numbers and counts to bytes, 100 ns ticks to ns).
uint64_t scaled_field(uint64_t value, uint64_t factor, const char* name);
// A request length for `op`: > 0 for Read/Write/Trim, and below 4 GiB.
uint32_t request_length(Op op, uint64_t bytes);

}  // namespace ssdvp::workload
