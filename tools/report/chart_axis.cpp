#include "tools/report/chart_axis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace dcsim::tools::report {

AxisTicks nice_ticks(double lo, double hi, int target) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) lo = hi = 0.0;
  if (hi < lo) std::swap(lo, hi);
  if (hi - lo <= 0) {
    // A flat line: a range of one unit of its own magnitude around it.
    const double pad = lo == 0 ? 1.0 : std::abs(lo) * 0.5;
    lo -= pad;
    hi += pad;
  }
  const double raw = (hi - lo) / std::max(1, target);
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude * 10;
  for (const double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (m * magnitude >= raw) {
      step = m * magnitude;
      break;
    }
  }
  AxisTicks t;
  t.step = step;
  t.lo = std::floor(lo / step + 1e-9) * step;
  t.hi = std::ceil(hi / step - 1e-9) * step;
  const auto count = static_cast<int>(std::lround((t.hi - t.lo) / step));
  for (int i = 0; i <= count; ++i) t.ticks.push_back(t.lo + i * step);
  return t;
}

std::string tick_text(double value, double step) {
  if (std::abs(value) < step * 1e-9) value = 0.0;  // -0 and rounding noise print as 0
  if (std::abs(value) >= 1e7 || (value != 0 && std::abs(value) < 1e-4))
    return fmt::format("{:.3g}", value);
  const int decimals = step >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
  // 2.5-steps need one more digit than their magnitude (0.25, not 0.3).
  const bool quarter = std::abs(step * std::pow(10.0, decimals) -
                                std::round(step * std::pow(10.0, decimals))) > 1e-6;
  return fmt::format("{:.{}f}", value, decimals + (quarter ? 1 : 0));
}

}  // namespace dcsim::tools::report
