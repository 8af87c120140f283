#include <catch2/catch.hpp>

#include <cmath>

#include "tools/design/pareto.hpp"

namespace td = dcsim::tools::design;

namespace {

td::Outcome o(double a, double b) { return {{a, b}}; }

// Seven outcomes, both objectives minimised (e.g. $ per token and days to finish):
//   0 (1, 5)  1 (2, 3)  2 (4, 1)    the front: none is beaten in both
//   3 (3, 4)  beaten by 1 only; 4 (5, 2) beaten by 2 only -> rank 1
//   5 (6, 6)  beaten by everything -> rank 2
//   6 infeasible (0, 0) would dominate all, but is on no front
std::vector<td::Outcome> synthetic() {
  std::vector<td::Outcome> s = {o(1, 5), o(2, 3), o(4, 1), o(3, 4), o(5, 2), o(6, 6), o(0, 0)};
  s[6].feasible = false;
  s[6].violation = 0.5;
  return s;
}

}  // namespace

TEST_CASE("the Pareto front of a synthetic set worked out by hand", "[tools][design][pareto]") {
  const auto s = synthetic();
  CHECK(td::pareto_front(s) == std::vector<std::size_t>{0, 1, 2});
  CHECK(td::pareto_ranks(s) == std::vector<std::size_t>{0, 0, 0, 1, 1, 2, td::kNoRank});
  CHECK(td::dominates({1, 1}, {1, 2}));
  CHECK_FALSE(td::dominates({1, 2}, {1, 2}));  // equal vectors: neither dominates
}

TEST_CASE("crowding distance: the ends of each front are infinite, the middle sums normalised gaps",
          "[tools][design][pareto]") {
  const auto s = synthetic();
  const auto d = td::crowding_distances(s, td::pareto_ranks(s));
  CHECK(std::isinf(d[0]));
  CHECK(std::isinf(d[2]));
  // Point 1 (2, 3) between (1, 5) and (4, 1): (4 - 1) / (4 - 1) + (5 - 1) / (5 - 1) = 2.
  CHECK(d[1] == Approx(2.0));
  // Rank 1 has two members: both are ends. Rank 2 has one point with no range: 0.
  CHECK(std::isinf(d[3]));
  CHECK(std::isinf(d[4]));
  CHECK(d[5] == 0.0);
  CHECK(d[6] == 0.0);
  // Promotion order: the front's ends (by index), its middle, then rank 1, then rank 2; the
  // infeasible outcome never.
  CHECK(td::order_by_rank_and_crowding(s) == std::vector<std::size_t>{0, 2, 1, 3, 4, 5});
}

TEST_CASE("with one objective the promotion order is ascending value, ties by index", "[tools][design][pareto]") {
  std::vector<td::Outcome> s = {{{3.0}}, {{1.0}}, {{2.0}}, {{1.0}}, {{}, false, false, 1.0}};
  CHECK(td::order_by_rank_and_crowding(s) == std::vector<std::size_t>{1, 3, 2, 0});
}
