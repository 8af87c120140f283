#include "models/thermal/air_side.hpp"

#include <algorithm>

namespace dcsim::models::thermal {

AirSideResult solve_air_side(const AirSideInput& in) {
  const double g_c = in.crah_approach_k > 0.0 ? in.crah_capacity_w / in.crah_approach_k : 0.0;
  const double eps = std::clamp(in.door_effectiveness, 0.0, 1.0);
  AirSideResult r;
  // A zero-capacity door (none, or cooling lost) is capped from the start: it takes nothing.
  r.door_capped = in.door_capacity_w <= 0.0;
  r.crah_capped = in.crah_capacity_w <= 0.0;
  const double c_dt = in.capacity_j_per_k / in.dt_s;
  double t = in.air_c;
  for (int iter = 0; iter < 3; ++iter) {
    // C/dt (T' - T) = R(T') - Q_d(T') - Q_c(T'), each Q linear in T' or a constant cap.
    const double keep = r.door_capped ? 1.0 : 1.0 - eps;  // share of R that stays in the room
    double lhs = c_dt - keep * in.exhaust1_w_per_k;
    double rhs = c_dt * in.air_c + keep * in.exhaust0_w;
    if (r.door_capped) rhs -= std::max(in.door_capacity_w, 0.0);
    if (r.crah_capped) {
      rhs -= std::max(in.crah_capacity_w, 0.0);
    } else {
      lhs += g_c;
      rhs += g_c * in.water_c;
    }
    t = rhs / lhs;
    bool changed = false;
    const double exhaust = in.exhaust0_w + in.exhaust1_w_per_k * t;
    if (!r.door_capped && eps * exhaust > in.door_capacity_w) r.door_capped = changed = true;
    if (!r.crah_capped && g_c * (t - in.water_c) > in.crah_capacity_w) r.crah_capped = changed = true;
    if (!changed) break;
  }
  r.air_c = t;
  r.exhaust_w = in.exhaust0_w + in.exhaust1_w_per_k * t;
  r.door_w = r.door_capped ? std::max(in.door_capacity_w, 0.0) : eps * r.exhaust_w;
  r.crah_w = r.crah_capped ? std::max(in.crah_capacity_w, 0.0) : g_c * (t - in.water_c);
  return r;
}

double door_fan_power_w(double door_w, int doors, double rated_capacity_w, double rated_fan_w) {
  if (doors <= 0 || rated_capacity_w <= 0.0) return 0.0;
  const double duty = std::clamp(door_w / (doors * rated_capacity_w), 0.0, 1.0);
  return doors * rated_fan_w * duty * duty * duty;
}

}  // namespace dcsim::models::thermal
