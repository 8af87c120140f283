// FacilitySimulation's power capping (power_capping.hpp): GPU power limits per node, and the
// registered policy that lowers them in a rack that would cross its limit.

#include <algorithm>
#include <utility>
#include <vector>

#include "models/facility/facility_simulation.hpp"
#include "models/facility/facility_state.hpp"
#include "models/power/gpu_power.hpp"

namespace dcsim::models::facility {

double FacilitySimulation::gpu_power_limit_w(int node) const {
  return nodes_[static_cast<std::size_t>(node)].power_limit_w;
}

void FacilitySimulation::update_cap_factor(std::size_t index) {
  auto& n = nodes_[index];
  power::GpuPowerConfig gpu = config_.node.gpu;
  gpu.power_limit_w = n.power_limit_w;
  const double cap = power::power_cap_clock_factor(gpu, n.utilization);
  if ((cap < 1.0) != (n.cap_factor < 1.0) && n.utilization > 0.0) {
    log_event(cap < 1.0 ? "power_cap" : "power_cap_end", n.zone, static_cast<int>(n.rack), static_cast<int>(index),
              cap, "GPU power limit below demand: clock lowered (DVFS)");
  }
  n.cap_factor = cap;
}

double FacilitySimulation::rack_power_at_limit_w(std::size_t rack, double gpu_limit_w) {
  const std::size_t first = rack * static_cast<std::size_t>(nodes_per_rack_);
  const std::size_t last = std::min(nodes_.size(), first + static_cast<std::size_t>(nodes_per_rack_));
  power::GpuPowerConfig gpu = config_.node.gpu;
  gpu.power_limit_w = gpu_limit_w;
  // As check_rack counts it: the nodes and the rack's share of the network switches.
  double p = config_.network_power_w / static_cast<double>(std::max<std::size_t>(1, rack_power_w_.size()));
  double clock = 1.0;
  for (std::size_t n = first; n < last; ++n) {
    p += node_ac_w_at(n, power::power_cap_clock_factor(gpu, nodes_[n].utilization), scratch_gpu_w(), &clock);
  }
  return p;
}

bool FacilitySimulation::cap_rack(std::size_t rack, std::size_t changed) {
  const std::size_t first = rack * static_cast<std::size_t>(nodes_per_rack_);
  const std::size_t last = std::min(nodes_.size(), first + static_cast<std::size_t>(nodes_per_rack_));
  const double configured_w = config_.node.gpu.power_limit_w;
  // A rack under its limit with every GPU at the configured limit needs no decision (no policy
  // caps a rack that fits). Its power is then the one check_rack keeps, but for the changed
  // node's: the common case costs at most one node's evaluation (a tick none).
  bool lowered = false;
  for (std::size_t n = first; n < last; ++n) lowered = lowered || nodes_[n].power_limit_w != configured_w;
  if (!lowered) {
    double rack_w = rack_power_w_[rack];
    if (changed < nodes_.size()) {
      power::GpuPowerConfig gpu = config_.node.gpu;
      double clock = 1.0;
      rack_w += node_ac_w_at(changed, power::power_cap_clock_factor(gpu, nodes_[changed].utilization), scratch_gpu_w(),
                             &clock) -
                nodes_[changed].ac_w;
    }
    if (rack_w <= config_.rack_limit_w) return false;
  }

  RackPowerInput input;
  input.rack_limit_w = config_.rack_limit_w;
  input.max_gpu_limit_w = configured_w;
  input.min_gpu_limit_w = std::min(config_.min_gpu_power_limit_w, configured_w);
  input.rack_power_w = [this, rack](double limit_w) { return rack_power_at_limit_w(rack, limit_w); };
  const double limit_w = std::clamp(capping_->gpu_power_limit_w(input), input.min_gpu_limit_w, configured_w);
  const int zone = nodes_[first].zone;
  const bool short_of_limit = limit_w < configured_w && rack_power_at_limit_w(rack, limit_w) > config_.rack_limit_w;
  if (short_of_limit && !rack_cap_short_[rack]) {
    log_event("rack_cap_insufficient", zone, static_cast<int>(rack), -1, limit_w,
              "even the lowest GPU power limit leaves the rack over its limit");
  }
  rack_cap_short_[rack] = short_of_limit ? 1 : 0;
  if (limit_w != rack_gpu_limit_w_[rack]) {
    rack_gpu_limit_w_[rack] = limit_w;
    log_event("rack_power_cap", zone, static_cast<int>(rack), -1, limit_w,
              limit_w < configured_w ? "GPU power limit of the rack's GPUs lowered to keep it under its limit"
                                     : "GPU power limit of the rack's GPUs back at the configured one");
  }
  // Nodes whose power falls first: the rack's running sum never passes through a crossing.
  std::vector<std::pair<double, std::size_t>> order;
  power::GpuPowerConfig gpu = config_.node.gpu;
  gpu.power_limit_w = limit_w;
  double clock = 1.0;
  for (std::size_t n = first; n < last; ++n) {
    const double after_w = node_ac_w_at(n, power::power_cap_clock_factor(gpu, nodes_[n].utilization), scratch_gpu_w(), &clock);
    order.emplace_back(after_w - nodes_[n].ac_w, n);
  }
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [delta, n] : order) {
    nodes_[n].power_limit_w = limit_w;
    update_cap_factor(n);
    recompute_node(n);
    apply_node_clock(n);
  }
  return true;
}

}  // namespace dcsim::models::facility
