// Text-field helpers: see text_fields.h.
#include "traces/text_fields.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace ssdvp::workload {

namespace {

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

char lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// Multiplies by 10^power, or nullopt on overflow.
std::optional<uint64_t> times_power_of_ten(uint64_t value, unsigned power) {
  for (unsigned i = 0; i < power; ++i) {
    if (value > std::numeric_limits<uint64_t>::max() / 10) return std::nullopt;
    value *= 10;
  }
  return value;
}

}  // namespace

std::string_view trim(std::string_view text) {
  size_t begin = 0;
  while (begin < text.size() && is_blank(text[begin])) ++begin;
  size_t end = text.size();
  while (end > begin && is_blank(text[end - 1])) --end;
  return text.substr(begin, end - begin);
}

bool is_blank_or_comment(std::string_view line) {
  const std::string_view content = trim(line);
  return content.empty() || content.front() == '#';
}

void split_blanks(std::string_view line, std::vector<std::string_view>& fields) {
  fields.clear();
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_blank(line[i])) ++i;
    const size_t start = i;
    while (i < line.size() && !is_blank(line[i])) ++i;
    if (i > start) fields.push_back(line.substr(start, i - start));
  }
}

void split_on(std::string_view line, char separator, std::vector<std::string_view>& fields) {
  fields.clear();
  size_t start = 0;
  while (true) {
    const size_t end = line.find(separator, start);
    if (end == std::string_view::npos) {
      fields.push_back(trim(line.substr(start)));
      return;
    }
    fields.push_back(trim(line.substr(start, end - start)));
    start = end + 1;
  }
}

std::string printable(std::string_view text) {
  static const char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  auto cont = [&](size_t i, unsigned lo = 0x80, unsigned hi = 0xBF) {
    return i < text.size() && uint8_t(text[i]) >= lo && uint8_t(text[i]) <= hi;
  };
  for (size_t i = 0; i < text.size();) {
    const uint8_t c = uint8_t(text[i]);
    size_t len = 0;   // length of a valid UTF-8 sequence starting here (0: none)
    if (c >= 0x20 && c < 0x7F) len = 1;
    else if (c >= 0xC2 && c <= 0xDF) len = cont(i + 1) ? 2 : 0;
    else if (c == 0xE0) len = cont(i + 1, 0xA0) && cont(i + 2) ? 3 : 0;
    else if (c == 0xED) len = cont(i + 1, 0x80, 0x9F) && cont(i + 2) ? 3 : 0;
    else if (c >= 0xE1 && c <= 0xEF) len = cont(i + 1) && cont(i + 2) ? 3 : 0;
    else if (c == 0xF0) len = cont(i + 1, 0x90) && cont(i + 2) && cont(i + 3) ? 4 : 0;
    else if (c >= 0xF1 && c <= 0xF3) len = cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : 0;
    else if (c == 0xF4) len = cont(i + 1, 0x80, 0x8F) && cont(i + 2) && cont(i + 3) ? 4 : 0;
    if (len) {
      out.append(text.substr(i, len));
      i += len;
    } else {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
      i++;
    }
  }
  return out;
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

std::optional<uint64_t> parse_unsigned(std::string_view text) {
  if (text.empty() || !is_digit(text.front())) return std::nullopt;
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<uint64_t> parse_scaled_decimal(std::string_view text, unsigned decimal_shift) {
  if (text.empty() || text.front() == '-' || text.front() == '+') return std::nullopt;
  if (text.find_first_of("eE") != std::string_view::npos) {
    const std::optional<double> value = parse_real(text);
    if (!value || *value < 0) return std::nullopt;
    const double scaled = std::round(*value * std::pow(10.0, decimal_shift));
    if (!(scaled < 18446744073709551616.0)) return std::nullopt;  // 2^64
    return static_cast<uint64_t>(scaled);
  }
  const size_t point = text.find('.');
  const std::string_view whole = text.substr(0, point);
  const std::string_view fraction =
      point == std::string_view::npos ? std::string_view() : text.substr(point + 1);
  if (whole.empty() && fraction.empty()) return std::nullopt;
  uint64_t result = 0;
  if (!whole.empty()) {
    const std::optional<uint64_t> units = parse_unsigned(whole);
    if (!units) return std::nullopt;
    const std::optional<uint64_t> shifted = times_power_of_ten(*units, decimal_shift);
    if (!shifted) return std::nullopt;
    result = *shifted;
  }
  // Digits of the fraction within the shift add exactly; the first digit beyond rounds.
  uint64_t fraction_value = 0;
  for (size_t i = 0; i < fraction.size(); ++i) {
    if (!is_digit(fraction[i])) return std::nullopt;
    if (i < decimal_shift) {
      fraction_value = fraction_value * 10 + static_cast<uint64_t>(fraction[i] - '0');
    } else if (i == decimal_shift && fraction[i] >= '5') {
      fraction_value += 1;
    }
  }
  const size_t used_digits = std::min<size_t>(fraction.size(), decimal_shift);
  const std::optional<uint64_t> fraction_units =
      times_power_of_ten(fraction_value, decimal_shift - static_cast<unsigned>(used_digits));
  if (!fraction_units || result > std::numeric_limits<uint64_t>::max() - *fraction_units) {
    return std::nullopt;
  }
  return result + *fraction_units;
}

std::optional<double> parse_real(std::string_view text) {
  if (text.empty()) return std::nullopt;
  // from_chars rejects a leading '+'; accept it as people write it ("+1e3").
  if (text.front() == '+') text.remove_prefix(1);
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

}  // namespace ssdvp::workload
