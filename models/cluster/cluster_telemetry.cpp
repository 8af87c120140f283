#include "models/cluster/cluster_telemetry.hpp"

#include <algorithm>
#include <limits>
#include <string>

namespace dcsim::models::cluster {

ClusterTelemetry::ClusterTelemetry(const Config& config, PowerMeter& meter, const NodePool& nodes, const Source& source,
                                   sim::Simulator& sim, sim::TraceSink& sink)
    : config_(config), meter_(meter), nodes_(nodes), source_(source), sim_(sim), sink_(sink) {
  power_series_ = sink_.declare_series("power/cluster_w", "W", "IT power of all compute nodes");
  const int racks = static_cast<int>(meter_.rack_power_w().size());
  const int group = config_.racks_per_power_series;
  for (int first = 0; group > 0 && first < racks; first += group) {
    const int last = std::min(racks, first + group) - 1;
    rack_series_.push_back(group == 1
                               ? sink_.declare_series("power/rack/" + std::to_string(first) + "_w", "W",
                                                      "IT power of the compute nodes in rack " + std::to_string(first))
                               : sink_.declare_series("power/rack_group/" + std::to_string(first / group) + "_w", "W",
                                                      "IT power of the compute nodes in racks " +
                                                          std::to_string(first) + " to " + std::to_string(last)));
  }
  rack_recorded_w_.assign(rack_series_.size(), std::numeric_limits<double>::quiet_NaN());
  running_series_ = sink_.declare_series("jobs/running", "jobs", "jobs holding nodes");
  waiting_series_ = sink_.declare_series("jobs/waiting", "jobs", "jobs arrived and not started");
  busy_series_ = sink_.declare_series("nodes/busy", "nodes", "nodes held by a job");
}

void ClusterTelemetry::start() {
  mark_dirty();
  if (config_.interval > sim::Time::zero()) {
    sim_.at(
        sim_.now(), [this] { on_tick(); }, sim::Priority::kTelemetry);
  }
}

void ClusterTelemetry::mark_dirty() {
  if (flush_pending_) return;
  flush_pending_ = true;
  sim_.at(
      sim_.now(), [this] { record_series(); }, sim::Priority::kTelemetry);
}

void ClusterTelemetry::record_series() {
  flush_pending_ = false;
  settle();
  if (config_.interval > sim::Time::zero()) return;  // the tick samples instead
  append_samples(true);
}

void ClusterTelemetry::settle() {
  const double before_w = meter_.cluster_power_w();
  meter_.settle();
  if (it_power_ != nullptr && meter_.cluster_power_w() != before_w) {
    it_power_->emit(seams::ItPowerChange{sim_.now(), meter_.cluster_power_w()});
  }
}

void ClusterTelemetry::append_samples(bool changed_racks_only) {
  const sim::Time now = sim_.now();
  sink_.append(power_series_, now, meter_.cluster_power_w());
  // Step functions: without a telemetry interval a rack (group) gets a point only when its power
  // changed, so only the groups of the racks the last settle summed are looked at (a rack it did
  // not sum has the power of the settle before, which was appended or equal to what was): O(changed
  // racks), not O(racks), per flush. In rack order: the same sums, and appends, on every run.
  const std::vector<double>& rack_w = meter_.rack_power_w();
  const auto group = static_cast<std::size_t>(config_.racks_per_power_series);
  const auto append_group = [&](std::size_t g) {
    double p = 0.0;
    for (std::size_t r = g * group; r < std::min(rack_w.size(), (g + 1) * group); ++r) p += rack_w[r];
    if (changed_racks_only && p == rack_recorded_w_[g]) return;
    sink_.append(rack_series_[g], now, p);
    rack_recorded_w_[g] = p;
  };
  if (!changed_racks_only) {
    for (std::size_t g = 0; g < rack_series_.size(); ++g) append_group(g);
  } else if (!rack_series_.empty()) {
    changed_groups_.clear();
    for (int r : meter_.settled_racks()) changed_groups_.push_back(static_cast<std::size_t>(r) / group);
    std::sort(changed_groups_.begin(), changed_groups_.end());
    changed_groups_.erase(std::unique(changed_groups_.begin(), changed_groups_.end()), changed_groups_.end());
    for (std::size_t g : changed_groups_) append_group(g);
  }
  sink_.append(running_series_, now, static_cast<double>(nodes_.running_count()));
  sink_.append(waiting_series_, now, static_cast<double>(nodes_.waiting().size()));
  sink_.append(busy_series_, now, static_cast<double>(nodes_.busy_nodes()));
}

void ClusterTelemetry::on_tick() {
  // A change at this instant may still have its flush queued behind this tick: settle first.
  settle();
  append_samples(false);
  const sim::Time now = sim_.now();
  const bool bounded = !config_.duration.is_max();
  const sim::Time next = now + config_.interval;
  // An open-ended run ends when the work does; ticks must not keep it alive.
  if ((bounded && next <= config_.duration) || (!bounded && source_.has_work_left())) {
    sim_.at(
        next, [this] { on_tick(); }, sim::Priority::kTelemetry);
  }
}

}  // namespace dcsim::models::cluster
