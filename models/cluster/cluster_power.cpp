// ClusterSimulation: node power and energy. Each node's power comes from the power source (the
// facility model, or the cluster's own linear model) at its utilisation and clock; energy is
// integrated per node and rack between changes, and the power series are appended when
// something changed (or at the telemetry interval).

#include <algorithm>

#include "models/cluster/cluster_job.hpp"
#include "models/cluster/cluster_simulation.hpp"
#include "models/power/node_power.hpp"

namespace dcsim::models::cluster {

void ClusterSimulation::set_power_source(seams::NodePowerSource* source) {
  power_source_ = source;
  for (std::size_t i = 0; i < static_cast<std::size_t>(config_.nodes); ++i) {
    integrate_node(static_cast<int>(i));
    if (power_source_) {
      power_source_->on_node_utilization(static_cast<int>(i), nodes_[i].utilization);
      nodes_[i].power_w = power_source_->node_power_w(static_cast<int>(i));
      touch_rack(static_cast<int>(i));
    }
  }
  mark_dirty();
}

void ClusterSimulation::refresh_node_power(int node) {
  integrate_node(node);
  auto& n = nodes_[static_cast<std::size_t>(node)];
  const double p = power_source_ ? power_source_->node_power_w(node)
                                 : power::node_power_w(config_.node, n.utilization);
  if (p != n.power_w) {
    n.power_w = p;
    touch_rack(node);
    mark_dirty();
  }
}

void ClusterSimulation::integrate_node(int node) {
  auto& n = nodes_[static_cast<std::size_t>(node)];
  n.energy_j += n.power_w * (sim_.now() - n.last_update).seconds();
  n.last_update = sim_.now();
}

void ClusterSimulation::set_node_utilization(int node, double utilization) {
  integrate_node(node);
  auto& n = nodes_[static_cast<std::size_t>(node)];
  n.utilization = utilization;
  if (power_source_) {
    power_source_->on_node_utilization(node, utilization);
    n.power_w = power_source_->node_power_w(node);
  } else {
    n.power_w = power::node_power_w(config_.node, utilization);
  }
  touch_rack(node);
}

void ClusterSimulation::touch_rack(int node) {
  const auto r = static_cast<std::size_t>(node / config_.nodes_per_rack);
  if (rack_dirty_[r]) return;
  rack_dirty_[r] = 1;
  dirty_racks_.push_back(static_cast<int>(r));
}

double ClusterSimulation::energy_j() const {
  double total = 0.0;
  for (const auto& n : nodes_) total += n.energy_j + n.power_w * (sim_.now() - n.last_update).seconds();
  return total;
}

void ClusterSimulation::mark_dirty() {
  if (flush_pending_) return;
  flush_pending_ = true;
  // At the end of the instant, so that several changes at one time give one settled point and
  // zero-length intermediate states never count as a peak.
  sim_.at(sim_.now(), [this] { record_series(); }, sim::Priority::kTelemetry);
}

void ClusterSimulation::record_series() {
  flush_pending_ = false;
  settle();
  if (config_.telemetry_interval > sim::Time::zero()) return;  // the tick samples instead
  append_samples(true);
}

void ClusterSimulation::settle() {
  // Only racks whose nodes changed power are summed again (a 4,096-node cluster changes a few
  // racks per event); sums are recomputed in node order, not updated by deltas: no drift, same
  // result on every run. The cluster total is the racks' sum, in rack order.
  if (dirty_racks_.empty()) return;
  const auto per_rack = static_cast<std::size_t>(config_.nodes_per_rack);
  for (int r : dirty_racks_) {
    const auto rack = static_cast<std::size_t>(r);
    double p = 0.0;
    const auto on_prem = static_cast<std::size_t>(config_.nodes);
    for (std::size_t i = rack * per_rack; i < std::min(on_prem, (rack + 1) * per_rack); ++i) p += nodes_[i].power_w;
    rack_power_w_[rack] = p;
    rack_dirty_[rack] = 0;
    peak_rack_power_w_ = std::max(peak_rack_power_w_, p);
  }
  dirty_racks_.clear();
  const double before_w = cluster_power_w_;
  cluster_power_w_ = 0.0;
  for (double p : rack_power_w_) cluster_power_w_ += p;
  peak_power_w_ = std::max(peak_power_w_, cluster_power_w_);
  // Every rack starts dirty, so the first settle announces the idle power (from 0 W).
  if (signals_ != nullptr && cluster_power_w_ != before_w) signals_->it_power.emit(seams::ItPowerChange{sim_.now(), cluster_power_w_});
}

void ClusterSimulation::append_samples(bool changed_racks_only) {
  const sim::Time now = sim_.now();
  sink_.append(power_series_, now, cluster_power_w_);
  // Step functions: without a telemetry interval a rack (group) gets a point only when its power
  // changed. O(racks) per sample, in rack order: the same sums on every run.
  const auto group = static_cast<std::size_t>(config_.racks_per_power_series);
  for (std::size_t g = 0; g < rack_series_.size(); ++g) {
    double p = 0.0;
    for (std::size_t r = g * group; r < std::min(rack_power_w_.size(), (g + 1) * group); ++r) p += rack_power_w_[r];
    if (changed_racks_only && p == rack_recorded_w_[g]) continue;
    sink_.append(rack_series_[g], now, p);
    rack_recorded_w_[g] = p;
  }
  sink_.append(running_series_, now, running_);
  sink_.append(waiting_series_, now, static_cast<double>(waiting_jobs()));
  sink_.append(busy_series_, now, static_cast<double>(busy_nodes_));
}

void ClusterSimulation::on_telemetry_tick() {
  // A change at this instant may still have its flush queued behind this tick: settle first.
  settle();
  append_samples(false);
  const sim::Time now = sim_.now();
  const bool bounded = !config_.duration.is_max();
  const sim::Time next = now + config_.telemetry_interval;
  // An open-ended run ends when the work does; ticks must not keep it alive.
  if ((bounded && next <= config_.duration) || (!bounded && has_work_left())) {
    sim_.at(next, [this] { on_telemetry_tick(); }, sim::Priority::kTelemetry);
  }
}

}  // namespace dcsim::models::cluster
