// GPU power by phase (gpu_phase_power.hpp): per-phase activities from the HBM / core split, and
// the time-weighted mean over a step.
#include <catch2/catch.hpp>

#include "models/hardware/gpu_presets.hpp"
#include "models/power/gpu_phase_power.hpp"
#include "models/power/gpu_power.hpp"

using namespace dcsim::models::power;

namespace {

// Phase power on the H100 SXM at nominal clock, from an activity.
double watts(double activity) {
  GpuPowerConfig gpu;  // 84 W idle, 700 W max (H100 SXM, public-figures.md)
  return gpu_power_w(gpu, activity, 1.0);
}

}  // namespace

TEST_CASE("H100 SXM phase powers follow from the HBM and core split", "[models][power]") {
  const PhaseActivities a = phase_activities({}, dcsim::models::hardware::h100_sxm5());
  // dP = 700 - 84 = 616 W; P_hbm = 3.35e12 B/s x 8 x 3.9e-12 J/bit = 104.52 W; core 511.48 W.
  CHECK(watts(a.compute) == Approx(700.0));
  // Memory-bound: 84 + 104.52 + 0.25 x 511.48 = 316.39 W.
  CHECK(watts(a.memory) == Approx(316.39).margin(0.01));
  // Communication: 84 + (32/132) x 511.48 + 0.4 x 104.52 = 84 + 124.00 + 41.81 = 249.80 W.
  CHECK(watts(a.communication) == Approx(249.80).margin(0.01));
  CHECK(watts(a.bubble) == Approx(84.0));
}

TEST_CASE("half compute and half communication averages the two phase powers", "[models][power]") {
  const PhaseActivities a = phase_activities({}, dcsim::models::hardware::h100_sxm5());
  PhaseTimes t;
  t.compute_s = 0.5;
  t.communication_s = 0.5;
  // P is linear in the activity, so the mean power is P of the mean activity:
  // (P_c + P_idle + P_copy) / 2 = (700 + 249.80) / 2 = 474.90 W.
  CHECK(watts(mean_activity(a, t)) == Approx((700.0 + 249.80) / 2).margin(0.01));
  CHECK(watts(mean_activity(a, t)) == Approx((watts(a.compute) + watts(a.communication)) / 2));
}

TEST_CASE("a communication-heavy step draws well below peak on average", "[models][power]") {
  const PhaseActivities a = phase_activities({}, dcsim::models::hardware::h100_sxm5());
  // 30% compute, 10% optimizer, 40% exposed communication, 20% bubble:
  // 0.3 x 700 + 0.1 x 316.39 + 0.4 x 249.80 + 0.2 x 84 = 358.36 W, half the 700 W peak.
  const PhaseTimes t{0.3, 0.1, 0.4, 0.2};
  CHECK(watts(mean_activity(a, t)) == Approx(358.36).margin(0.01));
  // A compute-only step stays at the limit.
  CHECK(watts(mean_activity(a, {1.0, 0.0, 0.0, 0.0})) == Approx(700.0));
}

TEST_CASE("a period without time is charged as busy", "[models][power]") {
  CHECK(mean_activity(phase_activities({}, dcsim::models::hardware::h100_sxm5()), {}) == 1.0);
}
