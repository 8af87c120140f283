#include "models/cluster/network_write.hpp"

#include <utility>

#include "sim/error.hpp"

namespace dcsim::models::cluster {

NetworkWrite::NetworkWrite(TrainingFabric& network, const std::vector<int>& nodes, network::NodeId dst)
    : network_(network), dst_(dst) {
  hosts_.reserve(nodes.size());
  for (int node : nodes) hosts_.push_back(network.host(node));
}

void NetworkWrite::start(double bytes_per_node, std::function<void(bool)> on_done) {
  if (pending_ > 0) throw sim::InternalError("NetworkWrite::start while a write runs (this is a bug)");
  if (hosts_.empty()) {
    on_done(true);
    return;
  }
  on_done_ = std::move(on_done);
  pending_ = hosts_.size();
  for (network::NodeId src : hosts_) {
    network_.driver().start_flow(src, dst_, bytes_per_node, [this](const network::FinishedFlow& f) {
      if (f.failed) network_.count_failed_flow();
      if (--pending_ > 0) return;
      auto done = std::move(on_done_);
      done(true);
    }, -1, {});
  }
}

}  // namespace dcsim::models::cluster
