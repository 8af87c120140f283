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

FacilitySimulation::CrossingSink FacilitySimulation::crossing_sink(const Zone& z) const {
  const bool d2c = config_.mode == FacilityConfig::Mode::kD2c;
  return {plate_conductance(z), d2c ? z.capture : 1.0, d2c ? z.loop_c : z.air_c};
}

double FacilitySimulation::node_crossing_s(std::size_t n, const CrossingSink& s) const {
  const auto& c = config_;
  const std::size_t paths = paths_per_node_;
  double soonest_s = MinTree::kNone;
  for (std::size_t g = n * paths; g < (n + 1) * paths; ++g) {
    const auto& gpu = gpus_[g];
    if (gpu.shutdown || gpu.die_c >= c.shutdown_c) continue;
    const double threshold = gpu.die_c < c.max_operating_c ? c.max_operating_c
                             : gpu.die_c < c.slowdown_c    ? c.slowdown_c
                                                           : c.shutdown_c;
    const double die_plate_w = gpu.die_plate_w();
    const double die_rate = (s.share * gpu.power_w - die_plate_w) / c.rc.die_capacity_j_per_k;
    const double plate_rate = (die_plate_w - s.g_ps * (gpu.plate_c - s.sink_c)) / c.rc.plate_capacity_j_per_k;
    const double rate = std::max(die_rate, plate_rate);
    if (rate > 0.0) soonest_s = std::min(soonest_s, (threshold - gpu.die_c) / rate);
  }
  return soonest_s;
}

bool FacilitySimulation::cannot_cross_before_tick(const Zone& z, const CrossingSink& s) const {
  // node_crossing_s estimates each GPU's crossing as (threshold - T_d) / max(die rate, plate
  // rate). In a zone whose dies are all below max operating (threshold: max operating) and that
  // has no hot node, every GPU's gap is at least max operating - the zone's hottest die, and its
  // rates at most the zone's rise bounds. The plate term was taken at the step's conductance g0;
  // at the control's new one g1 it is bounded by
  //   G_dp dT - g1 (T_p - T_s) = [G_dp dT - g0 (T_p - T_s)] + (g0 - g1)(T_p - T_s)
  //                           <= plate_w + |g0 - g1| max |T_p - T_s|.
  // If even the fastest rate cannot close the smallest gap before the next tick, no crossing of
  // the zone can be scheduled (schedule_threshold_check leaves those to the tick). The margin
  // covers the rounding of the division: O(1).
  const auto& c = config_;
  const auto& b = z.rise;
  if (z.hot_nodes > 0 || !(z.max_gpu_c < c.max_operating_c)) return false;
  if (s.share != b.share || s.sink_c != b.sink_c) return false;
  const sim::Time horizon = tick_horizon();
  if (horizon.is_max() || horizon < z.last) return false;
  const double die_rate = b.die_w / c.rc.die_capacity_j_per_k;
  const double plate_rate = (b.plate_w + std::abs(s.g_ps - b.g_ps) * b.plate_sink_k) / c.rc.plate_capacity_j_per_k;
  const double rate = std::max(die_rate, plate_rate);
  if (!(rate < MinTree::kNone)) return false;
  if (!(rate > 0.0)) return true;  // no GPU's temperature rises: node_crossing_s finds none
  const double within_s = (horizon - z.last).seconds();
  return (c.max_operating_c - z.max_gpu_c) / rate > within_s * (1.0 + 1e-9) + 1e-6;
}

void FacilitySimulation::mark_crossing_stale(std::size_t n) {
  if (crossing_stale_[n]) return;
  crossing_stale_[n] = 1;
  stale_nodes_.push_back(n);
}

