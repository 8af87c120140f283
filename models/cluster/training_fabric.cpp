#include "models/cluster/training_fabric.hpp"

#include <string>

#include "sim/error.hpp"

namespace dcsim::models::cluster {

TrainingFabric::TrainingFabric(sim::Simulator& sim, seams::FlowNetwork& fabric,
                               std::vector<network::NodeId> hosts)
    : sim_(sim), fabric_(fabric), hosts_(std::move(hosts)) {}

network::NodeId TrainingFabric::host(int node) const {
  if (node < 0 || static_cast<std::size_t>(node) >= hosts_.size()) {
    throw sim::InternalError("TrainingFabric: cluster node " + std::to_string(node) +
                             " has no fabric host (this is a bug)");
  }
  return hosts_[static_cast<std::size_t>(node)];
}

}  // namespace dcsim::models::cluster
