#include "tools/scenario/did_you_mean.hpp"

#include <algorithm>
#include <cctype>
#include <limits>

namespace dcsim::tools::scenario {

namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Three rows of the dynamic-programming table: the swap looks two rows back.
  std::vector<std::size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1])) {
        current[j] = std::min(current[j], before[j - 2] + 1);
      }
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::optional<std::string> closest_name(std::string_view word, const std::vector<std::string>& candidates) {
  // Close enough to be a slip of the keyboard, not a different word: one edit in a short key
  // ("nodez"), up to three in a long one ("oversubscripton_ratio"); in a key of one or two
  // letters every edit makes another word, so only a difference of case.
  const std::size_t limit =
      word.size() < 3 ? 0 : std::max<std::size_t>(1, std::min<std::size_t>(3, word.size() / 4));
  std::size_t best = std::numeric_limits<std::size_t>::max();
  const std::string* found = nullptr;
  bool tie = false;
  // Equally near, a candidate of the word's length wins ("nodez": "nodes" before "node"): a
  // slip replaces a letter more often than it adds one.
  const auto rank = [&](const std::string& c) {
    return std::pair{edit_distance(word, c), c.size() == word.size() ? 0 : 1};
  };
  std::pair<std::size_t, int> best_rank{best, 1};
  for (const auto& c : candidates) {
    if (c == word) continue;  // the word itself is valid: nothing to suggest
    const auto r = rank(c);
    if (r < best_rank) {
      best_rank = r;
      found = &c;
      tie = false;
    } else if (r == best_rank && found != nullptr && *found != c) {
      tie = true;
    }
  }
  best = best_rank.first;
  if (found == nullptr || best > limit || tie) return std::nullopt;
  return *found;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  const auto name = closest_name(word, candidates);
  return name ? " did you mean '" + *name + "'?" : "";
}

}  // namespace dcsim::tools::scenario
