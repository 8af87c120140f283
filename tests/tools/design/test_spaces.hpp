#pragma once
// A small mixed space the design tests share.

#include "tools/design/search_strategy.hpp"

namespace dcsim::tools::design::testing {

// 3 choices x integers 2, 4, 6, 8 x 3 continuous values on a log grid 1, 10, 100 = 36 points.
inline SearchSpace mixed_space() {
  SearchSpace s;
  s.variables.push_back({"fabric", SearchVariable::Kind::kChoice, 3});
  s.variables.push_back({"nodes", SearchVariable::Kind::kInteger, 0, 2.0, 8.0, 2.0});
  SearchVariable cap{"interval_s", SearchVariable::Kind::kContinuous, 0, 1.0, 100.0};
  cap.log_scale = true;
  cap.grid_points = 3;
  s.variables.push_back(cap);
  return s;
}

}  // namespace dcsim::tools::design::testing
