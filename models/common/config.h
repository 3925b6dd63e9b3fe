// Platform configuration: every key the platform understands, its type, default, range and
// meaning (the schema in config_schema.cpp is the single source; docs/config.md is generated
// from it and a test keeps the two equal), loaded from TOML with --set overrides.
// Unknown keys, wrong types and values out of range are errors that name the key and, for
// file values, the file and line.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace ssdvp {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class KeyType { Bool, Int, Double, String, DoubleList };

// What a key is for.  A test aid builds a deliberately broken drive or checks the firmware's
// internals: a run refuses one that is not at its default unless it opts in
// (RunOptions::test_aids, `ssdvp run --test-aids`), says so on stderr and marks run.json.
enum class KeyRole { Setting, TestAid };

struct KeySpec {
  const char* key;        // dotted: "nand.channels"
  KeyType type;
  const char* def;        // default, written as it would be in TOML ("8", "\"tlm\"", "[60, 90]")
  double min, max;        // numeric range (inclusive); for lists, each element
  const char* choices;    // strings: "a|b|c", or nullptr for free text
  const char* doc;
  // The setting under which this key has an effect, "other.key=v1|v2" (nullptr: always).  A
  // key set (in a file or with --set) while the other key has another value is an error that
  // names both: a value the run would silently ignore.
  const char* only_with = nullptr;
  KeyRole role = KeyRole::Setting;
};

const std::vector<KeySpec>& config_schema();
// docs/config.md's text, generated from the schema.
std::string config_reference_markdown();
// Its section on what choices need of other keys (models/common/config_implied.cpp).
std::string config_needs_markdown();

using ConfigValue = std::variant<bool, int64_t, double, std::string, std::vector<double>>;

class Config {
 public:
  // Defaults only.
  Config();
  // Defaults, then the TOML file (if path is non-empty), then each "key=value" override.
  static Config load(const std::string& path, const std::vector<std::string>& overrides = {});
  // Defaults, then `toml` (the text of a platform file; `source` names it in messages, as a
  // path would), then the overrides.
  static Config load_text(std::string_view toml, const std::string& source,
                          const std::vector<std::string>& overrides = {});

  void set(const std::string& key, const std::string& text, const std::string& where);

  bool get_bool(const std::string& key) const;
  int64_t get_int(const std::string& key) const;
  double get_double(const std::string& key) const;
  const std::string& get_string(const std::string& key) const;
  // A DoubleList key; a scalar written for it reads as a list of one.
  std::vector<double> get_list(const std::string& key) const;

  // Where a key's value came from ("default", "file.toml:12", "--set").
  const std::string& origin(const std::string& key) const;
  // The value as TOML-like text without a string's quotes ("interrupt", "true", "2000").
  std::string text(const std::string& key) const;
  // Every key set (not at its default) that has no effect under the setting that overrides it
  // (KeySpec::only_with), all in one error naming each key, its origin and that setting.
  // load() and load_text() call it once the file and the overrides are in.
  void check_effective() const;
  // The values choices implied for keys left at their defaults (models/common/config_implied.cpp),
  // "key = value (the choice = its value (its origin))" each.
  const std::vector<std::string>& implied() const { return implied_; }
  // The test aids (KeyRole::TestAid) not at their default, "key = value" each.
  std::vector<std::string> test_aids_on() const;
  // Every key with its value, for the run's JSON (config echo), as TOML-like text values.
  std::map<std::string, std::string> echo() const;

 private:
  const KeySpec& spec_of(const std::string& key) const;
  void assign(const KeySpec& spec, ConfigValue value, const std::string& where);
  // Sets what the choices made need (config_implied.cpp); returns the conflicts, a line each.
  std::string apply_needs();
  // apply_needs, then every key without effect: one error with every problem.
  void settle();
  std::string ineffective_keys() const;
  std::vector<std::string> implied_;

  std::map<std::string, ConfigValue> values_;
  std::map<std::string, std::string> origins_;
};

}  // namespace ssdvp
