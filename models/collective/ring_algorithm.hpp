#pragma once
// Ring (NCCL_ALGO_RING): ranks ordered node by node, so each ring crosses every node boundary
// once; NCCL runs one ring per channel, spreading the inter-node edges over all NICs. With n
// ranks, N nodes, payload S, protocol p:
//   edge bandwidth  B = (N == 1 ? B_nvlink : min(B_nvlink, B_node_network)) x factor(p)
//     (per node, the rings' inter-node edges together carry what one ring edge carries, over all
//      NICs, so B_node_network = NICs x line rate x network efficiency)
//   all_reduce      t = base(p) + (2(n-1) - 2(N-1)) a_nvl(p) + 2(N-1) (a_net(p) + fabric)
//                       + 2(n-1)/n x S / B
//   all_gather, reduce_scatter: (n-1) steps, (N-1) of them inter-node, (n-1)/n x S / B
//   broadcast (pipelined chain): (n-1) steps, S / B
//   all_to_all, point_to_point: NCCL runs these as grouped send/recv whatever the algorithm:
//     one step; all_to_all moves max(intra (g-1)/n S / B_nvlink, inter g (n-g)/n S /
//     B_node_network); point_to_point S over NVLink (one node) or one NIC.
// On an ideal fabric (CollectiveTuning::ideal(alpha)) all_reduce is exactly
//   2(n-1)/n x S/B + 2(n-1) x alpha.

#include "models/collective/collective_algorithm.hpp"

namespace dcsim::models::collective {

class RingAlgorithm : public CollectiveAlgorithm {
 public:
  std::string_view name() const override { return "ring"; }
  bool supports(CollectiveOp op, const CollectiveSystem& system) const override;
  std::optional<CollectiveEstimate> estimate(CollectiveOp op, double bytes,
                                             const CollectiveSystem& system,
                                             const CollectiveTuning& tuning,
                                             Protocol p) const override;
};

void register_ring(CollectiveRegistry& registry);

// Shared with hierarchical: all_to_all and point_to_point as grouped send/recv.
std::optional<CollectiveEstimate> send_recv_estimate(CollectiveOp op, double bytes,
                                                     const CollectiveSystem& s,
                                                     const CollectiveTuning& t, Protocol p);

}  // namespace dcsim::models::collective
