#include <catch2/catch.hpp>

#include <set>

#include "sim/random.hpp"
#include "tests/tools/design/test_spaces.hpp"
#include "tools/design/search_space_ops.hpp"

namespace td = dcsim::tools::design;
using Kind = td::SearchVariable::Kind;

using dcsim::tools::design::testing::mixed_space;

TEST_CASE("the grid is enumerated by index, the last variable fastest, without storing it", "[tools][design]") {
  const auto s = mixed_space();
  REQUIRE(td::grid_size(s) == 36);
  CHECK(td::grid_point_at(s, 0) == td::SearchPoint{0, 2, 1});
  // Index 1 moves the last variable; a log grid of 3 points over 1..100 has 10 in the middle.
  CHECK(td::grid_point_at(s, 1)[2] == Approx(10.0).epsilon(1e-12));
  CHECK(td::grid_point_at(s, 3) == td::SearchPoint{0, 4, 1});
  CHECK(td::grid_point_at(s, 35) == td::SearchPoint{2, 8, 100});
  std::set<std::string> keys;
  for (std::size_t i = 0; i < 36; ++i) {
    CHECK(td::is_valid(s, td::grid_point_at(s, i)));
    keys.insert(td::point_key(td::grid_point_at(s, i)));
  }
  CHECK(keys.size() == 36);
}

TEST_CASE("an integer range keeps its top value and a huge grid saturates instead of overflowing", "[tools][design]") {
  td::SearchSpace s;
  s.variables.push_back({"x", Kind::kInteger, 0, 1.0, 64.0, 1.0});
  CHECK(td::grid_size(s) == 64);
  for (int i = 0; i < 12; ++i) s.variables.push_back({"y", Kind::kInteger, 0, 1.0, 100'000.0, 1.0});
  CHECK(td::grid_size(s) == std::numeric_limits<std::size_t>::max());
  td::SearchSpace c;
  c.variables.push_back({"free", Kind::kContinuous, 0, 0.0, 1.0});
  CHECK(td::grid_size(c) == 0);  // no grid_points: no grid
}

TEST_CASE("rounding gives the nearest valid value and is idempotent", "[tools][design]") {
  const auto s = mixed_space();
  CHECK(td::round_to_valid(s.variables[0], 1.4) == 1.0);
  CHECK(td::round_to_valid(s.variables[0], 7.0) == 2.0);
  CHECK(td::round_to_valid(s.variables[1], 4.9) == 4.0);
  CHECK(td::round_to_valid(s.variables[1], 5.1) == 6.0);
  CHECK(td::round_to_valid(s.variables[1], 100.0) == 8.0);
  // In log space 30 is nearer 10 than 100 (log10 30 = 1.48 < 1.5).
  CHECK(td::round_to_valid(s.variables[2], 30.0) == Approx(10.0).epsilon(1e-12));
  CHECK(td::round_to_valid(s.variables[2], 40.0) == 100.0);
  const double ten = td::round_to_valid(s.variables[2], 30.0);
  CHECK(td::round_to_valid(s.variables[2], ten) == ten);
  CHECK_FALSE(td::is_valid(s, {0, 3, 1}));
  CHECK_FALSE(td::is_valid(s, {0, 2}));
}

TEST_CASE("encoding: one-hot for choices of more than two, [0, 1] (log where log_scale) otherwise", "[tools][design]") {
  const auto s = mixed_space();
  REQUIRE(td::encoded_dimensions(s) == 5);
  const auto u = td::encode(s, {2, 4, 10});
  CHECK(u[0] == 0.0);
  CHECK(u[2] == 1.0);
  CHECK(u[3] == Approx(1.0 / 3.0));  // (4 - 2) / (8 - 2)
  CHECK(u[4] == Approx(0.5));        // log 10 is half way from log 1 to log 100
  for (std::size_t i = 0; i < td::grid_size(s); ++i) {
    const auto p = td::grid_point_at(s, i);
    CHECK(td::decode(s, td::encode(s, p)) == p);
  }
  // Decoding an arbitrary point of the cube gives a valid point.
  CHECK(td::decode(s, {0.2, 0.7, 0.1, 0.9, 0.26}) == td::SearchPoint{1, 8, td::round_to_valid(s.variables[2], 10.0)});
}

TEST_CASE("samples are valid, seeded, and distinct draws exhaust a small discrete space", "[tools][design]") {
  const auto s = mixed_space();
  dcsim::sim::RandomStream a(7, "t"), b(7, "t");
  for (int i = 0; i < 200; ++i) {
    const auto p = td::sample_point(s, a);
    CHECK(td::is_valid(s, p));
    CHECK(p == td::sample_point(s, b));
  }
  std::set<std::string> seen;
  const auto first = td::sample_distinct(s, a, 30, seen);
  CHECK(first.size() == 30);
  CHECK(seen.size() == 30);
  // Only 6 points are left: all of them, once.
  const auto rest = td::sample_distinct(s, a, 100, seen);
  CHECK(rest.size() == 6);
  CHECK(seen.size() == 36);
  CHECK(td::sample_distinct(s, a, 10, seen).empty());
}
