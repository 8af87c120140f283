#pragma once
// The shared fabric of training jobs in flow mode: the run's network (as the FlowNetwork seam:
// the cluster starts flows and never sees the fabric's simulation class), the fabric host of
// every cluster node (cluster node i is fabric host i in scenarios), and counters. Each training
// job on it runs every step as its step graph (models/workload/step_graph.hpp) through a
// StepExecutor (step_executor.hpp), whose PP transfers and DP collectives are flows here, so
// that other jobs, oversubscription, ECMP collisions and failed links slow its steps.
//
// This replaced the "measurement rounds" (a DP all_reduce sampled on the fabric every N steps,
// scaling the analytic DP time): every step is now simulated, TP/PP/ZeRO traffic included.

#include <cstdint>
#include <vector>

#include "models/network/network_ids.hpp"
#include "models/seams/flow_network.hpp"
#include "sim/simulator.hpp"

namespace dcsim::models::cluster {

class TrainingFabric {
 public:
  // hosts[i] is the fabric host of cluster node i. References must outlive this object.
  TrainingFabric(sim::Simulator& sim, seams::FlowNetwork& fabric,
                 std::vector<network::NodeId> hosts);
  TrainingFabric(const TrainingFabric&) = delete;
  TrainingFabric& operator=(const TrainingFabric&) = delete;

  sim::Simulator& simulator() { return sim_; }
  seams::FlowNetwork& driver() { return fabric_; }
  // Fabric host of cluster node `node` (InternalError if it has none: a bug, the run checks).
  network::NodeId host(int node) const;

  void count_step(std::size_t flows) {
    ++steps_;
    flows_ += flows;
  }
  void count_failed_flow() { ++failed_flows_; }
  std::uint64_t steps_executed() const { return steps_; }
  std::uint64_t flows_started() const { return flows_; }
  std::uint64_t failed_flows() const { return failed_flows_; }

 private:
  sim::Simulator& sim_;
  seams::FlowNetwork& fabric_;
  std::vector<network::NodeId> hosts_;
  std::uint64_t steps_ = 0;
  std::uint64_t flows_ = 0;
  std::uint64_t failed_flows_ = 0;
};

}  // namespace dcsim::models::cluster
