#include "models/power/gpu_phase_power.hpp"

#include <algorithm>

namespace dcsim::models::power {

namespace {
constexpr double kBitsPerByte = 8.0;
constexpr double kJoulesPerPicojoule = 1e-12;
}  // namespace

PhaseActivities phase_activities(const GpuPhasePowerConfig& config, const hardware::GpuSpec& gpu) {
  const double dynamic_w = gpu.max_power_w - gpu.idle_power_w;
  if (dynamic_w <= 0.0) return {};  // no dynamic range: every phase draws the same
  const double hbm_w = std::min(
      dynamic_w, gpu.hbm_bandwidth_bytes_per_s * kBitsPerByte * config.hbm_energy_pj_per_bit * kJoulesPerPicojoule);
  const double core_w = dynamic_w - hbm_w;
  const auto fraction = [dynamic_w](double w) { return std::clamp(w / dynamic_w, 0.0, 1.0); };
  PhaseActivities a;
  a.compute = std::clamp(config.compute_activity, 0.0, 1.0);
  a.memory = fraction(hbm_w + config.memory_sm_activity * core_w);
  a.communication = fraction(config.comm_sm_fraction * core_w + config.comm_hbm_fraction * hbm_w);
  a.bubble = std::clamp(config.bubble_activity, 0.0, 1.0);
  return a;
}

double mean_activity(const PhaseActivities& a, const PhaseTimes& t) {
  const double total_s = t.compute_s + t.memory_s + t.communication_s + t.bubble_s;
  if (!(total_s > 0.0)) return 1.0;
  const double weighted = a.compute * t.compute_s + a.memory * t.memory_s +
                          a.communication * t.communication_s + a.bubble * t.bubble_s;
  return std::clamp(weighted / total_s, 0.0, 1.0);
}

}  // namespace dcsim::models::power
