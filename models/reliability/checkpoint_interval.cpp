#include "models/reliability/checkpoint_interval.hpp"

#include <cmath>
#include <string>

#include "sim/error.hpp"

namespace dcsim::models::reliability {

namespace {

void check(double c, double m) {
  if (!std::isfinite(c) || c <= 0) {
    throw sim::ConfigError("checkpoint_cost", "expected a positive checkpoint time, got " + std::to_string(c));
  }
  if (!std::isfinite(m) || m <= 0) {
    throw sim::ConfigError("mtbf", "expected a positive mean time between failures, got " + std::to_string(m));
  }
}

}  // namespace

double checkpoint_interval_young(double checkpoint_cost, double mtbf) {
  check(checkpoint_cost, mtbf);
  return std::sqrt(2.0 * checkpoint_cost * mtbf);
}

double checkpoint_interval_daly(double checkpoint_cost, double mtbf) {
  check(checkpoint_cost, mtbf);
  if (checkpoint_cost >= 2.0 * mtbf) return mtbf;
  const double x = checkpoint_cost / (2.0 * mtbf);
  return std::sqrt(2.0 * checkpoint_cost * mtbf) * (1.0 + std::sqrt(x) / 3.0 + x / 9.0) - checkpoint_cost;
}

}  // namespace dcsim::models::reliability
