#include "tools/report/unit_scale.hpp"

#include <array>
#include <cmath>

namespace dcsim::tools::report {

UnitScale scale_for(const std::string& unit, double max_abs) {
  // SI prefixes for units that take them; money and counts get k / M / G as words.
  const bool si = unit == "W" || unit == "B" || unit == "bit/s" || unit == "J" || unit == "Wh";
  const bool counted = unit == "USD" || unit == "tokens/s" || unit == "token" || unit == "flows";
  if (!si && !counted) return {1.0, unit};
  constexpr std::array<const char*, 4> kPrefix = {"", "k", "M", "G"};
  std::size_t level = 0;
  double divisor = 1.0;
  while (level + 1 < kPrefix.size() && std::isfinite(max_abs) && max_abs >= divisor * 1000) {
    divisor *= 1000;
    ++level;
  }
  if (level == 0) return {1.0, unit};
  if (unit == "bit/s") return {divisor, std::string(kPrefix[level]) + "b/s"};
  return {divisor, std::string(kPrefix[level]) + (si ? "" : " ") + unit};
}

}  // namespace dcsim::tools::report
