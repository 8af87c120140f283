#include "models/thermal/outdoor_profile.hpp"

#include <cmath>
#include <numbers>

namespace dcsim::models::thermal {

double OutdoorProfile::temperature_c(sim::Time t) const {
  switch (kind) {
    case Kind::kConstant:
      return mean_c;
    case Kind::kSinusoid: {
      const double hours = t.seconds() / 3600.0;
      return mean_c + amplitude_c * std::cos(2.0 * std::numbers::pi * (hours - peak_hour) / 24.0);
    }
    case Kind::kSeries: {
      if (series_c.empty()) return mean_c;
      const double pos = t.seconds() / series_interval.seconds();
      const double n = static_cast<double>(series_c.size());
      const double wrapped = std::fmod(pos, n);
      const auto i = static_cast<std::size_t>(wrapped);
      const double frac = wrapped - static_cast<double>(i);
      const double a = series_c[i % series_c.size()];
      const double b = series_c[(i + 1) % series_c.size()];
      return a + frac * (b - a);
    }
  }
  return mean_c;
}

}  // namespace dcsim::models::thermal
