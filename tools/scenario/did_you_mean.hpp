#pragma once
// "did you mean 'nodes'?" for a misspelt key or path: the closest of the valid names by edit
// distance (optimal string alignment: an insertion, a deletion, a substitution or a swap of two
// neighbours each cost 1), offered only when it is close enough to be the likely intent and no
// other name is as close.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dcsim::tools::scenario {

// Edits from `a` to `b` (letters compared without case, so "Nodes" is 0 edits from "nodes").
std::size_t edit_distance(std::string_view a, std::string_view b);

// The one candidate within max(1, min(3, size / 4)) edits of `word` (1 for words of 3 to 7
// characters, 2 up to 11, then 3; for one or two letters only a difference of case), nearer
// than every other (of two as near, the one as long as `word`); none when there is no such
// candidate or two are equally near. Cost O(candidates x |word| x |candidate|): messages only.
std::optional<std::string> closest_name(std::string_view word, const std::vector<std::string>& candidates);

// " did you mean 'nodes'?" (with its leading space), or "" when no candidate is close.
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace dcsim::tools::scenario
