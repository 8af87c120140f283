#include "tools/design/pareto.hpp"

#include <algorithm>
#include <numeric>

namespace dcsim::tools::design {

namespace {

bool on_a_front(const Outcome& o) { return o.feasible && !o.objectives.empty(); }

}  // namespace

bool dominates(const std::vector<double>& a, const std::vector<double>& b) {
  bool better = false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] > b[i]) return false;
    better = better || a[i] < b[i];
  }
  return better;
}

std::vector<std::size_t> pareto_front(const std::vector<Outcome>& outcomes) {
  const auto ranks = pareto_ranks(outcomes);
  std::vector<std::size_t> front;
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    if (ranks[i] == 0) front.push_back(i);
  }
  return front;
}

std::vector<std::size_t> pareto_ranks(const std::vector<Outcome>& outcomes) {
  // Deb's fast non-dominated sort: count who dominates each, peel fronts off.
  const std::size_t n = outcomes.size();
  std::vector<std::size_t> ranks(n, kNoRank);
  std::vector<std::size_t> dominated_by(n, 0);
  std::vector<std::vector<std::size_t>> dominates_list(n);
  std::vector<std::size_t> current;
  for (std::size_t i = 0; i < n; ++i) {
    if (!on_a_front(outcomes[i])) continue;
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j || !on_a_front(outcomes[j])) continue;
      if (dominates(outcomes[i].objectives, outcomes[j].objectives)) {
        dominates_list[i].push_back(j);
      } else if (dominates(outcomes[j].objectives, outcomes[i].objectives)) {
        ++dominated_by[i];
      }
    }
    if (dominated_by[i] == 0) current.push_back(i);
  }
  for (std::size_t rank = 0; !current.empty(); ++rank) {
    std::vector<std::size_t> next;
    for (std::size_t i : current) {
      ranks[i] = rank;
      for (std::size_t j : dominates_list[i]) {
        if (--dominated_by[j] == 0) next.push_back(j);
      }
    }
    std::sort(next.begin(), next.end());
    current = std::move(next);
  }
  return ranks;
}

std::vector<double> crowding_distances(const std::vector<Outcome>& outcomes, const std::vector<std::size_t>& ranks) {
  const std::size_t n = outcomes.size();
  std::vector<double> distance(n, 0.0);
  std::size_t max_rank = 0;
  for (std::size_t r : ranks) {
    if (r != kNoRank) max_rank = std::max(max_rank, r + 1);
  }
  for (std::size_t rank = 0; rank < max_rank; ++rank) {
    std::vector<std::size_t> members;
    for (std::size_t i = 0; i < n; ++i) {
      if (ranks[i] == rank) members.push_back(i);
    }
    const std::size_t objectives = outcomes[members.front()].objectives.size();
    for (std::size_t m = 0; m < objectives; ++m) {
      auto by_m = members;
      std::stable_sort(by_m.begin(), by_m.end(), [&](std::size_t a, std::size_t b) {
        return outcomes[a].objectives[m] < outcomes[b].objectives[m];
      });
      const double lo = outcomes[by_m.front()].objectives[m];
      const double range = outcomes[by_m.back()].objectives[m] - lo;
      if (range <= 0.0) continue;
      distance[by_m.front()] = std::numeric_limits<double>::infinity();
      distance[by_m.back()] = std::numeric_limits<double>::infinity();
      for (std::size_t k = 1; k + 1 < by_m.size(); ++k) {
        distance[by_m[k]] += (outcomes[by_m[k + 1]].objectives[m] - outcomes[by_m[k - 1]].objectives[m]) / range;
      }
    }
  }
  return distance;
}

std::vector<std::size_t> order_by_rank_and_crowding(const std::vector<Outcome>& outcomes) {
  const auto ranks = pareto_ranks(outcomes);
  const auto crowding = crowding_distances(outcomes, ranks);
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    if (ranks[i] != kNoRank) order.push_back(i);
  }
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (ranks[a] != ranks[b]) return ranks[a] < ranks[b];
    if (crowding[a] != crowding[b]) return crowding[a] > crowding[b];
    return a < b;
  });
  return order;
}

}  // namespace dcsim::tools::design