double FacilitySimulation::soonest_crossing_s() {
  // Each zone keeps its nodes' crossings in seconds from its own last step. A zone stepped since
  // the last check derives every node again and rebuilds its tree once (O(its GPUs), as its step
  // was; deriving them during the step would not save it, as the control moves the pumps'
  // speed, and with it every plate's conductance, after the step at ticks). Otherwise only what
  // changed: a zone whose sink moved (pump speed, flow faults) re-derives its nodes; a node whose
  // power changed, itself: O(its GPUs + log nodes). Then the earliest over zones, O(zones).
  // A cool zone whose rise bounds show that none of its GPUs can cross before the next tick is
  // not derived at all (cannot_cross_before_tick, O(1)): its tree is cleared, O(nodes). So a
  // cool site's tick costs one pass over its GPUs (the step), not two. Values are then exact
  // wherever the schedule reads them, i.e. before the horizon.
  const sim::Time now = sim_.now();
  const sim::Time horizon = tick_horizon();
  for (auto& z : zones_) {
    const CrossingSink sink = crossing_sink(z);
    // A tree cleared for an earlier horizon (a tick at the instant of the zone's last step moved
    // it without a step) is derived again.
    if (z.crossings_cleared && z.cleared_for != horizon) z.crossings_all_stale = true;
    if ((z.crossings_all_stale || !(sink == z.crossing)) && cannot_cross_before_tick(z, sink)) {
      // Nothing of this zone can be scheduled before the tick, which derives it again: O(nodes)
      // to clear its tree instead of O(GPUs). Nodes that change before then are derived alone.
      z.crossing = sink;
      z.crossings.clear();
      z.crossings_cleared = true;
      z.cleared_for = horizon;
      ++crossing_zone_skips_;
    } else if (z.crossings_all_stale) {
      z.crossings_cleared = false;
      z.crossing = sink;
      for (std::size_t n : z.nodes) z.crossings.set_lazily(nodes_[n].zone_slot, node_crossing_s(n, z.crossing));
      z.crossings.rebuild();
      crossing_gpu_evaluations_ += z.nodes.size() * static_cast<std::size_t>(config_.node.gpus);
    } else if (!(sink == z.crossing)) {
      z.crossings_cleared = false;
      z.crossing = sink;
      for (std::size_t n : z.nodes) mark_crossing_stale(n);
    }
  }
  for (std::size_t n : stale_nodes_) {
    crossing_stale_[n] = 0;
    auto& z = zones_[static_cast<std::size_t>(nodes_[n].zone)];
    if (z.crossings_all_stale) continue;  // derived with its zone above
    z.crossings.set(nodes_[n].zone_slot, node_crossing_s(n, z.crossing));
    crossing_gpu_evaluations_ += static_cast<std::size_t>(config_.node.gpus);
  }
  stale_nodes_.clear();
  double soonest_s = MinTree::kNone;
  for (auto& z : zones_) {
    z.crossings_all_stale = false;
    soonest_s = std::min(soonest_s, z.crossings.min() - (now - z.last).seconds());
  }
  return soonest_s;
}

sim::Time FacilitySimulation::tick_horizon() const { return std::min(next_tick_, duration_); }

double FacilitySimulation::crossing_horizon_s() const {
  const sim::Time horizon = tick_horizon();
  return horizon.is_max() ? MinTree::kNone : (horizon - sim_.now()).seconds();
}

double FacilitySimulation::soonest_crossing_by_scan_s() const {
  const sim::Time now = sim_.now();
  double soonest_s = MinTree::kNone;
  for (const auto& z : zones_) {
    const CrossingSink sink = crossing_sink(z);
    double zone_s = MinTree::kNone;
    for (std::size_t n : z.nodes) zone_s = std::min(zone_s, node_crossing_s(n, sink));
    soonest_s = std::min(soonest_s, zone_s - (now - z.last).seconds());
  }
  return soonest_s;
}

void FacilitySimulation::schedule_threshold_check() {
  if (!started_ || finished_) return;
  const double soonest_s = soonest_crossing_s();
  sim_.cancel(threshold_event_);
  const sim::Time horizon = tick_horizon();
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
  const std::size_t paths = paths_per_node_;
  // A zone whose dies are all at or below max operating and none of whose nodes is slowed or has
  // a GPU shut down would come out unchanged (clock factor 1, no shutdown, no restart): skipped,
  // so a cool site costs O(nodes) here rather than O(GPUs). Nodes stay in index order (the
  // events' order).
  cool_zones_.resize(zones_.size());
  for (std::size_t z = 0; z < zones_.size(); ++z) {
    cool_zones_[z] = zones_[z].max_gpu_c <= c.max_operating_c && zones_[z].hot_nodes == 0;
  }
  for (std::size_t n = 0; n < nodes_.size(); ++n) {
    if (cool_zones_[static_cast<std::size_t>(nodes_[n].zone)]) continue;
    bool changed = false;
    int state = 0;
    double hottest = -1e9;
    for (std::size_t g = n * paths; g < (n + 1) * paths; ++g) {
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
      zones_[static_cast<std::size_t>(node.zone)].hot_nodes += (state != 0) - (node.thermal_state != 0);
      node.thermal_state = state;
    }
    if (changed) {
      recompute_node(n);
      apply_node_clock(n);
    }
  }
}

}  // namespace dcsim::models::facility
