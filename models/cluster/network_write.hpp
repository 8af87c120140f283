#pragma once
// A write of every node of a job to one host of a network, as flows: each node sends its share
// as one flow from its NIC(s) to `dst`, and the write ends when the last flow has (a checkpoint to
// a store host). The network is the backend fabric the job's steps use, or the front-end network
// of the nodes' storage NICs (datacenter.hpp), whichever the job's checkpoint config names; on
// the front-end the write shares no link with the job's collectives.
//
// A flow that fails (no path) counts as ended at its failure time, and is counted on the network.

#include <cstddef>
#include <functional>
#include <vector>

#include "models/seams/checkpoint_writer.hpp"
#include "models/cluster/training_fabric.hpp"

namespace dcsim::models::cluster {

class NetworkWrite final : public seams::CheckpointWriter {
 public:
  // `nodes` are the job's cluster nodes, `dst` the host they write to; `network` must outlive
  // this object.
  NetworkWrite(TrainingFabric& network, const std::vector<int>& nodes, network::NodeId dst);
  NetworkWrite(const NetworkWrite&) = delete;
  NetworkWrite& operator=(const NetworkWrite&) = delete;

  // Every node sends `bytes_per_node` to host `dst` of the network; on_done(true) runs when the
  // last flow has finished (a host keeps what reaches it: a failed flow is counted, not
  // re-sent). One write at a time (InternalError otherwise).
  void start(double bytes_per_node, std::function<void(bool saved)> on_done) override;
  bool pending() const { return pending_ > 0; }

 private:
  TrainingFabric& network_;
  std::vector<network::NodeId> hosts_;  // per job node
  network::NodeId dst_;
  std::size_t pending_ = 0;
  std::function<void(bool)> on_done_;
};

}  // namespace dcsim::models::cluster
