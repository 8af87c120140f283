#pragma once
// Axis ranges and tick marks at "nice" numbers (1, 2, 2.5, 5 x 10^k), shared by the SVG charts.

#include <string>
#include <vector>

namespace dcsim::tools::report {

struct AxisTicks {
  double lo = 0.0;  // the axis range, widened to whole ticks
  double hi = 1.0;
  double step = 1.0;
  std::vector<double> ticks;  // lo, lo + step, ..., hi
};

// About `target` ticks covering [lo, hi]; an empty or non-finite range becomes a unit range
// around its value.
AxisTicks nice_ticks(double lo, double hi, int target = 5);

// A tick value with as many decimals as the step needs ("0.25", "1500", "2e+09" for huge ones).
std::string tick_text(double value, double step);

}  // namespace dcsim::tools::report
