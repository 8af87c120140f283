#include "models/facility/cooling_control.hpp"

#include <algorithm>

namespace dcsim::models::facility {

namespace {

// Open loop: speed follows the heat load (a fan curve in a BMC table); blind to temperature.
class FixedCurve final : public CoolingControl {
 public:
  explicit FixedCurve(const sim::Params& p) : min_speed_(p.number("min_speed")) {}
  double speed(const CoolingControlInput& in) override {
    return std::clamp(min_speed_ + (1.0 - min_speed_) * in.heat_load_fraction, min_speed_, 1.0);
  }
  double initial_speed() const override { return min_speed_; }

 private:
  double min_speed_;
};

// Closed loop: a PI controller on the hottest GPU, with the integral clamped to the actuator's
// range (anti-windup), so a saturated pump does not keep winding up during a fault.
class PiTarget final : public CoolingControl {
 public:
  explicit PiTarget(const sim::Params& p)
      : min_speed_(p.number("min_speed")), gain_per_k_(p.number("gain_per_k")),
        integral_time_s_(p.number("integral_time")), integral_(min_speed_) {}
  double speed(const CoolingControlInput& in) override {
    const double error_k = in.max_gpu_c - in.target_gpu_c;
    // A decision period longer than the integral time would make the discrete integrator
    // overshoot (explicit in time): its weight is capped at one integral time per decision.
    const double weight = std::min(in.dt_s / integral_time_s_, 1.0);
    integral_ = std::clamp(integral_ + gain_per_k_ * error_k * weight, min_speed_, 1.0);
    return std::clamp(integral_ + gain_per_k_ * error_k, min_speed_, 1.0);
  }
  double initial_speed() const override { return min_speed_; }

 private:
  double min_speed_;
  double gain_per_k_;
  double integral_time_s_;
  double integral_;
};

const std::vector<sim::ParamSpec> kCommonParams = {
    // Pumps/fans below ~30% stall or lose head (assumption).
    {"min_speed", "", "0.3", "0 < x <= 1", "lowest pump/fan speed fraction"},
};

}  // namespace

void register_cooling_controls(sim::Registry<CoolingControlFactory>& registry) {
  registry.add({"fixed_curve", "pump/fan speed rises linearly with the zone's heat load, min_speed at idle",
                kCommonParams,
                [](const sim::Params& p) { return std::make_unique<FixedCurve>(p); }});
  auto pi_params = kCommonParams;
  // Gain and integral time are assumptions: a minutes-scale plant, speed moves 5% per K of error.
  pi_params.push_back({"gain_per_k", "", "0.05", "x > 0", "proportional gain, speed fraction per K"});
  pi_params.push_back({"integral_time", "duration", "\"120 s\"", "x > 0", "PI integral time"});
  registry.add({"pi_target",
                "PI controller on the zone's hottest GPU die, holding it at the zone's target_gpu "
                "(/facility/cooling/target_gpu or the zone's own)",
                pi_params, [](const sim::Params& p) { return std::make_unique<PiTarget>(p); }});
}

}  // namespace dcsim::models::facility
