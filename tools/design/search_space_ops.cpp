#include "tools/design/search_space_ops.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "sim/error.hpp"

namespace dcsim::tools::design {

namespace {

using Kind = SearchVariable::Kind;

bool numeric(const SearchVariable& v) { return v.kind != Kind::kChoice; }

// Position of x in [low, high] as a fraction, in log space where log_scale.
double fraction_of(const SearchVariable& v, double x) {
  if (v.high <= v.low) return 0.0;
  if (v.log_scale) return (std::log(x) - std::log(v.low)) / (std::log(v.high) - std::log(v.low));
  return (x - v.low) / (v.high - v.low);
}

double value_at_fraction(const SearchVariable& v, double f) {
  f = std::clamp(f, 0.0, 1.0);
  if (v.log_scale) return std::exp(std::log(v.low) + f * (std::log(v.high) - std::log(v.low)));
  return v.low + f * (v.high - v.low);
}

// The k-th grid value; the ends are exact (low and high themselves), so that rounding is
// idempotent and the grid's corner points compare equal to hand-written ones.
double grid_value(const SearchVariable& v, std::size_t k) {
  const std::size_t n = grid_values(v);
  switch (v.kind) {
    case Kind::kChoice: return static_cast<double>(k);
    case Kind::kInteger: return v.low + static_cast<double>(k) * v.step;
    case Kind::kContinuous:
      if (k == 0 || n <= 1) return v.low;
      if (k + 1 == n) return v.high;
      return value_at_fraction(v, static_cast<double>(k) / static_cast<double>(n - 1));
  }
  return 0.0;
}

}  // namespace

std::size_t grid_values(const SearchVariable& v) {
  switch (v.kind) {
    case Kind::kChoice: return v.choices;
    case Kind::kInteger:
      // 1e-9: a range written as 1..64 step 1 must not lose its top value to 63.999999.
      return v.high < v.low ? 0 : static_cast<std::size_t>(std::floor((v.high - v.low) / v.step + 1e-9)) + 1;
    case Kind::kContinuous: return v.grid_points;
  }
  return 0;
}

std::size_t grid_size(const SearchSpace& space) {
  std::size_t size = 1;
  for (const auto& v : space.variables) {
    const std::size_t n = grid_values(v);
    if (n == 0) return 0;
    if (size > std::numeric_limits<std::size_t>::max() / n) return std::numeric_limits<std::size_t>::max();
    size *= n;
  }
  return size;
}

SearchPoint grid_point_at(const SearchSpace& space, std::size_t index) {
  SearchPoint p(space.variables.size());
  // Mixed radix, the last variable fastest.
  for (std::size_t i = space.variables.size(); i-- > 0;) {
    const std::size_t n = grid_values(space.variables[i]);
    p[i] = grid_value(space.variables[i], index % n);
    index /= n;
  }
  return p;
}

double round_to_valid(const SearchVariable& v, double x) {
  const std::size_t n = grid_values(v);
  if (v.kind == Kind::kContinuous && n == 0) return std::clamp(x, v.low, v.high);
  if (n == 0) throw sim::InternalError("variable '" + v.name + "' has no values (this is a bug)");
  double k = 0.0;
  if (v.kind == Kind::kChoice) {
    k = std::round(x);
  } else if (v.kind == Kind::kInteger) {
    k = std::round((std::clamp(x, v.low, v.high) - v.low) / v.step);
  } else {
    k = std::round(fraction_of(v, std::clamp(x, v.low, v.high)) * static_cast<double>(n - 1));
  }
  return grid_value(v, static_cast<std::size_t>(std::clamp(k, 0.0, static_cast<double>(n - 1))));
}

SearchPoint round_to_valid(const SearchSpace& space, SearchPoint p) {
  for (std::size_t i = 0; i < space.variables.size(); ++i) p[i] = round_to_valid(space.variables[i], p[i]);
  return p;
}

bool is_valid(const SearchSpace& space, const SearchPoint& p) {
  if (p.size() != space.variables.size()) return false;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (!std::isfinite(p[i]) || round_to_valid(space.variables[i], p[i]) != p[i]) return false;
  }
  return true;
}

