// "Did you mean ...?": see nearest_name.h.
#include "traces/nearest_name.h"

#include <algorithm>
#include <cctype>

namespace ssdvp::workload {

namespace {

char fold(char c) { return char(std::tolower(static_cast<unsigned char>(c))); }

// Optimal-string-alignment distance: Levenshtein with a swap of two neighbours as one edit.
size_t edit_distance(std::string_view a, std::string_view b) {
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<size_t>> d(n + 1, std::vector<size_t>(m + 1));
  for (size_t i = 0; i <= n; i++) d[i][0] = i;
  for (size_t j = 0; j <= m; j++) d[0][j] = j;
  for (size_t i = 1; i <= n; i++)
    for (size_t j = 1; j <= m; j++) {
      const size_t cost = fold(a[i - 1]) == fold(b[j - 1]) ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && fold(a[i - 1]) == fold(b[j - 2]) && fold(a[i - 2]) == fold(b[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

bool contains_folded(std::string_view haystack, std::string_view needle) {
  return std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end(),
                     [](char x, char y) { return fold(x) == fold(y); }) != haystack.end();
}

}  // namespace

std::vector<std::string> nearest_names(std::string_view name, const std::vector<std::string>& candidates) {
  if (name.empty()) return {};
  // Within a third of the name's length (at least one edit, at most three): "iodeth" finds
  // "iodepth", "x" finds nothing in particular.
  const size_t limit = std::clamp<size_t>(name.size() / 3, 1, 3);
  std::vector<std::pair<size_t, std::string>> close;
  for (const std::string& c : candidates) {
    if (c.empty()) continue;
    size_t d = edit_distance(name, c);
    // A section dropped or added ("gc_policy" for "ftl.gc_policy"): as close as one edit.
    if (d > limit && name.size() >= 4 && (contains_folded(c, name) || contains_folded(name, c)) &&
        std::min(c.size(), name.size()) * 2 >= std::max(c.size(), name.size()))
      d = limit;
    if (d <= limit) close.emplace_back(d, c);
  }
  std::stable_sort(close.begin(), close.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (const auto& [d, c] : close) {
    if (out.size() == 3 || d > close.front().first) break;   // only the closest ones
    if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  }
  return out;
}

std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates) {
  const std::vector<std::string> near = nearest_names(name, candidates);
  if (near.empty()) return "";
  std::string text = "; did you mean ";
  for (size_t i = 0; i < near.size(); i++)
    text += (i == 0 ? "" : i + 1 == near.size() ? " or " : ", ") + ("'" + near[i] + "'");
  return text + "?";
}

}  // namespace ssdvp::workload
