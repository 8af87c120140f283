#pragma once
// Outdoor dry-bulb temperature over simulated time: constant, a daily sinusoid, or a series
// sampled at a fixed interval (read from CSV by tools/; the model takes the vector). A series is
// linearly interpolated and repeats when the run outlasts it.
//   sinusoid: T(t) = mean + amplitude * cos(2 pi (t - peak_time_of_day) / 1 day)

#include <vector>

#include "sim/time.hpp"

namespace dcsim::models::thermal {

struct OutdoorProfile {
  enum class Kind { kConstant, kSinusoid, kSeries };
  Kind kind = Kind::kConstant;
  double mean_c = 15.0;
  double amplitude_c = 0.0;
  double peak_hour = 15.0;          // hour of day of the maximum
  std::vector<double> series_c;
  sim::Time series_interval = sim::Time::from_s(3600);

  double temperature_c(sim::Time t) const;
};

}  // namespace dcsim::models::thermal
