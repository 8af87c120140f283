#pragma once
// Pareto dominance over outcomes whose objectives are all minimised (search_strategy.hpp), as
// NSGA-II defines it (Deb et al. 2002): a dominates b when a is no worse in every objective and
// better in at least one. Infeasible outcomes (or ones without objectives) are on no front.
// Used by the design runner for pareto.csv and by successive halving to promote candidates.
//
// Cost: O(M N^2) for N outcomes and M objectives (fast non-dominated sorting); crowding distance
// O(M N log N). Design searches hold thousands of outcomes, not millions.

#include <cstddef>
#include <limits>
#include <vector>

#include "tools/design/search_strategy.hpp"

namespace dcsim::tools::design {

inline constexpr std::size_t kNoRank = std::numeric_limits<std::size_t>::max();

bool dominates(const std::vector<double>& a, const std::vector<double>& b);

// Indices of the feasible outcomes no other feasible outcome dominates, ascending. Equal
// objective vectors do not dominate each other: both stay on the front.
std::vector<std::size_t> pareto_front(const std::vector<Outcome>& outcomes);

// Per outcome: 0 for the front, 1 for the front of what remains, ...; kNoRank when infeasible.
std::vector<std::size_t> pareto_ranks(const std::vector<Outcome>& outcomes);

// Crowding distance of each outcome within its rank (NSGA-II): per objective, the gap between
// its two neighbours over the rank's range, summed; the extremes of each objective get infinity
// (so a front's ends are always kept). 0 for infeasible outcomes and for objectives with no
// range.
std::vector<double> crowding_distances(const std::vector<Outcome>& outcomes, const std::vector<std::size_t>& ranks);

// Feasible outcomes best first: by rank, then larger crowding distance, then index (so ties
// break the same way every time). With one objective this is ascending objective value.
std::vector<std::size_t> order_by_rank_and_crowding(const std::vector<Outcome>& outcomes);

}  // namespace dcsim::tools::design
