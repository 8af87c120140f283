#pragma once
// Double binary tree (NCCL_ALGO_TREE), all_reduce only (as in NCCL). Inside a node the GPUs form
// a chain; across nodes two complementary binary trees each carry half the data, so every node
// is interior in at most one of them. Per node and direction the NICs carry 2S (reduce up, then
// broadcast down), per GPU the NVLink chain carries 2S:
//   B = (N == 1 ? B_nvlink : min(B_nvlink, B_node_network)) x tree_bw_factor x factor(p)
//   t = base(p) + 2((g-1) a_nvl(p) + ceil(log2 N) (a_net(p) + fabric)) + 2 S / B
// The latency grows with log2 N rather than N, which is why NCCL picks it for small multi-node
// all-reduces; its bandwidth is at most n/(n-1) x 0.9 of the ring's, so ring wins large ones.

#include "models/collective/collective_algorithm.hpp"

namespace dcsim::models::collective {

class TreeAlgorithm : public CollectiveAlgorithm {
 public:
  std::string_view name() const override { return "tree"; }
  bool supports(CollectiveOp op, const CollectiveSystem& system) const override;
  std::optional<CollectiveEstimate> estimate(CollectiveOp op, double bytes,
                                             const CollectiveSystem& system,
                                             const CollectiveTuning& tuning,
                                             Protocol p) const override;
};

void register_tree(CollectiveRegistry& registry);

}  // namespace dcsim::models::collective
