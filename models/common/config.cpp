// Loading and checking configuration values against the schema.
#include "models/common/config.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "traces/nearest_name.h"

namespace ssdvp {

namespace {

// "WHERE: unknown configuration key 'KEY'; did you mean 'K'?" (WHERE: may be empty).
ConfigError unknown_key(const std::string& where, const std::string& key) {
  std::vector<std::string> keys;
  for (const auto& s : config_schema()) keys.push_back(s.key);
  return ConfigError((where.empty() ? "" : where + ": ") + "unknown configuration key '" + key + "'" +
                     workload::did_you_mean(key, keys));
}

std::string where_of(const toml::node& n, const std::string& path) {
  const auto& src = n.source();
  std::ostringstream s;
  s << path << ":" << src.begin.line;
  return s.str();
}

// Parses a value written as TOML (or a bare string) for the given spec.
ConfigValue parse_text(const KeySpec& spec, const std::string& text, const std::string& where) {
  auto fail = [&](const std::string& what) -> ConfigError {
    return ConfigError(where + ": " + spec.key + ": " + what + " (got '" + text + "')");
  };
  if (spec.type == KeyType::String) {
    std::string v = text;
    if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front())
      v = v.substr(1, v.size() - 2);
    return v;
  }
  toml::table t;
  try {
    t = toml::parse("v = " + text);
  } catch (const toml::parse_error&) {
    throw fail("not a valid value");
  }
  const toml::node* n = t.get("v");
  switch (spec.type) {
    case KeyType::Bool:
      if (auto b = n->value_exact<bool>()) return *b;
      throw fail("expected true or false");
    case KeyType::Int:
      if (auto i = n->value_exact<int64_t>()) return *i;
      throw fail("expected an integer");
    case KeyType::Double:
      if (auto d = n->value<double>()) return *d;
      throw fail("expected a number");
    case KeyType::DoubleList: {
      if (auto d = n->value<double>()) return std::vector<double>{*d};
      if (const auto* arr = n->as_array()) {
        std::vector<double> out;
        for (const auto& e : *arr) {
          auto d = e.value<double>();
          if (!d) throw fail("expected a list of numbers");
          out.push_back(*d);
        }
        return out;
      }
      throw fail("expected a number or a list of numbers");
    }
    default: break;
  }
  throw fail("unsupported type");
}

void flatten(const toml::table& t, const std::string& prefix, const std::string& path,
             std::vector<std::tuple<std::string, const toml::node*, std::string>>& out) {
  for (const auto& [k, v] : t) {
    std::string key = prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
    if (const auto* sub = v.as_table()) {
      flatten(*sub, key, path, out);
    } else {
      out.emplace_back(key, &v, where_of(v, path));
    }
  }
}

std::string node_text(const toml::node& n) {
  std::ostringstream s;
  if (auto str = n.value_exact<std::string>()) return *str;
  n.visit([&](const auto& x) { s << x; });
  return s.str();
}

std::string value_text(const ConfigValue& v) {
  std::ostringstream s;
  std::visit(
      [&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, bool>) s << (x ? "true" : "false");
        else if constexpr (std::is_same_v<T, std::string>) s << x;
        else if constexpr (std::is_same_v<T, std::vector<double>>) {
          s << "[";
          for (size_t i = 0; i < x.size(); i++) s << (i ? ", " : "") << x[i];
          s << "]";
        } else s << x;
      },
      v);
  return s.str();
}

}  // namespace

Config::Config() {
  for (const auto& spec : config_schema()) assign(spec, parse_text(spec, spec.def, "default"), "default");
}

const KeySpec& Config::spec_of(const std::string& key) const {
  for (const auto& s : config_schema())
    if (key == s.key) return s;
  throw unknown_key("", key);
}

void Config::assign(const KeySpec& spec, ConfigValue value, const std::string& where) {
  // The range in the key's own type: "1 .. 64" for an integer key, "0 .. 0.9" for a real one.
  auto number = [&](double x) {
    if (x >= 1e18) return std::string("inf");
    return spec.type == KeyType::Int ? fmt::format("{}", int64_t(x)) : fmt::format("{}", x);
  };
  auto range_error = [&](double v) {
    return ConfigError(where + ": " + spec.key + " = " + number(v) + " is outside " + number(spec.min) + " .. " +
                       number(spec.max));
  };
  if (auto* i = std::get_if<int64_t>(&value)) {
    if (*i < spec.min || *i > spec.max) throw range_error(static_cast<double>(*i));
  } else if (auto* d = std::get_if<double>(&value)) {
    if (!std::isfinite(*d) || *d < spec.min || *d > spec.max) throw range_error(*d);
  } else if (auto* l = std::get_if<std::vector<double>>(&value)) {
    if (l->empty()) throw ConfigError(where + ": " + spec.key + " is an empty list");
    for (double d : *l)
      if (!std::isfinite(d) || d < spec.min || d > spec.max) throw range_error(d);
  } else if (auto* str = std::get_if<std::string>(&value)) {
    if (spec.choices) {
      std::string choices = spec.choices;
      std::vector<std::string> names;
      size_t start = 0;
      while (start <= choices.size()) {
        size_t bar = choices.find('|', start);
        if (bar == std::string::npos) bar = choices.size();
        names.push_back(choices.substr(start, bar - start));
        start = bar + 1;
      }
      if (std::find(names.begin(), names.end(), *str) == names.end())
        throw ConfigError(where + ": " + spec.key + " = \"" + *str + "\" is not one of " + choices +
                          workload::did_you_mean(*str, names));
    }
  }
  values_[spec.key] = std::move(value);
  origins_[spec.key] = where;
}

