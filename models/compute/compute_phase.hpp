#pragma once
// ComputePhase: a stretch of GPU work as an engine Activity whose rate is the SM clock factor.
//
// Work is the phase's duration at nominal clock, in seconds; the rate is the clock factor f
// (0 < f <= 1: 1 = nominal, 0.5 = half clock). A phase of W seconds at constant f takes W / f;
// when the clock changes mid-phase (thermal or power throttling), set_clock_factor() advances the
// work done so far at the old rate and finishes the rest at the new one, so the remaining part is
// stretched by exactly the clock ratio. The whole phase is treated as compute-bound, which is
// the conservative reading for tensor-core phases (see ComputeModel for the memory-bound split).

#include <memory>

#include "sim/activity.hpp"

namespace dcsim::models::compute {

class ComputePhase {
 public:
  ComputePhase(sim::Simulator& sim, double nominal_s, double clock_factor,
               sim::Activity::OnComplete on_complete);
  // Throws sim::ConfigError("clock_factor", ...) outside (0, 1].
  void set_clock_factor(double f);
  const sim::Activity& activity() const { return *activity_; }

 private:
  std::unique_ptr<sim::Activity> activity_;
};

}  // namespace dcsim::models::compute
