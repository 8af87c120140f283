#pragma once
// The cluster's IT power meter: each compute node's power, piecewise constant between the changes
// the cluster tells it of, integrated exactly into energy (E_i = sum P_i * dt_i), and the racks'
// and the cluster's sums with their peaks. Cloud instances are metered too, at 0 W (they draw no
// on-prem power), so that node ids stay the cluster's; racks and the total hold on-prem nodes only.
//
// Settling: a power change marks its node's rack; settle() sums the marked racks again, in node
// order, and the cluster total as the racks' sum, in rack order: recomputed rather than updated
// by deltas, so there is no drift and every run gives the same doubles. A 4,096-node cluster
// changes a few racks per event. Every rack starts marked: the first settle sums them all.
//
// Cost: integrate and set_power_w O(1); settle O(changed racks x nodes per rack + racks);
// integrate_all and energy_j O(nodes) (the end of the run and reports, never per event).

#include <vector>

#include "sim/time.hpp"

namespace dcsim::models::cluster {

class PowerMeter {
 public:
  // `on_prem` nodes drawing `idle_w` each from `now`, `nodes_per_rack` to a rack (both >= 1).
  PowerMeter(int on_prem, int nodes_per_rack, double idle_w, sim::Time now);

  // A node beyond the racks (a cloud instance), id after the existing ones: always 0 W.
  void add_unracked_node(sim::Time now);
  // The node's energy up to `now` at its present power.
  void integrate(int node, sim::Time now);
  void integrate_all(sim::Time now);
  // The node draws `power_w` from `now` on (integrated up to now at the old power first); its rack
  // is summed again at the next settle, even when the value did not change.
  void set_power_w(int node, sim::Time now, double power_w);
  double node_power_w(int node) const { return nodes_[static_cast<std::size_t>(node)].power_w; }
  // Energy of the node up to its last integration.
  double node_energy_j(int node) const { return nodes_[static_cast<std::size_t>(node)].energy_j; }
  // Energy of every node up to `now`.
  double energy_j(sim::Time now) const;

  // Sums the racks marked since the last settle, then the cluster total; updates the peaks.
  void settle();
  // As of the last settle.
  double cluster_power_w() const { return cluster_power_w_; }
  double peak_power_w() const { return peak_power_w_; }
  double peak_rack_power_w() const { return peak_rack_power_w_; }
  const std::vector<double>& rack_power_w() const { return rack_power_w_; }
  // The racks the last settle summed again, in the order they were marked (none when it found
  // nothing marked): every other rack's power is what it was at the settle before.
  const std::vector<int>& settled_racks() const { return settled_racks_; }

 private:
  struct Node {
    double power_w = 0.0;
    double energy_j = 0.0;
    sim::Time last_update;
  };
  int on_prem_;
  int nodes_per_rack_;
  std::vector<Node> nodes_;
  std::vector<double> rack_power_w_;
  std::vector<char> rack_dirty_;  // a node of the rack changed power since the last settle
  std::vector<int> dirty_racks_;
  std::vector<int> settled_racks_;  // dirty_racks_ of the last settle (buffers swap: no allocation)
  double cluster_power_w_ = 0.0;
  double peak_power_w_ = 0.0;
  double peak_rack_power_w_ = 0.0;
};

}  // namespace dcsim::models::cluster