SearchPoint sample_point(const SearchSpace& space, sim::RandomStream& rng) {
  SearchPoint p(space.variables.size());
  for (std::size_t i = 0; i < p.size(); ++i) {
    const SearchVariable& v = space.variables[i];
    if (numeric(v) && v.log_scale) {
      p[i] = round_to_valid(v, std::exp(rng.uniform(std::log(v.low), std::log(v.high))));
    } else if (v.kind == Kind::kContinuous && v.grid_points == 0) {
      p[i] = rng.uniform(v.low, v.high);
    } else {
      p[i] = grid_value(v, static_cast<std::size_t>(rng.uniform_int(grid_values(v))));
    }
  }
  return p;
}

std::size_t encoded_dimensions(const SearchSpace& space) {
  std::size_t d = 0;
  for (const auto& v : space.variables) d += v.kind == Kind::kChoice && v.choices > 2 ? v.choices : 1;
  return d;
}

std::vector<double> encode(const SearchSpace& space, const SearchPoint& p) {
  std::vector<double> u;
  u.reserve(encoded_dimensions(space));
  for (std::size_t i = 0; i < space.variables.size(); ++i) {
    const SearchVariable& v = space.variables[i];
    if (v.kind == Kind::kChoice && v.choices > 2) {
      for (std::size_t c = 0; c < v.choices; ++c) u.push_back(static_cast<double>(c) == p[i] ? 1.0 : 0.0);
    } else if (v.kind == Kind::kChoice) {
      u.push_back(p[i]);  // 0 or 1
    } else {
      u.push_back(fraction_of(v, p[i]));
    }
  }
  return u;
}

SearchPoint decode(const SearchSpace& space, const std::vector<double>& u) {
  SearchPoint p(space.variables.size());
  std::size_t at = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const SearchVariable& v = space.variables[i];
    if (v.kind == Kind::kChoice && v.choices > 2) {
      const auto first = u.begin() + static_cast<std::ptrdiff_t>(at);
      p[i] = static_cast<double>(std::max_element(first, first + static_cast<std::ptrdiff_t>(v.choices)) - first);
      at += v.choices;
    } else if (v.kind == Kind::kChoice) {
      p[i] = round_to_valid(v, u[at++]);
    } else {
      p[i] = round_to_valid(v, value_at_fraction(v, u[at++]));
    }
  }
  return p;
}

std::vector<SearchPoint> sample_distinct(const SearchSpace& space, sim::RandomStream& rng, std::size_t count,
                                         std::set<std::string>& seen) {
  std::vector<SearchPoint> out;
  const std::size_t size = grid_size(space);
  const bool discrete = std::all_of(space.variables.begin(), space.variables.end(), [](const SearchVariable& v) {
    return v.kind != Kind::kContinuous || v.grid_points > 0;
  });
  if (discrete && size <= (std::size_t{1} << 16) && size <= count + seen.size()) {
    for (std::size_t i = 0; i < size; ++i) {
      SearchPoint p = grid_point_at(space, i);
      if (seen.insert(point_key(p)).second) out.push_back(std::move(p));
    }
    // Fisher-Yates with the stream, so the order is the seed's.
    for (std::size_t i = out.size(); i > 1; --i) std::swap(out[i - 1], out[rng.uniform_int(i)]);
    for (std::size_t i = count; i < out.size(); ++i) seen.erase(point_key(out[i]));  // not proposed after all
    if (out.size() > count) out.resize(count);
    return out;
  }
  for (std::size_t draws = 0; out.size() < count && draws < 100 * count + 1000; ++draws) {
    SearchPoint p = sample_point(space, rng);
    if (seen.insert(point_key(p)).second) out.push_back(std::move(p));
  }
  return out;
}

std::string point_key(const SearchPoint& p) {
  std::string key;
  for (double x : p) key += fmt::format("{};", x);
  return key;
}

}  // namespace dcsim::tools::design
