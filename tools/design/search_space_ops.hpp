#pragma once
// What every strategy does with a SearchSpace (search_strategy.hpp): enumerate its grid by index,
// draw points from a seeded stream, and map points to and from the unit cube a surrogate models.
//
// The grid: a choice contributes its `choices` values, an integer its values low, low + step, ...
// <= high, a continuous variable `grid_points` evenly spaced values (in log space where
// log_scale) including both ends. Index order is mixed-radix with the first variable slowest, so
// a grid is never materialised: point_at is O(variables).
//
// Randomness comes from sim::RandomStream (xoshiro256**, the same numbers on every standard
// library); never std::*_distribution.

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "sim/random.hpp"
#include "tools/design/search_strategy.hpp"

namespace dcsim::tools::design {

// Values one variable takes on the grid (a continuous variable without grid_points: 0).
std::size_t grid_values(const SearchVariable& v);
// The number of grid points, saturating at SIZE_MAX (a product that overflows is "too many").
// 0 when a continuous variable has no grid_points.
std::size_t grid_size(const SearchSpace& space);
// The index-th grid point, 0 <= index < grid_size(space). O(variables).
SearchPoint grid_point_at(const SearchSpace& space, std::size_t index);

// Uniform over each variable's values: choices and linear integers uniform over their values;
// log_scale variables log-uniform on [low, high] then rounded (so a log integer's two end values
// get half the weight of the others); continuous variables anywhere in [low, high], or on their
// grid when grid_points > 0. O(variables).
SearchPoint sample_point(const SearchSpace& space, sim::RandomStream& rng);

// The value of variable v nearest to x: a choice index in [0, choices), an integer on its step
// grid, a continuous value clamped to [low, high] (on its grid when grid_points > 0, so that
// every strategy proposes points of the grid the runner reports against).
double round_to_valid(const SearchVariable& v, double x);
SearchPoint round_to_valid(const SearchSpace& space, SearchPoint p);
bool is_valid(const SearchSpace& space, const SearchPoint& p);

// Unit-cube encoding for surrogates: a choice of n > 2 values becomes n one-hot coordinates (no
// order is implied between "fat_tree" and "torus"); a choice of 2 one coordinate 0/1; integers and
// continuous values (x - low) / (high - low), in log space where log_scale. O(dimensions).
std::size_t encoded_dimensions(const SearchSpace& space);
std::vector<double> encode(const SearchSpace& space, const SearchPoint& p);
// Back to the nearest valid point (one-hot: the largest coordinate wins).
SearchPoint decode(const SearchSpace& space, const std::vector<double>& u);

// Up to `count` points whose keys are not in `seen`, drawn with sample_point (their keys are
// added to `seen`). A discrete space with no more than `count` unseen points (and at most 2^16
// points in all) gives all of them, shuffled; otherwise draws repeat until `count` new points or
// 100 x count + 1,000 draws, so a nearly exhausted space ends instead of looping.
std::vector<SearchPoint> sample_distinct(const SearchSpace& space, sim::RandomStream& rng, std::size_t count,
                                         std::set<std::string>& seen);

// A key that tells evaluated points apart (values printed exactly), for "never propose twice".
std::string point_key(const SearchPoint& p);

}  // namespace dcsim::tools::design
