#include "models/cluster/power_meter.hpp"

#include <algorithm>

namespace dcsim::models::cluster {

PowerMeter::PowerMeter(int on_prem, int nodes_per_rack, double idle_w, sim::Time now)
    : on_prem_(on_prem), nodes_per_rack_(nodes_per_rack), nodes_(static_cast<std::size_t>(on_prem)) {
  for (auto& n : nodes_) {
    n.power_w = idle_w;
    n.last_update = now;
  }
  const int racks = (on_prem + nodes_per_rack - 1) / nodes_per_rack;
  rack_power_w_.assign(static_cast<std::size_t>(racks), 0.0);
  rack_dirty_.assign(static_cast<std::size_t>(racks), 1);
  for (int r = 0; r < racks; ++r) dirty_racks_.push_back(r);
}

void PowerMeter::add_unracked_node(sim::Time now) {
  Node n;
  n.last_update = now;
  nodes_.push_back(n);
}

void PowerMeter::integrate(int node, sim::Time now) {
  auto& n = nodes_[static_cast<std::size_t>(node)];
  n.energy_j += n.power_w * (now - n.last_update).seconds();
  n.last_update = now;
}

void PowerMeter::integrate_all(sim::Time now) {
  for (std::size_t i = 0; i < nodes_.size(); ++i) integrate(static_cast<int>(i), now);
}

void PowerMeter::set_power_w(int node, sim::Time now, double power_w) {
  integrate(node, now);
  nodes_[static_cast<std::size_t>(node)].power_w = power_w;
  if (node >= on_prem_) return;  // beyond the racks (never changes from 0 W)
  const auto r = static_cast<std::size_t>(node / nodes_per_rack_);
  if (rack_dirty_[r]) return;
  rack_dirty_[r] = 1;
  dirty_racks_.push_back(static_cast<int>(r));
}

double PowerMeter::energy_j(sim::Time now) const {
  double total = 0.0;
  for (const auto& n : nodes_) total += n.energy_j + n.power_w * (now - n.last_update).seconds();
  return total;
}

void PowerMeter::settle() {
  settled_racks_.clear();
  if (dirty_racks_.empty()) return;
  const auto per_rack = static_cast<std::size_t>(nodes_per_rack_);
  const auto on_prem = static_cast<std::size_t>(on_prem_);
  for (int r : dirty_racks_) {
    const auto rack = static_cast<std::size_t>(r);
    double p = 0.0;
    for (std::size_t i = rack * per_rack; i < std::min(on_prem, (rack + 1) * per_rack); ++i) p += nodes_[i].power_w;
    rack_power_w_[rack] = p;
    rack_dirty_[rack] = 0;
    peak_rack_power_w_ = std::max(peak_rack_power_w_, p);
  }
  settled_racks_.swap(dirty_racks_);  // dirty_racks_ is now the cleared old list
  cluster_power_w_ = 0.0;
  for (double p : rack_power_w_) cluster_power_w_ += p;
  peak_power_w_ = std::max(peak_power_w_, cluster_power_w_);
}

}  // namespace dcsim::models::cluster
