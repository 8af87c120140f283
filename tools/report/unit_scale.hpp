#pragma once
// A series' unit scaled for an axis a person reads: 21,103,600 W is "21.1" on an axis in MW.

#include <string>

namespace dcsim::tools::report {

struct UnitScale {
  double divisor = 1.0;  // plotted value = value / divisor
  std::string unit;      // the axis label's unit: "MW", "k USD", "Gb/s"
};

// Scales W, B, bit/s, USD, tokens/s and J by powers of 1000 so that `max_abs` shows as 1 to 999;
// any other unit is left as it is.
UnitScale scale_for(const std::string& unit, double max_abs);

}  // namespace dcsim::tools::report
