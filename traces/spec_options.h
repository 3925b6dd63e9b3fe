// The key=value list of a workload spec ("fio:rw=randread,bs=4k,..."), with typed access.
//
// Models: parsing and validating option lists; every error names the whole spec and the
// offending key, as "workload 'SPEC': KEY=VALUE: what is wrong".
// Leaves out: quoting (values cannot contain ','), repeated keys (an error).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ssdvp::workload {

class SpecOptions {
 public:
  // `spec` is the full spec (for messages); its comma-separated key=value list starts at
  // `list_start` and runs to the end.  Keys not in `known_keys`, repeated keys and items
  // without '=' are errors, but for the keys of `bare_flags`, which alone mean KEY=1 (fio's
  // time_based).
  SpecOptions(std::string spec, size_t list_start,
              std::initializer_list<std::string_view> known_keys,
              std::initializer_list<std::string_view> bare_flags = {});

  const std::string& spec() const { return spec_; }
  bool has(std::string_view key) const;
  // Raw value of `key`, or nullopt when absent.
  std::optional<std::string_view> text(std::string_view key) const;

  // Unsigned integer, no suffix.
  uint64_t count(std::string_view key, uint64_t fallback) const;
  // Byte size: integer with an optional binary suffix k, m, g or t (4k = 4096).
  uint64_t bytes(std::string_view key, uint64_t fallback) const;
  // Byte size as above, or "NN%" of `whole` rounded down to a multiple of `unit` (NN may
  // have decimals, 0 < NN <= 100).
  uint64_t bytes_or_percent(std::string_view key, uint64_t fallback, uint64_t whole,
                            uint64_t unit) const;
  double real(std::string_view key, double fallback) const;
  // A duration as fio writes one, in ns: a number with an optional unit ns, us, ms, s, m, h (also
  // usec, msec, sec, min); without one, in `default_unit_ns` (fio: runtime in s, thinktime in us).
  uint64_t duration_ns(std::string_view key, uint64_t fallback, uint64_t default_unit_ns) const;
  // 0 or 1.
  bool flag(std::string_view key, bool fallback) const;

  // Throws WorkloadError "workload 'SPEC': what".
  [[noreturn]] void fail(const std::string& what) const;
  // Throws WorkloadError "workload 'SPEC': KEY=VALUE: what" (the value as given), or
  // "workload 'SPEC': KEY (default): what" when the key is absent and its default is at fault.
  [[noreturn]] void fail(std::string_view key, const std::string& what) const;

 private:
  std::string spec_;
  std::vector<std::pair<std::string_view, std::string_view>> items_;  // views into spec_
};

// "4k" -> 4096; nullopt when `text` is not a byte size (see SpecOptions::bytes).
std::optional<uint64_t> parse_byte_size(std::string_view text);

}  // namespace ssdvp::workload