void Config::set(const std::string& key, const std::string& text, const std::string& where) {
  const KeySpec* spec = nullptr;
  for (const auto& s : config_schema())
    if (key == s.key) spec = &s;
  if (!spec) throw unknown_key(where, key);
  assign(*spec, parse_text(*spec, text, where), where);
}

namespace {

// Sets every value of a parsed TOML file (`path` for messages), then each override.
void apply(Config& c, const toml::table* t, const std::string& path, const std::vector<std::string>& overrides) {
  if (t) {
    std::vector<std::tuple<std::string, const toml::node*, std::string>> flat;
    flatten(*t, "", path, flat);
    for (const auto& [key, node, where] : flat) {
      const KeySpec* spec = nullptr;
      for (const auto& s : config_schema())
        if (key == s.key) spec = &s;
      if (!spec) throw unknown_key(where, key);
      std::string text;
      if (spec->type != KeyType::String && node->is_string()) {
        const char* want = spec->type == KeyType::Bool ? "true or false"
                           : spec->type == KeyType::Int ? "an integer" : "a number";
        throw ConfigError(where + ": " + key + ": expected " + want + ", not a string");
      }
      if (spec->type == KeyType::String) {
        auto str = node->value_exact<std::string>();
        if (!str) throw ConfigError(where + ": " + key + ": expected a string");
        text = *str;
      } else if (const auto* arr = node->as_array()) {
        std::ostringstream s;
        s << *arr;
        text = s.str();
      } else {
        text = node_text(*node);
      }
      c.set(key, text, where);
    }
  }
  for (const auto& o : overrides) {
    auto eq = o.find('=');
    if (eq == std::string::npos || eq == 0)
      throw ConfigError("--set " + o + ": expected key=value");
    c.set(o.substr(0, eq), o.substr(eq + 1), "--set " + o.substr(0, eq));
  }
}

ConfigError parse_error(const std::string& path, const toml::parse_error& e) {
  std::ostringstream s;
  s << path << ":" << e.source().begin.line << ": " << e.description();
  return ConfigError(s.str());
}

}  // namespace

Config Config::load(const std::string& path, const std::vector<std::string>& overrides) {
  Config c;
  toml::table t;
  if (!path.empty()) {
    try {
      t = toml::parse_file(path);
    } catch (const toml::parse_error& e) {
      throw parse_error(path, e);
    }
  }
  apply(c, path.empty() ? nullptr : &t, path, overrides);
  c.settle();
  return c;
}

Config Config::load_text(std::string_view toml, const std::string& source,
                         const std::vector<std::string>& overrides) {
  Config c;
  toml::table t;
  try {
    t = toml::parse(toml, source);
  } catch (const toml::parse_error& e) {
    throw parse_error(source, e);
  }
  apply(c, &t, source, overrides);
  c.settle();
  return c;
}

bool Config::get_bool(const std::string& key) const { return std::get<bool>(values_.at(spec_of(key).key)); }
int64_t Config::get_int(const std::string& key) const { return std::get<int64_t>(values_.at(spec_of(key).key)); }
double Config::get_double(const std::string& key) const { return std::get<double>(values_.at(spec_of(key).key)); }
const std::string& Config::get_string(const std::string& key) const {
  return std::get<std::string>(values_.at(spec_of(key).key));
}
std::vector<double> Config::get_list(const std::string& key) const {
  return std::get<std::vector<double>>(values_.at(spec_of(key).key));
}
const std::string& Config::origin(const std::string& key) const { return origins_.at(spec_of(key).key); }

std::string Config::text(const std::string& key) const { return value_text(values_.at(spec_of(key).key)); }

void Config::settle() {
  std::string errors = apply_needs();
  const std::string ineffective = ineffective_keys();
  if (!ineffective.empty()) errors += (errors.empty() ? "" : "\n  ") + ineffective;
  if (!errors.empty()) throw ConfigError(errors);
}

void Config::check_effective() const {
  const std::string errors = ineffective_keys();
  if (!errors.empty()) throw ConfigError(errors);
}

std::string Config::ineffective_keys() const {
  std::string errors;
  for (const auto& spec : config_schema()) {
    if (!spec.only_with || origin(spec.key) == "default") continue;
    const std::string rule = spec.only_with;
    const size_t eq = rule.find('=');
    const std::string other = rule.substr(0, eq), wanted = rule.substr(eq + 1);
    const std::string value = text(other);
    bool effective = false;
    for (size_t at = 0; at <= wanted.size();) {
      const size_t bar = std::min(wanted.find('|', at), wanted.size());
      effective = effective || wanted.compare(at, bar - at, value) == 0;
      at = bar + 1;
    }
    if (effective) continue;
    std::string choices = wanted;
    for (char& ch : choices)
      if (ch == '|') ch = '/';
    errors += std::string(errors.empty() ? "" : "\n  ") + origin(spec.key) + ": " + spec.key + " has no effect with " +
              other + " = " + value + " (" + origin(other) + "); it applies only with " + other + " = " + choices;
  }
  return errors;
}

std::vector<std::string> Config::test_aids_on() const {
  std::vector<std::string> on;
  for (const auto& spec : config_schema())
    if (spec.role == KeyRole::TestAid && value_text(values_.at(spec.key)) != value_text(parse_text(spec, spec.def, "default")))
      on.push_back(std::string(spec.key) + " = " + value_text(values_.at(spec.key)));
  return on;
}

std::map<std::string, std::string> Config::echo() const {
  std::map<std::string, std::string> out;
  for (const auto& [k, v] : values_) out[k] = value_text(v);
  return out;
}

}  // namespace ssdvp
