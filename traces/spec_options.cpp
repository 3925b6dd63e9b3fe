// Workload spec option lists: see spec_options.h.
#include "traces/spec_options.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

#include "traces/nearest_name.h"
#include "traces/text_fields.h"
#include "traces/workload.h"

namespace ssdvp::workload {

std::optional<uint64_t> parse_byte_size(std::string_view text) {
  // fio's suffixes: K, KB and KiB all 1024-based (fio's default kb_base=1024), any case.
  unsigned shift = 0;
  const std::string_view units = "kmgt";
  for (const std::string_view tail : {"ib", "b", ""}) {
    if (text.size() <= tail.size() + 1 || !equals_ignoring_case(text.substr(text.size() - tail.size()), tail)) continue;
    const size_t unit = units.find(char(std::tolower(static_cast<unsigned char>(text[text.size() - tail.size() - 1]))));
    if (unit == std::string_view::npos) continue;
    shift = 10 * unsigned(unit + 1);
    text.remove_suffix(tail.size() + 1);
    break;
  }
  const std::optional<uint64_t> value = parse_unsigned(text);
  if (!value || *value > (std::numeric_limits<uint64_t>::max() >> shift)) return std::nullopt;
  return *value << shift;
}

SpecOptions::SpecOptions(std::string spec, size_t list_start,
                         std::initializer_list<std::string_view> known_keys,
                         std::initializer_list<std::string_view> bare_flags)
    : spec_(std::move(spec)) {
  const std::string_view list = std::string_view(spec_).substr(std::min(list_start, spec_.size()));
  if (trim(list).empty()) return;
  std::vector<std::string_view> parts;
  split_on(list, ',', parts);
  for (const std::string_view part : parts) {
    const size_t equals = part.find('=');
    const bool bare = equals == std::string_view::npos &&
                      std::find(bare_flags.begin(), bare_flags.end(), part) != bare_flags.end();
    if (equals == std::string_view::npos && !bare) fail("'" + std::string(part) + "' is not key=value");
    const std::string_view key = bare ? part : trim(part.substr(0, equals));
    const std::string_view value = bare ? std::string_view("1") : trim(part.substr(equals + 1));
    if (std::find(known_keys.begin(), known_keys.end(), key) == known_keys.end()) {
      std::string known;
      std::vector<std::string> names;
      for (const std::string_view k : known_keys) {
        known += (known.empty() ? "" : ", ") + std::string(k);
        names.emplace_back(k);
      }
      fail("unknown option '" + std::string(key) + "'" + did_you_mean(key, names) + " (known: " + known + ")");
    }
    if (has(key)) fail("option '" + std::string(key) + "' given twice");
    items_.emplace_back(key, value);
  }
}

bool SpecOptions::has(std::string_view key) const {
  return text(key).has_value();
}

std::optional<std::string_view> SpecOptions::text(std::string_view key) const {
  for (const auto& [k, v] : items_) {
    if (k == key) return v;
  }
  return std::nullopt;
}

uint64_t SpecOptions::count(std::string_view key, uint64_t fallback) const {
  const std::optional<std::string_view> value = text(key);
  if (!value) return fallback;
  const std::optional<uint64_t> number = parse_unsigned(*value);
  if (!number) fail(key, "not a non-negative integer");
  return *number;
}

uint64_t SpecOptions::bytes(std::string_view key, uint64_t fallback) const {
  const std::optional<std::string_view> value = text(key);
  if (!value) return fallback;
  const std::optional<uint64_t> number = parse_byte_size(*value);
  if (!number) fail(key, "not a byte size (an integer with an optional suffix k, m, g or t; KiB, KB and K all mean 1024)");
  return *number;
}

uint64_t SpecOptions::bytes_or_percent(std::string_view key, uint64_t fallback, uint64_t whole,
                                       uint64_t unit) const {
  const std::optional<std::string_view> value = text(key);
  if (!value) return fallback;
  if (value->empty() || value->back() != '%') return bytes(key, fallback);
  const std::optional<double> percent = parse_real(value->substr(0, value->size() - 1));
  if (!percent || *percent <= 0 || *percent > 100) fail(key, "percentage must be in (0, 100]");
  if (whole == 0) fail(key, "a percentage needs the namespace capacity, which is not known");
  const auto share =
      static_cast<uint64_t>(std::floor(static_cast<long double>(whole) * *percent / 100));
  return share / unit * unit;
}

double SpecOptions::real(std::string_view key, double fallback) const {
  const std::optional<std::string_view> value = text(key);
  if (!value) return fallback;
  const std::optional<double> number = parse_real(*value);
  if (!number) fail(key, "not a number");
  return *number;
}

uint64_t SpecOptions::duration_ns(std::string_view key, uint64_t fallback, uint64_t default_unit_ns) const {
  const std::optional<std::string_view> value = text(key);
  if (!value) return fallback;
  struct Unit {
    std::string_view name;
    double ns;
  };
  static constexpr Unit kUnits[] = {{"ns", 1},      {"us", 1e3},     {"usec", 1e3}, {"ms", 1e6},   {"msec", 1e6},
                                    {"s", 1e9},     {"sec", 1e9},    {"m", 60e9},   {"min", 60e9}, {"h", 3600e9},
                                    {"hr", 3600e9}};
  const size_t digits = value->find_first_not_of("0123456789.");
  const std::string_view number = value->substr(0, digits);
  const std::string_view unit = digits == std::string_view::npos ? std::string_view() : value->substr(digits);
  double scale = double(default_unit_ns);
  if (!unit.empty()) {
    scale = 0;
    for (const Unit& u : kUnits)
      if (equals_ignoring_case(unit, u.name)) scale = u.ns;
  }
  const std::optional<double> amount = parse_real(number);
  if (!amount || scale == 0 || *amount * scale >= 1.8e19)
    fail(key, "not a duration (a number with an optional unit ns, us, ms, s, m or h)");
  return uint64_t(*amount * scale + 0.5);
}

bool SpecOptions::flag(std::string_view key, bool fallback) const {
  const std::optional<std::string_view> value = text(key);
  if (!value) return fallback;
  for (const char* no : {"0", "false", "no", "off"})
    if (equals_ignoring_case(*value, no)) return false;
  for (const char* yes : {"1", "true", "yes", "on"})
    if (equals_ignoring_case(*value, yes)) return true;
  fail(key, "must be 1, true, yes or on (set), or 0, false, no or off (not set)");
}

void SpecOptions::fail(const std::string& what) const {
  throw WorkloadError("workload '" + spec_ + "': " + what);
}

void SpecOptions::fail(std::string_view key, const std::string& what) const {
  const std::optional<std::string_view> value = text(key);
  fail(std::string(key) + (value ? "=" + std::string(*value) : std::string(" (default)")) + ": " +
       what);
}

}  // namespace ssdvp::workload
