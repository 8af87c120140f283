#pragma once
// Hierarchical (two-level, as Horovod's hierarchical all-reduce or NCCL's NVLS-tree split):
// NVLink phase inside every node, network phase between nodes on each rail, run one after the
// other (not pipelined: the conservative bound). With g GPUs per node, N nodes, rails sharing the
// node's NICs (B_node_network / g per GPU):
//   all_reduce     = intra reduce_scatter (ring over g, (g-1)/g S / B_nvlink)
//                  + inter all_reduce of S/g per rail (ring over N, 2(N-1)/N S / B_node_network)
//                  + intra all_gather ((g-1)/g S / B_nvlink)
//   all_gather     = inter all_gather ((N-1)/N S / B_node_network) + intra ((g-1)/g S / B_nvlink)
//   reduce_scatter = the same phases in reverse order
//   latency        = base(p) + intra steps x a_nvl(p) + inter steps x (a_net(p) + fabric)
// It crosses the network with N-1 rather than n-1 steps, so it beats the flat ring on latency
// at scale, and loses a little bandwidth to the serialised phases.
// all_to_all and point_to_point run as grouped send/recv (as in the ring).

#include "models/collective/collective_algorithm.hpp"

namespace dcsim::models::collective {

class HierarchicalAlgorithm : public CollectiveAlgorithm {
 public:
  std::string_view name() const override { return "hierarchical"; }
  bool supports(CollectiveOp op, const CollectiveSystem& system) const override;
  std::optional<CollectiveEstimate> estimate(CollectiveOp op, double bytes,
                                             const CollectiveSystem& system,
                                             const CollectiveTuning& tuning,
                                             Protocol p) const override;
};

void register_hierarchical(CollectiveRegistry& registry);

}  // namespace dcsim::models::collective
