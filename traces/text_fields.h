// Text-field helpers shared by the trace readers and the spec parsers.
//
// Models: splitting a line into fields and converting fields to exact integers (decimal
// fractions of a unit are converted to an integer count of a smaller unit without going
// through floating point, so nanosecond timestamps survive intact).
// Leaves out: locales, quoting (no trace format here quotes its fields).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ssdvp::workload {

// Removes leading and trailing blanks (spaces, tabs, CR, LF).
std::string_view trim(std::string_view text);

// true for lines a reader ignores in every format: blank, or starting with '#' after blanks.
bool is_blank_or_comment(std::string_view line);

// Replaces `fields` with the blank-separated fields of `line`.
void split_blanks(std::string_view line, std::vector<std::string_view>& fields);

// Replaces `fields` with the `separator`-separated fields of `line`, each trimmed.
void split_on(std::string_view line, char separator, std::vector<std::string_view>& fields);

bool equals_ignoring_case(std::string_view a, std::string_view b);

// A non-negative decimal integer (digits only), or nullopt (empty, sign, other characters,
// overflow).
std::optional<uint64_t> parse_unsigned(std::string_view text);

// A non-negative decimal number in some unit, converted to an integer count of a unit
// 10^decimal_shift times smaller, rounded to nearest: ("1.5", 9) -> 1500000000.  Plain decimals
// are converted exactly; exponent notation ("7.3e-05") goes through double.  nullopt for
// negative numbers, non-numbers and results that do not fit in 64 bits.
std::optional<uint64_t> parse_scaled_decimal(std::string_view text, unsigned decimal_shift);

// `text` made safe to quote in a message and in JSON: valid UTF-8 sequences are kept, other
// bytes and control characters become \xNN.
std::string printable(std::string_view text);

// A finite double (from_chars syntax), or nullopt.
std::optional<double> parse_real(std::string_view text);

}  // namespace ssdvp::workload
