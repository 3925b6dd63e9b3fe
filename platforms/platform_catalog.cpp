// The shipped platforms: see platform_catalog.h.
#include "platforms/platform_catalog.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "models/common/config.h"
#include "traces/nearest_name.h"

namespace ssdvp {

namespace {

namespace fs = std::filesystem;

// The first sentence of the file's leading '#' comment block, one line, at most ~100 characters.
std::string header_summary(const std::string& path) {
  std::ifstream in(path);
  std::string line, text;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] != '#') break;
    const size_t start = line.find_first_not_of("# ");
    if (start == std::string::npos) continue;
    text += (text.empty() ? "" : " ") + line.substr(start);
    const size_t stop = text.find(". ");
    if (stop != std::string::npos || text.size() > 100) break;
  }
  const size_t stop = text.find(". ");
  if (stop != std::string::npos) text = text.substr(0, stop);
  if (!text.empty() && text.back() == '.') text.pop_back();
  if (text.size() > 100) {
    const size_t space = text.rfind(' ', 97);
    text = text.substr(0, space == std::string::npos ? 97 : space);
    while (!text.empty() && (text.back() == ',' || text.back() == ':')) text.pop_back();
    text += "...";
  }
  return text;
}

}  // namespace

std::vector<PlatformEntry> shipped_platforms(const std::string& dir) {
  std::vector<PlatformEntry> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".toml") continue;
    out.push_back({entry.path().stem().string(), entry.path().string(), header_summary(entry.path().string())});
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

std::string resolve_platform(const std::string& arg, const std::string& dir) {
  if (arg.empty()) return arg;
  std::error_code ec;
  if (fs::is_regular_file(arg, ec)) return arg;
  const std::vector<PlatformEntry> shipped = shipped_platforms(dir);
  std::string name = arg;
  if (name.size() > 5 && name.compare(name.size() - 5, 5, ".toml") == 0) name.resize(name.size() - 5);
  const bool bare = arg.find('/') == std::string::npos;
  std::vector<std::string> names;
  for (const PlatformEntry& p : shipped) {
    if (bare && p.name == name) return p.path;
    names.push_back(p.name);
  }
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
  if (fs::exists(arg, ec)) throw ConfigError("-p " + arg + ": not a platform file (a TOML file or a shipped platform's name)");
  if (!bare) throw ConfigError("-p " + arg + ": no such file");
  throw ConfigError("-p " + arg + ": no such file and no shipped platform of that name" +
                    workload::did_you_mean(name, names) + " (shipped: " + list + "; `ssdvp platforms` describes them)");
}

std::string platform_listing(const std::string& dir) {
  const std::vector<PlatformEntry> shipped = shipped_platforms(dir);
  size_t width = 0;
  for (const PlatformEntry& p : shipped) width = std::max(width, p.name.size());
  std::string out;
  for (const PlatformEntry& p : shipped)
    out += p.name + std::string(width + 2 - p.name.size(), ' ') + p.summary + "\n";
  if (shipped.empty()) out = "no platform files in " + dir + "\n";
  else out += "\n" + std::to_string(shipped.size()) + " platforms in " + dir + "; run one with: ssdvp run -p NAME\n";
  return out;
}

}  // namespace ssdvp
