#include "models/power/gpu_power.hpp"

#include <algorithm>
#include <cmath>

namespace dcsim::models::power {

double gpu_power_w(const GpuPowerConfig& config, double utilization, double clock_factor) {
  if (clock_factor <= 0.0) return 0.0;
  const double u = std::clamp(utilization, 0.0, 1.0);
  const double f = std::min(clock_factor, 1.0);
  // At full clock f^k is exactly 1 (pow(1, k) == 1): skip the pow, which the facility pays for
  // every GPU of a node whose load changes.
  const double dvfs = f == 1.0 ? 1.0 : std::pow(f, config.dvfs_exponent);
  return config.idle_power_w + (config.max_power_w - config.idle_power_w) * u * dvfs;
}

double power_cap_clock_factor(const GpuPowerConfig& config, double utilization) {
  const double u = std::clamp(utilization, 0.0, 1.0);
  const double dynamic_max_w = (config.max_power_w - config.idle_power_w) * u;
  const double headroom_w = config.power_limit_w - config.idle_power_w;
  if (dynamic_max_w <= headroom_w || dynamic_max_w <= 0.0) return 1.0;
  // A limit at or below idle leaves no dynamic power: the slowest clock the model allows.
  if (headroom_w <= 0.0) return 1e-3;
  return std::pow(headroom_w / dynamic_max_w, 1.0 / config.dvfs_exponent);
}

}  // namespace dcsim::models::power
