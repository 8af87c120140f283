// GPU thermal throttling: the clock curve between max operating and slowdown, shutdown and
// restart (update_throttling), and the threshold checks that put those decisions at the crossing
// rather than at the next tick (schedule_threshold_check; facility_simulation.hpp explains them).

#include <algorithm>
#include <limits>

#include "models/facility/facility_simulation.hpp"
#include "models/facility/facility_state.hpp"

namespace dcsim::models::facility {

namespace {
// Shortest step between threshold checks (see the header): bounds the overshoot past a threshold
// to about rate x this (a die heating at 2 K/s crosses by at most 0.2 K) and the number of extra
// steps per crossing.
constexpr double kMinSubstepS = 0.1;
}  // namespace

void FacilitySimulation::schedule_threshold_check() {
  if (!started_ || finished_) return;
  const auto& c = config_;
  const bool d2c = c.mode == FacilityConfig::Mode::kD2c;
  const std::size_t per = static_cast<std::size_t>(c.node.gpus);
  double soonest_s = std::numeric_limits<double>::infinity();
  for (const auto& z : zones_) {
    const double g_ps = plate_conductance(z);
    const double share = d2c ? z.capture : 1.0;
    const double sink = d2c ? z.loop_c : z.air_c;
    for (std::size_t n : z.nodes) {
      for (std::size_t g = n * per; g < (n + 1) * per; ++g) {
        const auto& gpu = gpus_[g];
        if (gpu.shutdown || gpu.die_c >= c.shutdown_c) continue;
        const double threshold = gpu.die_c < c.max_operating_c ? c.max_operating_c
                                 : gpu.die_c < c.slowdown_c    ? c.slowdown_c
                                                               : c.shutdown_c;
        const double die_plate_w = gpu.g_die_plate * (gpu.die_c - gpu.plate_c);
        const double die_rate = (share * gpu.power_w - die_plate_w) / c.rc.die_capacity_j_per_k;
        const double plate_rate = (die_plate_w - g_ps * (gpu.plate_c - sink)) / c.rc.plate_capacity_j_per_k;
        const double rate = std::max(die_rate, plate_rate);
        if (rate > 0.0) soonest_s = std::min(soonest_s, (threshold - gpu.die_c) / rate);
      }
    }
  }
  sim_.cancel(threshold_event_);
  const sim::Time horizon = std::min(next_tick_, duration_);
  if (horizon.is_max() || !(soonest_s < (horizon - sim_.now()).seconds())) return;  // the tick decides
  const sim::Time at = sim_.now() + sim::Time::from_seconds(std::max(soonest_s, kMinSubstepS));
  if (at >= horizon) return;
  threshold_event_ = sim_.at(at, [this] {
    advance();
    update_throttling();
    schedule_threshold_check();
  }, sim::Priority::kRateChange);
}

void FacilitySimulation::update_throttling() {
  const auto& c = config_;
  const std::size_t per = static_cast<std::size_t>(c.node.gpus);
  for (std::size_t n = 0; n < nodes_.size(); ++n) {
    bool changed = false;
    int state = 0;
    double hottest = -1e9;
    for (std::size_t g = n * per; g < (n + 1) * per; ++g) {
      auto& gpu = gpus_[g];
      hottest = std::max(hottest, gpu.die_c);
      const bool was_shutdown = gpu.shutdown;
      if (gpu.shutdown && gpu.die_c < c.restart_below_c) gpu.shutdown = false;
      if (!gpu.shutdown && gpu.die_c >= c.shutdown_c) gpu.shutdown = true;
      double f = 1.0;
      if (gpu.die_c >= c.slowdown_c) {
        f = c.slowdown_clock_factor;
      } else if (gpu.die_c > c.max_operating_c) {
        f = 1.0 - (1.0 - c.slowdown_clock_factor) * (gpu.die_c - c.max_operating_c) / (c.slowdown_c - c.max_operating_c);
      }
      changed = changed || f != gpu.thermal_factor || was_shutdown != gpu.shutdown;
      gpu.thermal_factor = f;
      state = std::max(state, gpu.shutdown ? 2 : (f < 1.0 ? 1 : 0));
    }
    auto& node = nodes_[n];
    if (state != node.thermal_state) {
      static const char* kKinds[] = {"thermal_nominal", "thermal_slowdown", "gpu_shutdown"};
      static const char* kWhy[] = {"GPU dies back below the max operating temperature",
                                   "a GPU die above the max operating temperature: clocks lowered",
                                   "a GPU die reached the shutdown temperature: the node's job stalls"};
      log_event(kKinds[state], node.zone, static_cast<int>(node.rack), static_cast<int>(n), hottest, kWhy[state]);
      node.thermal_state = state;
    }
    if (changed) {
      recompute_node(n);
      apply_node_clock(n);
    }
  }
}

}  // namespace dcsim::models::facility
