#include "models/compute/compute_phase.hpp"

#include <string>

#include "sim/error.hpp"

namespace dcsim::models::compute {

namespace {
double checked(double f) {
  if (!(f > 0.0 && f <= 1.0)) {
    throw sim::ConfigError("clock_factor", "must satisfy 0 < f <= 1, got " + std::to_string(f));
  }
  return f;
}
}  // namespace

ComputePhase::ComputePhase(sim::Simulator& sim, double nominal_s, double clock_factor,
                           sim::Activity::OnComplete on_complete)
    : activity_(std::make_unique<sim::Activity>(sim, nominal_s, checked(clock_factor),
                                                std::move(on_complete))) {}

void ComputePhase::set_clock_factor(double f) { activity_->set_rate(checked(f)); }

}  // namespace dcsim::models::compute
